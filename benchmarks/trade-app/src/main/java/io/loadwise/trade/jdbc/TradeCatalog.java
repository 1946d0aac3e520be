package io.loadwise.trade.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The current database size, read from {@code trade_config}. Cached briefly because every scenario
 * request needs it and any node of the cluster may rebuild the database.
 */
public final class TradeCatalog {

    private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(5);

    private record Snapshot(DatabaseSize size, long readAtNanos) {
    }

    private final DataSource dataSource;
    private volatile Snapshot snapshot;

    public TradeCatalog(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The size of the populated database; fails with {@link DatabaseNotBuiltException} before buildDB. */
    public DatabaseSize size() throws SQLException {
        Snapshot current = snapshot;
        if (current == null || System.nanoTime() - current.readAtNanos() > REFRESH_NANOS) {
            current = new Snapshot(read(), System.nanoTime());
            snapshot = current;
        }
        return current.size();
    }

    /** Forgets the cached size, e.g. right after this node rebuilt the database. */
    public void invalidate() {
        snapshot = null;
    }

    private DatabaseSize read() throws SQLException {
        int users = -1;
        int quotes = -1;
        try (Connection c = dataSource.getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT name, val FROM trade_config")) {
            while (rs.next()) {
                switch (rs.getString(1)) {
                    case "users" -> users = rs.getInt(2);
                    case "quotes" -> quotes = rs.getInt(2);
                    default -> { }
                }
            }
        } catch (SQLException e) {
            throw DatabaseNotBuiltException.translate(e);
        }
        if (users < 0 || quotes < 0) {
            throw new SQLException("trade_config lacks the users/quotes rows: rebuild the database");
        }
        return new DatabaseSize(users, quotes);
    }
}
