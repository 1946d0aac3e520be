package io.loadwise.trade.jdbc;

import java.sql.SQLException;

/** The trade tables do not exist (yet): {@code /trade/config?action=buildDB} has not been run. */
public final class DatabaseNotBuiltException extends SQLException {

    public DatabaseNotBuiltException(SQLException cause) {
        super("the trade database is not built: call /trade/config?action=buildDB", cause.getSQLState(), cause);
    }

    /** SQL state class 42 is "syntax error or access rule violation", which covers a missing table. */
    static SQLException translate(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("42") ? new DatabaseNotBuiltException(e) : e;
    }
}
