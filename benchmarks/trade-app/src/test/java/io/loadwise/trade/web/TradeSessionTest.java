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
        assertEquals("trade.session.historyLimit must be positive, got -3",
                assertThrows(IllegalArgumentException.class, () -> TradeAppListener.historyLimit("-3")).getMessage());
    }
}
