package io.loadwise.bench.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** libFuzzer's status lines as Jazzer 0.30 prints them. */
class FuzzStatusTest {

    @Test
    void readsTheStatusLines() {
        assertEquals(new FuzzStatus("INITED", 276, 286, 1060, 224, 0),
                FuzzStatus.parse("#276\tINITED cov: 286 ft: 1060 corp: 224/20Kb exec/s: 0 rss: 582Mb"));
        assertEquals(new FuzzStatus("pulse", 16384, 286, 1062, 225, 8192),
                FuzzStatus.parse("#16384\tpulse  cov: 286 ft: 1062 corp: 225/20Kb lim: 1185 exec/s: 8192 rss: 584Mb"));
        assertEquals(new FuzzStatus("NEW", 8179, 286, 1062, 225, 8179),
                FuzzStatus.parse("#8179\tNEW    cov: 286 ft: 1062 corp: 225/20Kb lim: 1145 exec/s: 8179 rss: 582Mb"
                        + " L: 150/1105 MS: 2 ManualDict-Custom- DE: \"e-324\"-"));
        assertEquals(new FuzzStatus("DONE", 713549, 300, 1200, 250, 44596),
                FuzzStatus.parse("#713549\tDONE   cov: 300 ft: 1200 corp: 250/30Kb lim: 4096 exec/s: 44596 rss: 600Mb"));
        assertEquals("713549 inputs, 44596/s, coverage 300, corpus 250", FuzzStatus.parse(
                "#713549\tDONE   cov: 300 ft: 1200 corp: 250/30Kb exec/s: 44596 rss: 600Mb").describe());
    }

    @Test
    void otherLinesAreNotStatus() {
        assertNull(FuzzStatus.parse("INFO: seed corpus: files: 14 min: 6b max: 280b total: 1256b rss: 567Mb"));
        assertNull(FuzzStatus.parse("Done 713549 runs in 16 second(s)"));
        assertNull(FuzzStatus.parse("[INFO] Tests run: 9, Failures: 0, Errors: 0, Skipped: 0"));
    }
}
