package io.loadwise.trade.jdbc;

import io.loadwise.trade.model.Holding;
import io.loadwise.trade.model.Order;
import io.loadwise.trade.model.OrderType;
import io.loadwise.trade.model.Quote;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * Buying and selling (each one transaction over order, holding, account and quote) and the
 * portfolio and order-history reads. Rows are locked in the order holding, account, quote.
 */
public final class OrderRepository {

    public static final BigDecimal ORDER_FEE = new BigDecimal("24.95");

    private final DataSource dataSource;

    public OrderRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Buys shares at the current price: debits the account, adds a holding, moves the quote. */
    public Order buy(int accountId, String symbol, double quantity, RandomGenerator random) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Quote quote = QuoteRepository.find(c, symbol)
                        .orElseThrow(() -> new SQLException("unknown symbol " + symbol));
                BigDecimal price = quote.price();
                adjustBalance(c, accountId, total(price, quantity).add(ORDER_FEE).negate());
                Timestamp now = now();
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO trade_holding (accountid, symbol,"
                        + " quantity, purchaseprice, purchasedate) VALUES (?, ?, ?, ?, ?)")) {
                    ps.setInt(1, accountId);
                    ps.setString(2, symbol);
                    ps.setDouble(3, quantity);
                    ps.setBigDecimal(4, price);
                    ps.setTimestamp(5, now);
                    ps.executeUpdate();
                }
                Order order = insertOrder(c, accountId, OrderType.BUY, symbol, quantity, price, now);
                QuoteRepository.applyTrade(c, symbol, quantity, random);
                c.commit();
                return order;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
    }

    /**
     * Sells the account's oldest holding at the current price. Empty when the account holds nothing
     * or a concurrent session of the same user sold that holding first.
     */
    public Optional<Order> sellOldest(int accountId, RandomGenerator random) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Optional<Holding> oldest = holdings(c, accountId, 1).stream().findFirst();
                if (oldest.isEmpty() || !delete(c, oldest.get().holdingId())) {
                    c.rollback();
                    return Optional.empty();
                }
                Holding holding = oldest.get();
                BigDecimal price = holding.currentPrice();
                adjustBalance(c, accountId, total(price, holding.quantity()).subtract(ORDER_FEE));
                Order order = insertOrder(c, accountId, OrderType.SELL, holding.symbol(), holding.quantity(), price,
                        now());
                QuoteRepository.applyTrade(c, holding.symbol(), holding.quantity(), random);
                c.commit();
                return Optional.of(order);
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
    }

    /** All holdings of the account, oldest first, with current prices. */
    public List<Holding> holdings(int accountId) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return holdings(c, accountId, Integer.MAX_VALUE);
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
    }

    /** The account's newest orders, newest first. */
    public List<Order> recentOrders(int accountId, int limit) throws SQLException {
        List<Order> result = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT orderid, ordertype, symbol, quantity, price,"
                     + " orderfee, completiondate FROM trade_order WHERE accountid = ? ORDER BY orderid DESC"
                     + " FETCH FIRST " + limit + " ROWS ONLY")) {
            ps.setInt(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    result.add(new Order(rs.getLong(1), OrderType.fromDb(rs.getString(2)), rs.getString(3),
                            rs.getDouble(4), rs.getBigDecimal(5), rs.getBigDecimal(6),
                            rs.getTimestamp(7).toInstant()));
                }
            }
        }
        return result;
    }

    public int orderCount(int accountId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM trade_order WHERE accountid = ?")) {
            ps.setInt(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static List<Holding> holdings(Connection c, int accountId, int limit) throws SQLException {
        List<Holding> result = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT h.holdingid, h.symbol, h.quantity, h.purchaseprice,"
                + " h.purchasedate, q.price FROM trade_holding h JOIN trade_quote q ON q.symbol = h.symbol"
                + " WHERE h.accountid = ? ORDER BY h.holdingid")) {
            ps.setInt(1, accountId);
            ps.setMaxRows(limit == Integer.MAX_VALUE ? 0 : limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    result.add(new Holding(rs.getLong(1), rs.getString(2), rs.getDouble(3), rs.getBigDecimal(4),
                            rs.getTimestamp(5).toInstant(), rs.getBigDecimal(6)));
                }
            }
        }
        return result;
    }

    private static boolean delete(Connection c, long holdingId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM trade_holding WHERE holdingid = ?")) {
            ps.setLong(1, holdingId);
            return ps.executeUpdate() == 1;
        }
    }

    private static void adjustBalance(Connection c, int accountId, BigDecimal delta) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE trade_account SET balance = balance + ? WHERE accountid = ?")) {
            ps.setBigDecimal(1, delta);
            ps.setInt(2, accountId);
            if (ps.executeUpdate() != 1) {
                throw new SQLException("no account " + accountId);
            }
        }
    }

    private static Order insertOrder(Connection c, int accountId, OrderType type, String symbol, double quantity,
            BigDecimal price, Timestamp completed) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO trade_order (accountid, symbol, ordertype,"
                + " quantity, price, orderfee, completiondate) VALUES (?, ?, ?, ?, ?, ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setInt(1, accountId);
            ps.setString(2, symbol);
            ps.setString(3, type.dbValue());
            ps.setDouble(4, quantity);
            ps.setBigDecimal(5, price);
            ps.setBigDecimal(6, ORDER_FEE);
            ps.setTimestamp(7, completed);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return new Order(keys.getLong(1), type, symbol, quantity, price, ORDER_FEE, completed.toInstant());
            }
        }
    }

    /** Microseconds, the TIMESTAMP precision, so a returned order equals the one read back later. */
    private static Timestamp now() {
        return Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
    }

    private static BigDecimal total(BigDecimal price, double quantity) {
        return price.multiply(BigDecimal.valueOf(quantity)).setScale(2, RoundingMode.HALF_EVEN);
    }
}
