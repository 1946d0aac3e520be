package io.loadwise.dispatcher.route;

/**
 * A request path made safe to match and to rewrite. Two forms come out of one pass over the target's path:
 * <ul>
 *   <li>{@link #forward}: percent-escapes of unreserved characters decoded, duplicate slashes collapsed,
 *       dot-segments removed (a segment such as {@code ..;x} counts as {@code ..}, as Tomcat reads it), path
 *       parameters kept: what a rewrite starts from, so {@code ;jsessionid=} still reaches the node;</li>
 *   <li>{@link #match}: the same without path parameters ({@code /admin;x} is {@code /admin}): what routes are
 *       compared with.</li>
 * </ul>
 * {@code %2F} and {@code %5C} stay encoded: they are data, never separators, so {@code /a%2F..%2Fadmin} is one
 * segment. A path that is already in normal form comes back as the same string, without allocation.
 */
public final class RequestPath {

    private static final boolean[] UNRESERVED = new boolean[128];

    static {
        for (int c = '0'; c <= '9'; c++) {
            UNRESERVED[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            UNRESERVED[c] = true;
            UNRESERVED[c - 32] = true;
        }
        for (char c : "-._~".toCharArray()) {
            UNRESERVED[c] = true;
        }
    }

    private final String forward;
    private final String match;

    private RequestPath(String forward, String match) {
        this.forward = forward;
        this.match = match;
    }

    /** The normal form to forward (path parameters kept). */
    public String forward() {
        return forward;
    }

    /** The normal form to match routes with (path parameters dropped). */
    public String match() {
        return match;
    }

    /**
     * Normalises the path part of a request target (no query); null when it is not a path at all: it does not
     * start with {@code /}, or holds a bad percent-escape, a backslash, or a character outside visible ASCII.
     */
    public static RequestPath of(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        if (isNormal(path)) {
            return new RequestPath(path, path);
        }
        String decoded = decodeUnreserved(path);
        if (decoded == null) {
            return null;
        }
        String forward = removeDotSegments(decoded);
        return new RequestPath(forward, stripParameters(forward));
    }

    /** The match form of {@code path}, or null: the short way for callers that only route. */
    public static String matchForm(String path) {
        if (!path.isEmpty() && path.charAt(0) == '/' && isNormal(path)) {
            return path;
        }
        RequestPath p = of(path);
        return p == null ? null : p.match;
    }

    /** No escape, parameter, backslash, empty or dot segment, nothing outside visible ASCII. */
    private static boolean isNormal(String path) {
        char previous = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '%' || c == ';' || c == '\\') {
                return false;
            }
            if (c == '/' && previous == '/') {
                return false;
            }
            if (c == '.' && previous == '/' && isDotSegment(path, i)) {
                return false;
            }
            previous = c;
        }
        return true;
    }

    private static boolean isDotSegment(String path, int dot) {
        int end = dot + 1;
        if (end < path.length() && path.charAt(end) == '.') {
            end++;
        }
        return end == path.length() || path.charAt(end) == '/';
    }

    private static String decodeUnreserved(String path) {
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= ' ' || c >= 0x7f || c == '\\') {
                return null;
            }
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (i + 2 >= path.length()) {
                return null;
            }
            int high = Character.digit(path.charAt(i + 1), 16);
            int low = Character.digit(path.charAt(i + 2), 16);
            if (high < 0 || low < 0) {
                return null;
            }
            int decoded = high * 16 + low;
            if (decoded < 128 && UNRESERVED[decoded]) {
                out.append((char) decoded);
            } else {
                // kept encoded, hex in upper case so one byte has one spelling
                out.append('%').append(Character.toUpperCase(path.charAt(i + 1)))
                        .append(Character.toUpperCase(path.charAt(i + 2)));
            }
            i += 2;
        }
        return out.toString();
    }

    /** RFC 3986 §5.2.4 over segments, with empty segments dropped and {@code .;p} / {@code ..;p} as dots. */
    private static String removeDotSegments(String path) {
        String[] segments = path.substring(1).split("/", -1);
        String[] kept = new String[segments.length];
        int depth = 0;
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            String bare = withoutParameters(segment);
            boolean last = i == segments.length - 1;
            if (bare.equals(".")) {
                if (last) {
                    kept[depth++] = "";
                }
            } else if (bare.equals("..")) {
                if (depth > 0) {
                    depth--;
                }
                if (last) {
                    kept[depth++] = "";
                }
            } else if (!segment.isEmpty() || last) {
                kept[depth++] = segment;
            }
        }
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < depth; i++) {
            out.append('/').append(kept[i]);
        }
        return out.length() == 0 ? "/" : out.toString();
    }

    private static String withoutParameters(String segment) {
        int semicolon = segment.indexOf(';');
        return semicolon < 0 ? segment : segment.substring(0, semicolon);
    }

    /** Path parameters dropped; a segment that was only a parameter leaves nothing ({@code /;x/admin} is /admin). */
    private static String stripParameters(String path) {
        if (path.indexOf(';') < 0) {
            return path;
        }
        String[] segments = path.substring(1).split("/", -1);
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < segments.length; i++) {
            String bare = withoutParameters(segments[i]);
            if (!bare.isEmpty() || i == segments.length - 1) {
                out.append('/').append(bare);
            }
        }
        return out.length() == 0 ? "/" : out.toString();
    }
}
