package io.loadwise.trade.jdbc;

import java.sql.SQLException;
import java.util.Set;

/** The trade tables do not exist (yet): {@code /trade/config?action=buildDB} has not been run. */
public final class DatabaseNotBuiltException extends SQLException {

    public DatabaseNotBuiltException(SQLException cause) {
        super("the trade database is not built: call /trade/config?action=buildDB", cause.getSQLState(), cause);
    }

    /** "Table not found": 42S02 is the standard state, 42S04 what H2 2.x reports. */
    private static final Set<String> TABLE_NOT_FOUND = Set.of("42S02", "42S04");

    static SQLException translate(SQLException e) {
        String state = e.getSQLState();
        return state != null && TABLE_NOT_FOUND.contains(state) ? new DatabaseNotBuiltException(e) : e;
    }
}
