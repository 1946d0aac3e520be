package io.loadwise.dispatcher.logging;

/**
 * The trace id of a W3C {@code traceparent} header (Trace Context, level 1):
 * {@code version-traceid-parentid-flags}, lowercase hex of 2, 32, 16 and 2 digits, version not {@code ff}, and
 * neither id all zeros. Read on the access log's writer thread, so the event loop only keeps the header.
 */
final class TraceParent {

    private TraceParent() {
    }

    /** The 32 hex digits of the trace id, or {@code null} when {@code header} is absent or not valid. */
    static String traceId(String header) {
        if (header == null || header.length() < 55 || header.charAt(2) != '-' || header.charAt(35) != '-'
                || header.charAt(52) != '-' || !hex(header, 0, 2) || header.startsWith("ff")
                || !hex(header, 3, 35) || !hex(header, 36, 52) || !hex(header, 53, 55)) {
            return null;
        }
        if (header.startsWith("00") ? header.length() != 55 : header.length() > 55 && header.charAt(55) != '-') {
            return null; // version 00 has nothing more; a later version may, after a dash
        }
        if (zeros(header, 3, 35) || zeros(header, 36, 52)) {
            return null;
        }
        return header.substring(3, 35);
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
