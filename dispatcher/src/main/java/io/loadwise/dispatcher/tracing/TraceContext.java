package io.loadwise.dispatcher.tracing;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * W3C Trace Context (level 1) headers of a request on its way to a node: {@code traceparent} is
 * {@code version-traceid-parentid-flags}, lowercase hex of 2, 32, 16 and 2 digits, version not {@code ff}, neither
 * id all zeros, nothing after version 00's flags. A missing one stays missing; a malformed one, or more than one, is
 * never forwarded: it is replaced by a new trace (not sampled) and the request's {@code tracestate}, which belongs
 * to it, is removed. Used when tracing is off; with tracing on the proxy's own span replaces the header anyway.
 */
public final class TraceContext {

    public static final AsciiString TRACEPARENT = AsciiString.cached("traceparent");
    public static final AsciiString TRACESTATE = AsciiString.cached("tracestate");
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceContext() {
    }

    /** Whether {@code headers} carry one valid {@code traceparent}; removes a malformed or repeated one and its state. */
    public static boolean keepValid(HttpHeaders headers) {
        String value = headers.get(TRACEPARENT);
        if (value == null) {
            headers.remove(TRACESTATE); // a state without its parent means nothing
            return false;
        }
        if (valid(value)) {
            List<String> all = headers.getAll(TRACEPARENT);
            if (all.size() == 1) {
                return true;
            }
        }
        headers.remove(TRACEPARENT);
        headers.remove(TRACESTATE);
        return false;
    }

    /** {@link #keepValid}, then a new unsampled trace in place of a malformed header (tracing off). */
    public static void sanitize(HttpHeaders headers) {
        String value = headers.get(TRACEPARENT);
        if (value == null) {
            headers.remove(TRACESTATE);
        } else if (!valid(value) || headers.getAll(TRACEPARENT).size() != 1) {
            headers.set(TRACEPARENT, fresh());
            headers.remove(TRACESTATE);
        }
    }

    static boolean valid(String header) {
        if (header.length() < 55 || header.charAt(2) != '-' || header.charAt(35) != '-' || header.charAt(52) != '-'
                || !hex(header, 0, 2) || header.startsWith("ff") || !hex(header, 3, 35) || !hex(header, 36, 52)
                || !hex(header, 53, 55)) {
            return false;
        }
        if (header.startsWith("00") ? header.length() != 55 : header.length() > 55 && header.charAt(55) != '-') {
            return false;
        }
        return !zeros(header, 3, 35) && !zeros(header, 36, 52);
    }

    /** A new trace id and parent id, flags 00 (not sampled). */
    static String fresh() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] c = "00-00000000000000000000000000000000-0000000000000000-00".toCharArray();
        long hi;
        do {
            hi = random.nextLong();
        } while (hi == 0);
        fill(c, 3, hi);
        fill(c, 19, random.nextLong());
        long span;
        do {
            span = random.nextLong();
        } while (span == 0);
        fill(c, 36, span);
        return new String(c);
    }

    private static void fill(char[] c, int from, long bits) {
        for (int i = 15; i >= 0; i--) {
            c[from + i] = HEX[(int) bits & 0xf];
            bits >>>= 4;
        }
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
