package io.loadwise.dispatcher.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A set of HTTP statuses written as ranges and single codes, {@code "200-399"} or {@code "200,204,300-302"}:
 * what a health check expects. Immutable; {@link #contains} is a scan of a few ints.
 */
public final class StatusRanges {

    private final int[] bounds; // pairs: low, high (inclusive)
    private final String text;

    private StatusRanges(int[] bounds, String text) {
        this.bounds = bounds;
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the part that is not a status or a range of statuses */
    public static StatusRanges parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty; expected statuses such as \"200-399\" or \"200,204\"");
        }
        List<Integer> bounds = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String p = part.strip();
            int dash = p.indexOf('-');
            int low = status(dash < 0 ? p : p.substring(0, dash), p);
            int high = dash < 0 ? low : status(p.substring(dash + 1), p);
            if (high < low) {
                throw new IllegalArgumentException("'" + p + "' is an empty range");
            }
            bounds.add(low);
            bounds.add(high);
        }
        int[] array = new int[bounds.size()];
        for (int i = 0; i < array.length; i++) {
            array[i] = bounds.get(i);
        }
        return new StatusRanges(array, text);
    }

    private static int status(String digits, String part) {
        String d = digits.strip();
        if (d.length() != 3 || !d.chars().allMatch(c -> c >= '0' && c <= '9') || d.charAt(0) < '1' || d.charAt(0) > '5') {
            throw new IllegalArgumentException("'" + part + "' is not a status (100-599) or a range of statuses");
        }
        return Integer.parseInt(d);
    }

    public boolean contains(int status) {
        for (int i = 0; i < bounds.length; i += 2) {
            if (status >= bounds[i] && status <= bounds[i + 1]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
