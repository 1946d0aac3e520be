package io.loadwise.trade.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Inserts rows with multi-row {@code INSERT ... VALUES (...), (...)} statements. A JDBC batch over
 * a network driver may still cost one round trip per row; this costs one per {@code rowsPerStatement}.
 */
final class RowInserter implements AutoCloseable {

    private final Connection connection;
    private final String prefix;
    private final int columns;
    private final int rowsPerStatement;
    private final List<Object[]> pending = new ArrayList<>();
    private PreparedStatement fullStatement;

    RowInserter(Connection connection, String table, List<String> columnNames, int rowsPerStatement) {
        this.connection = connection;
        this.prefix = "INSERT INTO " + table + " (" + String.join(", ", columnNames) + ") VALUES ";
        this.columns = columnNames.size();
        this.rowsPerStatement = rowsPerStatement;
    }

    void add(Object... row) throws SQLException {
        if (row.length != columns) {
            throw new IllegalArgumentException("expected " + columns + " values, got " + row.length);
        }
        pending.add(row);
        if (pending.size() == rowsPerStatement) {
            if (fullStatement == null) {
                fullStatement = connection.prepareStatement(sql(rowsPerStatement));
            }
            execute(fullStatement);
        }
    }

    /** Inserts the rows still pending. */
    void flush() throws SQLException {
        if (!pending.isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(sql(pending.size()))) {
                execute(ps);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            flush();
        } finally {
            if (fullStatement != null) {
                fullStatement.close();
            }
        }
    }

    private void execute(PreparedStatement ps) throws SQLException {
        int index = 1;
        for (Object[] row : pending) {
            for (Object value : row) {
                ps.setObject(index++, value);
            }
        }
        ps.executeUpdate();
        pending.clear();
    }

    private String sql(int rows) {
        String row = "(" + String.join(", ", Collections.nCopies(columns, "?")) + ")";
        return prefix + String.join(", ", Collections.nCopies(rows, row));
    }
}
