package io.loadwise.trade.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The container's DataSource, with a failure to hand out a connection turned into a
 * {@link ConnectionUnavailableException}. Every pool reports a timeout its own way (DBCP: "Timeout waiting for idle
 * object", GlassFish: "expired max-wait-time"); failing in {@code getConnection} is what they share.
 */
public final class UnavailableTranslatingDataSource implements DataSource {

    private final DataSource pool;

    public UnavailableTranslatingDataSource(DataSource pool) {
        this.pool = pool;
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            return pool.getConnection();
        } catch (SQLException e) {
            throw new ConnectionUnavailableException(e);
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        try {
            return pool.getConnection(username, password);
        } catch (SQLException e) {
            throw new ConnectionUnavailableException(e);
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
