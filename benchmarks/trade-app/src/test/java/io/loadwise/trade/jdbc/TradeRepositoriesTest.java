package io.loadwise.trade.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.trade.model.Account;
import io.loadwise.trade.model.AccountProfile;
import io.loadwise.trade.model.Holding;
import io.loadwise.trade.model.MarketSummary;
import io.loadwise.trade.model.Order;
import io.loadwise.trade.model.OrderType;
import io.loadwise.trade.model.Quote;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JDBC layer against a real (in-memory) H2 database. */
class TradeRepositoriesTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private JdbcDataSource dataSource;
    private AccountRepository accounts;
    private QuoteRepository quotes;
    private OrderRepository orders;
    private final Random random = new Random(7);

    @BeforeEach
    void freshDatabase() {
        dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:trade" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1");
        accounts = new AccountRepository(dataSource);
        quotes = new QuoteRepository(dataSource);
        orders = new OrderRepository(dataSource);
    }

    @Test
    void beforeBuildTheCatalogSaysTheDatabaseIsNotBuilt() {
        DatabaseNotBuiltException e = assertThrows(DatabaseNotBuiltException.class,
                () -> new TradeCatalog(dataSource).size());
        assertTrue(e.getMessage().contains("buildDB"), e.getMessage());
    }

    @Test
    void buildPopulatesTheRequestedSizeAndRebuildReplacesEverything() throws SQLException {
        TradeSchema schema = new TradeSchema(dataSource);
        schema.build(new DatabaseSize(50, 20));
        Account user = accounts.login("uid:3", TradeSchema.PASSWORD).orElseThrow();
        orders.buy(user.accountId(), "s:1", 10, random);
        schema.build(new DatabaseSize(30, 10));

        assertEquals(30, count("trade_account"));
        assertEquals(30, count("trade_profile"));
        assertEquals(10, count("trade_quote"));
        assertEquals(0, count("trade_order"));
        assertEquals(new DatabaseSize(30, 10), new TradeCatalog(dataSource).size());
        assertEquals(0, accounts.account(3).orElseThrow().loginCount());
    }

    @Test
    void loginChecksThePasswordAndCountsLogins() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 5));
        assertEquals(Optional.empty(), accounts.login("uid:1", "wrong"));
        assertEquals(Optional.empty(), accounts.login("uid:99", TradeSchema.PASSWORD));
        accounts.login("uid:1", TradeSchema.PASSWORD).orElseThrow();
        Account second = accounts.login("uid:1", TradeSchema.PASSWORD).orElseThrow();
        assertEquals(2, second.loginCount());
        assertEquals(1, second.accountId());
        accounts.logout("uid:1");
        assertEquals(1, accounts.account(1).orElseThrow().logoutCount());
    }

    @Test
    void buyDebitsPriceTimesQuantityPlusFeeAddsAHoldingAndMovesTheQuote() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 5));
        Account before = accounts.account(2).orElseThrow();
        Quote quoteBefore = quotes.quote("s:4").orElseThrow();
        int holdingsBefore = orders.holdings(2).size();

        Order order = orders.buy(2, "s:4", 10, random);

        assertEquals(OrderType.BUY, order.type());
        assertEquals(quoteBefore.price(), order.price());
        BigDecimal cost = quoteBefore.price().multiply(BigDecimal.TEN).add(OrderRepository.ORDER_FEE);
        assertEquals(0, before.balance().subtract(cost).compareTo(accounts.account(2).orElseThrow().balance()));
        List<Holding> holdings = orders.holdings(2);
        assertEquals(holdingsBefore + 1, holdings.size());
        assertEquals("s:4", holdings.get(holdings.size() - 1).symbol());
        Quote quoteAfter = quotes.quote("s:4").orElseThrow();
        assertEquals(quoteBefore.volume() + 10, quoteAfter.volume(), 1e-9);
        assertEquals(List.of(order), orders.recentOrders(2, 5));
        assertEquals(1, orders.orderCount(2));
    }

    @Test
    void buyOfAnUnknownSymbolChangesNothing() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 5));
        BigDecimal balance = accounts.account(1).orElseThrow().balance();
        SQLException e = assertThrows(SQLException.class, () -> orders.buy(1, "s:999", 10, random));
        assertEquals("unknown symbol s:999", e.getMessage());
        assertEquals(balance, accounts.account(1).orElseThrow().balance());
        assertEquals(0, count("trade_order"));
    }

    @Test
    void sellSellsTheOldestHoldingAndAnEmptyPortfolioSellsNothing() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 5));
        Account registered = accounts.register(new AccountProfile("ru:test", "n", "a", "e", "c"),
                new BigDecimal("1000000.00"));
        int id = registered.accountId();
        assertEquals(Optional.empty(), orders.sellOldest(id, random));

        Order first = orders.buy(id, "s:1", 5, random);
        orders.buy(id, "s:2", 7, random);
        Order sold = orders.sellOldest(id, random).orElseThrow();

        assertEquals(OrderType.SELL, sold.type());
        assertEquals(first.symbol(), sold.symbol());
        assertEquals(5, sold.quantity(), 1e-9);
        assertEquals(List.of("s:2"), orders.holdings(id).stream().map(Holding::symbol).toList());
        assertEquals(3, orders.orderCount(id));
    }

    @Test
    void registerCreatesAnAccountAfterThePopulatedOnes() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 5));
        Account account = accounts.register(new AccountProfile("ru:x", "full", "addr", "mail", "card"),
                new BigDecimal("500.00"));
        assertTrue(account.accountId() >= 5, "id " + account.accountId());
        assertEquals("ru:x", account.userId());
        assertEquals(1, account.loginCount());
        assertEquals(2, accounts.login("ru:x", TradeSchema.PASSWORD).orElseThrow().loginCount());
        assertThrows(SQLException.class, () -> accounts.register(
                new AccountProfile("ru:x", "f", "a", "m", "c"), BigDecimal.ONE), "user ids are unique");
    }

    @Test
    void updateProfileOverwritesTheContactDetails() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 5));
        AccountProfile changed = new AccountProfile("uid:0", "first:1 last:2", "1 Elm St.", "u@x.com", "1-2-3-4");
        assertTrue(accounts.updateProfile(changed));
        assertEquals(Optional.of(changed), accounts.profile("uid:0"));
        assertFalse(accounts.updateProfile(new AccountProfile("uid:77", "a", "b", "c", "d")));
    }

    @Test
    void marketSummaryRanksTheTopMovers() throws SQLException {
        new TradeSchema(dataSource).build(new DatabaseSize(5, 12));
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("UPDATE trade_quote SET change1 = 50 WHERE symbol = 's:3'");
            s.execute("UPDATE trade_quote SET change1 = -50 WHERE symbol = 's:8'");
        }
        MarketSummary summary = quotes.marketSummary();
        assertEquals(5, summary.topGainers().size());
        assertEquals(5, summary.topLosers().size());
        assertEquals("s:3", summary.topGainers().get(0).symbol());
        assertEquals("s:8", summary.topLosers().get(0).symbol());
        assertTrue(summary.index().signum() > 0);
        assertTrue(summary.volume() >= 0);
    }

    private int count(String table) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
