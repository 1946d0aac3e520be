package io.loadwise.console.api;

/** Number conversions for JSON: a figure that does not exist (0 / 0) is {@code null}, never NaN. */
final class Figures {

    private Figures() {
    }

    static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    /** {@code total / count} in milliseconds, or {@code null} when nothing was counted. */
    static Double meanMillis(long totalNanos, long count) {
        return count <= 0 ? null : totalNanos / 1e6 / count;
    }
}
