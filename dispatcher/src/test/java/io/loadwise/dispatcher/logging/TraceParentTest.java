package io.loadwise.dispatcher.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Which {@code traceparent} values give the access log a trace id (W3C Trace Context, level 1). */
class TraceParentTest {

    private static final String ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void aValidHeaderGivesItsTraceId() {
        assertEquals(ID, TraceParent.traceId("00-" + ID + "-00f067aa0ba902b7-01"));
        assertEquals(ID, TraceParent.traceId("01-" + ID + "-00f067aa0ba902b7-01-more"), "a later version may add");
    }

    @Test
    void anythingElseGivesNone() {
        assertNull(TraceParent.traceId(null));
        assertNull(TraceParent.traceId(""));
        assertNull(TraceParent.traceId("00-" + ID.toUpperCase() + "-00f067aa0ba902b7-01"), "uppercase");
        assertNull(TraceParent.traceId("ff-" + ID + "-00f067aa0ba902b7-01"), "version ff");
        assertNull(TraceParent.traceId("00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"), "zero trace id");
        assertNull(TraceParent.traceId("00-" + ID + "-0000000000000000-01"), "zero parent id");
        assertNull(TraceParent.traceId("00-" + ID + "-00f067aa0ba902b7-01-x"), "version 00 has nothing more");
        assertNull(TraceParent.traceId("00-" + ID + "-00f067aa0ba902b7-0"), "short");
        assertNull(TraceParent.traceId("00_" + ID + "-00f067aa0ba902b7-01"), "separator");
    }
}
