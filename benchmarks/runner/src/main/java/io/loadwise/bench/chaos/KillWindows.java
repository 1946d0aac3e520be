package io.loadwise.bench.chaos;

import java.util.List;

/**
 * The kill windows of a soak and which failures fall in them. A window runs from one response timeout
 * before a node's SIGKILL (requests already on their way to it fail with it, as in {@link ChaosRun}'s
 * {@code fault} phase) until the dispatcher has it back in selection after its restart; a failure is inside
 * when its request was sent in a window, bounds included.
 */
final class KillWindows {

    /** One window, in ns since the load began. */
    record Window(long fromNanos, long toNanos) {

        Window {
            if (toNanos < fromNanos) {
                throw new IllegalArgumentException("a window ends before it starts: " + fromNanos + " > " + toNanos);
            }
        }

        /** The window of a node killed at {@code killNanos} and back in selection at {@code backNanos}. */
        static Window of(long killNanos, long backNanos) {
            return new Window(killNanos - ChaosDispatcher.RESPONSE_TIMEOUT_MS * 1_000_000L, backNanos);
        }

        boolean contains(long nanos) {
            return nanos >= fromNanos && nanos <= toNanos;
        }
    }

    private KillWindows() {
    }

    static boolean inside(List<Window> windows, long startNanos) {
        for (Window w : windows) {
            if (w.contains(startNanos)) {
                return true;
            }
        }
        return false;
    }

    /** Per minute of send time: {@code [inside, outside]} failure counts, for {@code minutes} minutes. */
    static long[][] perMinute(List<SoakStats.Failure> failures, List<Window> windows, int minutes) {
        long[][] rows = new long[minutes][2];
        for (SoakStats.Failure f : failures) {
            int m = (int) Math.min(minutes - 1, Math.max(0, f.startNanos() / 60_000_000_000L));
            rows[m][inside(windows, f.startNanos()) ? 0 : 1]++;
        }
        return rows;
    }
}
