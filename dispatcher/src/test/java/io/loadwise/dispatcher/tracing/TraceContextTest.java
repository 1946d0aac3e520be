package io.loadwise.dispatcher.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;
import org.junit.jupiter.api.Test;

/** W3C {@code traceparent} validation and replacement with tracing off ({@link TraceContext#sanitize}). */
class TraceContextTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidHeaderAndItsStatePassUnchanged() {
        HttpHeaders h = new DefaultHttpHeaders().add("traceparent", VALID).add("tracestate", "congo=t61rcWkgMzE");
        TraceContext.sanitize(h);
        assertEquals(VALID, h.get("traceparent"));
        assertEquals("congo=t61rcWkgMzE", h.get("tracestate"));
        String future = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra";
        assertTrue(TraceContext.valid(future), "a later version may carry more after a dash");
    }

    @Test
    void malformedOnesAreReplacedByANewUnsampledTraceAndTheirStateRemoved() {
        for (String bad : List.of("", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", VALID + "-x", VALID.substring(1),
                "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x")) {
            HttpHeaders h = new DefaultHttpHeaders().add("traceparent", bad).add("tracestate", "a=b");
            TraceContext.sanitize(h);
            String replaced = h.get("traceparent");
            assertTrue(replaced.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00"), bad + " -> " + replaced);
            assertTrue(TraceContext.valid(replaced));
            assertNotEquals(bad, replaced);
            assertNull(h.get("tracestate"), bad);
            assertEquals(1, h.getAll("traceparent").size());
        }
    }

    @Test
    void twoHeadersAreNotOneTrace() {
        HttpHeaders h = new DefaultHttpHeaders().add("traceparent", VALID).add("traceparent", VALID);
        assertFalse(TraceContext.keepValid(h));
        assertNull(h.get("traceparent"));
        TraceContext.sanitize(h.add("traceparent", VALID).add("traceparent", VALID));
        assertEquals(1, h.getAll("traceparent").size());
        assertNotEquals(VALID, h.get("traceparent"));
    }

    @Test
    void aStateWithoutParentIsDroppedAndNothingIsAdded() {
        HttpHeaders h = new DefaultHttpHeaders().add("tracestate", "a=b");
        TraceContext.sanitize(h);
        assertNull(h.get("traceparent"));
        assertNull(h.get("tracestate"));
    }

    @Test
    void newTracesDiffer() {
        assertNotEquals(TraceContext.fresh(), TraceContext.fresh());
    }
}
