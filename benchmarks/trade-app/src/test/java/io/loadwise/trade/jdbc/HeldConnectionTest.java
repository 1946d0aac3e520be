package io.loadwise.trade.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

class HeldConnectionTest {

    private static JdbcDataSource h2() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:held;DB_CLOSE_DELAY=-1");
        return h2;
    }

    /** Counts the connections handed out and still open. */
    private static final class Counting {
        final AtomicInteger open = new AtomicInteger();
        int peak;
        final DataSource dataSource = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    Connection c = h2().getConnection();
                    peak = Math.max(peak, open.incrementAndGet());
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                            (p, m, a) -> {
                                if (m.getName().equals("close")) {
                                    open.decrementAndGet();
                                }
                                try {
                                    return m.invoke(c, a);
                                } catch (InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                });
    }

    @Test
    void holdsOneConnectionForTheHoldAndGivesItBack() throws SQLException {
        Counting pool = new Counting();
        long start = System.nanoTime();
        new HeldConnection(pool.dataSource, 120).hold();
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs >= 120, "held " + tookMs + " ms");
        assertEquals(1, pool.peak, "one connection");
        assertEquals(0, pool.open.get(), "given back");
    }

    @Test
    void noHoldTakesNoConnection() throws SQLException {
        Counting pool = new Counting();
        new HeldConnection(pool.dataSource, 0).hold();
        assertEquals(0, pool.peak);
        assertThrows(IllegalArgumentException.class, () -> new HeldConnection(pool.dataSource, -1));
    }

    @Test
    void aConnectionThePoolCannotHandOutIsUnavailable() {
        JdbcDataSource unreachable = new JdbcDataSource();
        unreachable.setURL("jdbc:h2:tcp://127.0.0.1:1/nothing-listens-here");
        UnavailableTranslatingDataSource source = new UnavailableTranslatingDataSource(unreachable);
        ConnectionUnavailableException e = assertThrows(ConnectionUnavailableException.class,
                () -> new HeldConnection(source, 10).hold());
        assertTrue(e.getMessage().startsWith("no JDBC connection: "), e.getMessage());
        assertSame(e, DatabaseNotBuiltException.translate(e), "not mistaken for a missing table");
    }
}
