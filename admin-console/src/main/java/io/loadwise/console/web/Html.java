package io.loadwise.console.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Escaping for server-rendered HTML: every dynamic value goes through {@link #text} or {@link #url}. */
final class Html {

    private Html() {
    }

    /** Safe in element content and in double-quoted attribute values. */
    static String text(Object value) {
        if (value == null) {
            return "";
        }
        String s = value.toString();
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A query parameter value or path segment. */
    static String url(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
