package io.loadwise.dispatcher.route;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Reads one parameter of a raw query string, decoding {@code application/x-www-form-urlencoded} escapes. */
final class QueryParameters {

    private QueryParameters() {
    }

    /** The first value of {@code name} (empty for {@code ?name}), or null when absent or badly escaped. */
    static String first(String query, String name) {
        if (query == null) {
            return null;
        }
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            int equals = query.indexOf('=', start);
            int nameEnd = equals >= 0 && equals < end ? equals : end;
            String key = decode(query.substring(start, nameEnd));
            if (name.equals(key)) {
                return nameEnd == end ? "" : decode(query.substring(nameEnd + 1, end));
            }
            start = end + 1;
        }
        return null;
    }

    private static String decode(String part) {
        if (part.indexOf('%') < 0 && part.indexOf('+') < 0) {
            return part;
        }
        try {
            return URLDecoder.decode(part, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
