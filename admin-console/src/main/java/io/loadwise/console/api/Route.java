package io.loadwise.console.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A path pattern such as {@code /api/clusters/{}/nodes/{}} and the handler of each method it allows.
 * {@code {}} matches one non-empty path segment.
 */
final class Route {

    private final String[] pattern;
    private final Map<String, Handler> handlers;

    Route(String pattern, Map<String, Handler> handlers) {
        this.pattern = pattern.substring(1).split("/");
        this.handlers = new TreeMap<>(handlers);
    }

    /** The placeholders' values when {@code segments} matches, otherwise {@code null}. */
    List<String> match(List<String> segments) {
        if (segments.size() != pattern.length) {
            return null;
        }
        List<String> params = new ArrayList<>();
        for (int i = 0; i < pattern.length; i++) {
            String segment = segments.get(i);
            if (pattern[i].equals("{}")) {
                if (segment.isEmpty()) {
                    return null;
                }
                params.add(segment);
            } else if (!pattern[i].equals(segment)) {
                return null;
            }
        }
        return params;
    }

    Handler handler(String method) {
        return handlers.get(method);
    }

    /** For the {@code Allow} header of a 405. */
    String allowedMethods() {
        return String.join(", ", handlers.keySet());
    }
}
