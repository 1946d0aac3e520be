package io.loadwise.console.store;

import java.util.ArrayList;
import java.util.List;

/** The time windows the graphs and CSV exports offer, each read from the archive that covers it ({@link StoreLayout}). */
public enum Window {
    TEN_MINUTES("10m", 600, 1),
    ONE_HOUR("1h", 3600, 1),
    ONE_DAY("24h", 86_400, 60),
    THIRTY_DAYS("30d", 30 * 86_400, 1800);

    private final String key;
    private final long seconds;
    private final long resolutionSeconds;

    Window(String key, long seconds, long resolutionSeconds) {
        this.key = key;
        this.seconds = seconds;
        this.resolutionSeconds = resolutionSeconds;
    }

    /** As written in URLs: {@code 10m}, {@code 1h}, {@code 24h}, {@code 30d}. */
    public String key() {
        return key;
    }

    public long seconds() {
        return seconds;
    }

    /** The step of the archive the window is read from. */
    public long resolutionSeconds() {
        return resolutionSeconds;
    }

    /** The window written as {@code key}, or {@code null}. */
    public static Window parse(String key) {
        for (Window w : values()) {
            if (w.key.equals(key)) {
                return w;
            }
        }
        return null;
    }

    public static List<String> keys() {
        List<String> out = new ArrayList<>();
        for (Window w : values()) {
            out.add(w.key);
        }
        return out;
    }
}
