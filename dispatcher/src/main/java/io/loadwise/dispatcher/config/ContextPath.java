package io.loadwise.dispatcher.config;

/**
 * A web application's context path as a node registers it: {@code /} or {@code /app}, {@code /shop/api}.
 * Deliberately strict, so that the prefix the dispatcher matches is the one the node serves: letters, digits
 * and {@code - . _ ~} in segments, no empty, {@code .} or {@code ..} segment, no trailing {@code /}, no
 * percent-encoding, at most {@value #MAX_LENGTH} characters.
 */
public final class ContextPath {

    public static final int MAX_LENGTH = 256;
    /** Contexts one node may name. */
    public static final int MAX_PER_NODE = 32;

    private ContextPath() {
    }

    /** Why {@code path} is not a context path, or {@code null} when it is one. */
    public static String problem(String path) {
        if (path == null) {
            return "missing";
        }
        if (path.isEmpty() || path.charAt(0) != '/') {
            return "'" + shown(path) + "' must start with '/'";
        }
        if (path.length() > MAX_LENGTH) {
            return "longer than " + MAX_LENGTH + " characters";
        }
        if (path.length() == 1) {
            return null;
        }
        if (path.endsWith("/")) {
            return "'" + shown(path) + "' must not end with '/'";
        }
        int segmentStart = 1;
        for (int i = 1; i <= path.length(); i++) {
            char c = i < path.length() ? path.charAt(i) : '/';
            if (c == '/') {
                String segment = path.substring(segmentStart, i);
                if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                    return "'" + shown(path) + "' has an empty, '.' or '..' segment";
                }
                segmentStart = i + 1;
            } else if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
                    || c == '.' || c == '_' || c == '~')) {
                return "'" + shown(path) + "' may contain only letters, digits, '-', '.', '_', '~' and '/'";
            }
        }
        return null;
    }

    /** At most 64 printable characters of {@code text}, for an error message. */
    private static String shown(String text) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < text.length() && i < 64; i++) {
            char c = text.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return text.length() > 64 ? b + "..." : b.toString();
    }
}
