package io.loadwise.dispatcher.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code logging.accessLog.format} template: literal text with {@code %{name}} placeholders, one per access-log
 * field ({@link #FIELDS}, the JSON format's keys), and {@code %%} for a literal {@code %}. Parsed once, when the
 * configuration is validated and when the log starts; a mistake is named with its position.
 */
public final class AccessLogTemplate {

    /** Longest template accepted, in characters. */
    public static final int MAX_LENGTH = 4_096;

    /** Every field, in the JSON format's order. */
    public static final List<String> FIELDS = List.of("time", "client", "client_port", "forwarded_for", "listener",
            "route", "cluster", "policy", "node", "method", "target", "protocol", "tls_version", "sni", "alpn", "status",
            "termination", "bytes_in", "bytes_out", "retries", "referer", "user_agent", "request_id", "trace_id", "th",
            "tw", "tc", "tr", "ta");

    /** One piece of a template: literal text ({@code field} null) or a field. */
    public record Part(String literal, String field) {
    }

    private AccessLogTemplate() {
    }

    /** Whether {@code format} is meant as a template rather than a format's name. */
    public static boolean isTemplate(String format) {
        return format != null && format.indexOf('%') >= 0;
    }

    /**
     * The parts of {@code template}.
     *
     * @throws IllegalArgumentException saying what is wrong and where
     */
    public static List<Part> parse(String template) {
        if (template.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("template of " + template.length() + " characters, at most "
                    + MAX_LENGTH);
        }
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '%') {
                if (c < 0x20 || c == 0x7f) {
                    throw new IllegalArgumentException("control character at " + i + ": a line must stay one line");
                }
                literal.append(c);
                i++;
            } else if (i + 1 < template.length() && template.charAt(i + 1) == '%') {
                literal.append('%');
                i += 2;
            } else if (i + 1 < template.length() && template.charAt(i + 1) == '{') {
                int end = template.indexOf('}', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated placeholder at " + i + ": '%{' without '}'");
                }
                String name = template.substring(i + 2, end);
                if (!FIELDS.contains(name)) {
                    throw new IllegalArgumentException("unknown field '" + shorten(name) + "' at " + i
                            + ", expected one of " + String.join(", ", FIELDS));
                }
                if (!literal.isEmpty()) {
                    parts.add(new Part(literal.toString(), null));
                    literal.setLength(0);
                }
                parts.add(new Part(null, name));
                i = end + 1;
            } else {
                throw new IllegalArgumentException("'%' at " + i + " starts neither %{name} nor %%");
            }
        }
        if (!literal.isEmpty()) {
            parts.add(new Part(literal.toString(), null));
        }
        if (parts.stream().noneMatch(p -> p.field() != null)) {
            throw new IllegalArgumentException("no %{field} in the template");
        }
        return List.copyOf(parts);
    }

    private static String shorten(String name) {
        String s = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        StringBuilder out = new StringBuilder(s.length());
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            out.append(c < 0x20 || c > 0x7e ? '?' : c);
        }
        return out.toString();
    }
}
