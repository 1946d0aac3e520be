package io.loadwise.trade.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * A request that keeps a JDBC connection across a pause ({@code trade.jdbc.holdMs}): it takes a connection,
 * reads, and sleeps holding it, as a conversation that reads, waits on a remote call, then writes. The trade
 * action's own reads and writes follow on their own connections, after this one is back in the pool, so a
 * request never holds two connections at once (which could deadlock a small pool). What it adds is the hold:
 * the pool's connections are in use for the pause, while the CPU is free, so resource use stops following the
 * number of requests a node runs at once.
 */
public final class HeldConnection {

    private final DataSource dataSource;
    private final long holdMillis;

    public HeldConnection(DataSource dataSource, long holdMillis) {
        if (holdMillis < 0) {
            throw new IllegalArgumentException("hold must not be negative, got " + holdMillis);
        }
        this.dataSource = dataSource;
        this.holdMillis = holdMillis;
    }

    public long holdMillis() {
        return holdMillis;
    }

    /** Takes a connection, reads, holds it {@link #holdMillis} ms, and gives it back; nothing when 0. */
    public void hold() throws SQLException {
        if (holdMillis == 0) {
            return;
        }
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet read = s.executeQuery("SELECT 1")) {
            read.next();
            Thread.sleep(holdMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while holding a JDBC connection", e);
        }
    }
}
