package io.loadwise.trade.jdbc;

import io.loadwise.trade.model.MarketSummary;
import io.loadwise.trade.model.Quote;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/** Quote reads, the market summary, and the price move each trade causes. */
public final class QuoteRepository {

    private static final String SELECT_QUOTE =
            "SELECT symbol, companyname, volume, price, open1, low, high, change1 FROM trade_quote";
    private static final int TOP_MOVERS = 5;
    /** DayTrader's bounds: a penny stock is multiplied up, an expensive one split 2:1. */
    private static final BigDecimal PENNY_STOCK = new BigDecimal("0.10");
    private static final BigDecimal MAXIMUM_PRICE = new BigDecimal("400");

    private final DataSource dataSource;

    public QuoteRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Optional<Quote> quote(String symbol) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return find(c, symbol);
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
    }

    /** The given quotes in the given order; unknown symbols are left out. */
    public List<Quote> quotes(List<String> symbols) throws SQLException {
        List<Quote> result = new ArrayList<>(symbols.size());
        try (Connection c = dataSource.getConnection()) {
            for (String symbol : symbols) {
                find(c, symbol).ifPresent(result::add);
            }
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
        return result;
    }

    /** Average price and open price over all quotes, total volume, and the top five movers each way. */
    public MarketSummary marketSummary() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            BigDecimal index;
            BigDecimal openIndex;
            double volume;
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT AVG(price), AVG(open1), SUM(volume) FROM trade_quote")) {
                rs.next();
                index = scale(rs.getBigDecimal(1));
                openIndex = scale(rs.getBigDecimal(2));
                volume = rs.getDouble(3);
            }
            return new MarketSummary(index, openIndex, volume, movers(c, "DESC"), movers(c, "ASC"));
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
    }

    /**
     * Moves the quote's price by a random factor of up to ±10 % and adds the traded volume, on the
     * caller's connection so it joins the order's transaction.
     */
    static BigDecimal applyTrade(Connection c, String symbol, double quantity, RandomGenerator random)
            throws SQLException {
        Quote quote = find(c, symbol).orElseThrow(() -> new SQLException("unknown symbol " + symbol));
        BigDecimal factor = BigDecimal.valueOf(0.9 + random.nextDouble() * 0.2);
        BigDecimal price = quote.price().multiply(factor).setScale(2, RoundingMode.HALF_EVEN);
        if (price.compareTo(PENNY_STOCK) < 0) {
            price = price.multiply(BigDecimal.valueOf(6)).max(PENNY_STOCK);
        } else if (price.compareTo(MAXIMUM_PRICE) > 0) {
            price = price.divide(BigDecimal.valueOf(2), 2, RoundingMode.HALF_EVEN);
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE trade_quote SET price = ?, change1 = ? - open1,"
                + " volume = volume + ?, low = LEAST(low, ?), high = GREATEST(high, ?) WHERE symbol = ?")) {
            ps.setBigDecimal(1, price);
            ps.setBigDecimal(2, price);
            ps.setDouble(3, quantity);
            ps.setBigDecimal(4, price);
            ps.setBigDecimal(5, price);
            ps.setString(6, symbol);
            ps.executeUpdate();
        }
        return quote.price();
    }

    static Optional<Quote> find(Connection c, String symbol) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT_QUOTE + " WHERE symbol = ?")) {
            ps.setString(1, symbol);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    private static List<Quote> movers(Connection c, String direction) throws SQLException {
        List<Quote> result = new ArrayList<>(TOP_MOVERS);
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(SELECT_QUOTE + " ORDER BY change1 " + direction
                     + " FETCH FIRST " + TOP_MOVERS + " ROWS ONLY")) {
            while (rs.next()) {
                result.add(read(rs));
            }
        }
        return result;
    }

    private static Quote read(ResultSet rs) throws SQLException {
        return new Quote(rs.getString(1), rs.getString(2), rs.getDouble(3), rs.getBigDecimal(4),
                rs.getBigDecimal(5), rs.getBigDecimal(6), rs.getBigDecimal(7), rs.getDouble(8));
    }

    private static BigDecimal scale(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value.setScale(2, RoundingMode.HALF_EVEN);
    }
}
