package io.loadwise.trade.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class TradeSessionTest {

    @Test
    void historyKeepsTheNewestEntriesUpToTheLimit() {
        TradeSession session = new TradeSession("uid:7", 7, 3);
        for (int i = 0; i < 5; i++) {
            session.record(TradeAction.QUOTE, "q" + i);
        }
        List<TradeSession.Entry> history = session.history();
        assertEquals(List.of("q2", "q3", "q4"), history.stream().map(TradeSession.Entry::detail).toList());
        assertEquals("uid:7", session.userId());
        assertEquals(7, session.accountId());
    }

    @Test
    void sessionHoldsItsFixedStateAndRejectsNegativeSizes() {
        assertEquals(0, new TradeSession("uid:1", 1, 10).stateBytes());
        assertEquals(48 * 1024, new TradeSession("uid:1", 1, 10, 48).stateBytes());
        assertEquals("stateKb must not be negative, got -1",
                assertThrows(IllegalArgumentException.class, () -> new TradeSession("uid:1", 1, 10, -1)).getMessage());
    }

    @Test
    void stateSizeParameterIsParsedAndChecked() {
        assertEquals(0, TradeAppListener.stateKb(null));
        assertEquals(0, TradeAppListener.stateKb(" "));
        assertEquals(200, TradeAppListener.stateKb("200"));
        assertEquals("trade.session.stateKb is not an integer: '1MB'",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.stateKb("1MB")).getMessage());
        assertEquals("trade.session.stateKb must be between 0 and 65536, got 70000",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.stateKb("70000")).getMessage());
    }

    @Test
    void jdbcHoldParameterIsParsedAndChecked() {
        assertEquals(0, TradeAppListener.jdbcHoldMs(null), "unset: no hold");
        assertEquals(250, TradeAppListener.jdbcHoldMs("250"));
        assertEquals("trade.jdbc.holdMs must be between 0 and 600000, got -5",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.jdbcHoldMs("-5")).getMessage());
    }

    @Test
    void timeoutParameterIsParsedAndChecked() {
        assertEquals(0, TradeAppListener.timeoutSeconds(null), "unset: web.xml's session-timeout");
        assertEquals(15, TradeAppListener.timeoutSeconds("15"));
        assertEquals("trade.session.timeoutSeconds must be at least 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.timeoutSeconds("0")).getMessage());
        assertEquals("trade.session.timeoutSeconds is not an integer: '1m'",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.timeoutSeconds("1m")).getMessage());
    }

    @Test
    void historyLimitMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TradeSession("u", 1, 0));
        assertEquals("historyLimit must be positive, got 0", e.getMessage());
    }

    @Test
    void historyLimitParameterIsParsedAndChecked() {
        assertEquals(100, TradeAppListener.historyLimit(null));
        assertEquals(25, TradeAppListener.historyLimit(" 25 "));
        assertEquals("trade.session.historyLimit is not an integer: 'lots'",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.historyLimit("lots")).getMessage());
        assertEquals("trade.session.historyLimit must be at least 1, got -3",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.historyLimit("-3")).getMessage());
    }
}
