package io.loadwise.trade.web;

import io.loadwise.trade.jdbc.DatabaseSize;
import io.loadwise.trade.jdbc.RandomProfiles;
import io.loadwise.trade.model.Account;
import io.loadwise.trade.model.AccountProfile;
import io.loadwise.trade.model.Holding;
import io.loadwise.trade.model.MarketSummary;
import io.loadwise.trade.model.Order;
import io.loadwise.trade.model.Quote;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** The scenario's actions for a logged-in user; each does its JDBC work and returns the page to show. */
final class TradePages {

    private static final int MAX_QUOTES_PER_PAGE = 5;
    private static final int MAX_QUANTITY = 200;
    private static final int RECENT_ORDERS = 5;
    private static final List<String> QUOTE_COLUMNS =
            List.of("symbol", "company", "volume", "price range", "open price", "current price", "gain/loss");

    private final TradeServices services;

    TradePages(TradeServices services) {
        this.services = services;
    }

    HtmlPage home(TradeSession session) throws SQLException {
        Account account = accountOf(session);
        MarketSummary market = services.quotes().marketSummary();
        session.record(TradeAction.HOME, "index " + market.index());
        return new HtmlPage("DayTrader Home")
                .paragraph("Welcome " + session.userId())
                .facts("account ID", account.accountId(), "account created", account.created(),
                        "total logins", account.loginCount(), "session created", session.loggedIn(),
                        "cash balance", account.balance())
                .heading("Market Summary")
                .facts("stock index", market.index(), "open index", market.openIndex(), "trading volume", market.volume())
                .heading("Top Gainers").table(QUOTE_COLUMNS, quoteRows(market.topGainers()))
                .heading("Top Losers").table(QUOTE_COLUMNS, quoteRows(market.topLosers()));
    }

    HtmlPage quotes(TradeSession session, RandomGenerator random) throws SQLException {
        int quotes = services.catalog().size().quotes();
        int count = 1 + random.nextInt(MAX_QUOTES_PER_PAGE);
        List<String> symbols = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            symbols.add(DatabaseSize.symbol(random.nextInt(quotes)));
        }
        List<Quote> found = services.quotes().quotes(symbols);
        StringBuilder detail = new StringBuilder();
        for (Quote quote : found) {
            detail.append(quote.symbol()).append('@').append(quote.price()).append(' ');
        }
        session.record(TradeAction.QUOTE, detail.toString());
        return new HtmlPage("DayTrader Quotes").table(QUOTE_COLUMNS, quoteRows(found));
    }

    HtmlPage account(TradeSession session) throws SQLException {
        Account account = accountOf(session);
        AccountProfile profile = services.accounts().profile(session.userId())
                .orElseThrow(() -> new StaleSessionException(session.accountId()));
        int orderCount = services.orders().orderCount(account.accountId());
        List<Order> recent = services.orders().recentOrders(account.accountId(), RECENT_ORDERS);
        session.record(TradeAction.ACCOUNT, "balance " + account.balance() + ", orders " + orderCount);
        List<List<?>> rows = new ArrayList<>();
        for (Order order : recent) {
            rows.add(List.of(order.orderId(), order.type().dbValue(), order.symbol(), order.quantity(), order.price(),
                    order.fee(), order.completed()));
        }
        return new HtmlPage("DayTrader Account")
                .facts("account ID", account.accountId(), "user ID", account.userId(),
                        "account created", account.created(), "last login", account.lastLogin(),
                        "total logins", account.loginCount(), "total logouts", account.logoutCount(),
                        "cash balance", account.balance(), "opening balance", account.openBalance())
                .heading("Total Orders: " + orderCount)
                .table(List.of("order ID", "type", "symbol", "quantity", "price", "fee", "completed"), rows)
                .heading("Account Profile")
                .facts("full name", profile.fullName(), "address", profile.address(), "email", profile.email(),
                        "credit card", profile.creditCard());
    }

    HtmlPage portfolio(TradeSession session) throws SQLException {
        List<Holding> holdings = services.orders().holdings(session.accountId());
        BigDecimal basis = BigDecimal.ZERO;
        BigDecimal value = BigDecimal.ZERO;
        List<List<?>> rows = new ArrayList<>(holdings.size());
        for (Holding h : holdings) {
            BigDecimal quantity = BigDecimal.valueOf(h.quantity());
            basis = basis.add(h.purchasePrice().multiply(quantity));
            value = value.add(h.currentPrice().multiply(quantity));
            rows.add(List.of(h.holdingId(), h.purchased(), h.symbol(), h.quantity(), h.purchasePrice(), h.currentPrice()));
        }
        session.record(TradeAction.PORTFOLIO, holdings.size() + " holdings worth " + value);
        return new HtmlPage("DayTrader Portfolio")
                .facts("number of holdings", holdings.size(), "purchase basis", basis, "market value", value,
                        "gain/loss", value.subtract(basis))
                .table(List.of("holding ID", "purchase date", "symbol", "quantity", "purchase price", "current price"),
                        rows);
    }

    HtmlPage buy(TradeSession session, RandomGenerator random) throws SQLException {
        String symbol = DatabaseSize.symbol(random.nextInt(services.catalog().size().quotes()));
        Order order = services.orders().buy(session.accountId(), symbol, 1 + random.nextInt(MAX_QUANTITY), random);
        return confirmation(session, TradeAction.BUY, order);
    }

    /** Sells the oldest holding; like DayTrader, a user with nothing to sell buys instead. */
    HtmlPage sell(TradeSession session, RandomGenerator random) throws SQLException {
        Optional<Order> sold = services.orders().sellOldest(session.accountId(), random);
        return sold.isPresent() ? confirmation(session, TradeAction.SELL, sold.get()) : buy(session, random);
    }

    HtmlPage updateProfile(TradeSession session, RandomGenerator random) throws SQLException {
        AccountProfile profile = RandomProfiles.profile(session.userId(), random);
        if (!services.accounts().updateProfile(profile)) {
            throw new StaleSessionException(session.accountId());
        }
        session.record(TradeAction.UPDATE_PROFILE, profile.address());
        return new HtmlPage("DayTrader Account Profile")
                .paragraph("Account profile update successful")
                .facts("user ID", profile.userId(), "full name", profile.fullName(), "address", profile.address(),
                        "email", profile.email(), "credit card", profile.creditCard());
    }

    private HtmlPage confirmation(TradeSession session, TradeAction action, Order order) {
        session.record(action, "order " + order.orderId() + " " + order.symbol() + " x" + order.quantity()
                + " @ " + order.price());
        return new HtmlPage("DayTrader New Order")
                .paragraph("Order " + order.orderId() + " to " + order.type().dbValue() + " completed")
                .facts("order ID", order.orderId(), "type", order.type().dbValue(), "symbol", order.symbol(),
                        "quantity", order.quantity(), "price", order.price(), "fee", order.fee(),
                        "completed", order.completed());
    }

    private Account accountOf(TradeSession session) throws SQLException {
        return services.accounts().account(session.accountId())
                .orElseThrow(() -> new StaleSessionException(session.accountId()));
    }

    private static List<List<?>> quoteRows(List<Quote> quotes) {
        List<List<?>> rows = new ArrayList<>(quotes.size());
        for (Quote q : quotes) {
            rows.add(List.of(q.symbol(), q.companyName(), q.volume(), q.low() + " - " + q.high(), q.open(), q.price(),
                    String.format(java.util.Locale.ROOT, "%+.2f", q.change())));
        }
        return rows;
    }
}
