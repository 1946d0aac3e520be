package io.loadwise.trade.jdbc;

import java.sql.SQLException;

/**
 * No JDBC connection could be had: the pool stayed exhausted for its longest wait (or the database is out of
 * reach). The scenario answers 503, as a node out of a resource should, not 500.
 */
public final class ConnectionUnavailableException extends SQLException {

    public ConnectionUnavailableException(SQLException cause) {
        super("no JDBC connection: " + cause.getMessage(), cause.getSQLState(), cause);
    }
}
