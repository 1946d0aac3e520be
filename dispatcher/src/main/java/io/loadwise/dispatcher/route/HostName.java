package io.loadwise.dispatcher.route;

/**
 * The host part of a Host header or authority, found without copying: the port and a trailing dot are left
 * out, and comparison ignores ASCII case. {@code [::1]:8080} is {@code [::1]}.
 */
final class HostName {

    private HostName() {
    }

    /** The index where the host name of {@code authority} ends (before the port and a trailing dot). */
    static int end(CharSequence authority) {
        int end = authority.length();
        if (end > 0 && authority.charAt(0) == '[') {
            for (int i = 0; i < end; i++) {
                if (authority.charAt(i) == ']') {
                    return i + 1;
                }
            }
            return end;
        }
        for (int i = 0; i < end; i++) {
            if (authority.charAt(i) == ':') {
                end = i;
                break;
            }
        }
        if (end > 0 && authority.charAt(end - 1) == '.') {
            end--;
        }
        return end;
    }

    /** Lower case, port and trailing dot dropped: how a configured host is stored. */
    static String canonical(String host) {
        return host.substring(0, end(host)).toLowerCase(java.util.Locale.ROOT);
    }

    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    /** A hash of {@code s[from, to)} that ignores ASCII case, equal to {@link String#hashCode} of its lower case. */
    static int hash(CharSequence s, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + lower(s.charAt(i));
        }
        return h;
    }

    /** Whether {@code s[from, to)} equals the lower-case {@code key}, ignoring ASCII case. */
    static boolean equalsIgnoreCase(String key, CharSequence s, int from, int to) {
        if (key.length() != to - from) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            if (key.charAt(i) != lower(s.charAt(from + i))) {
                return false;
            }
        }
        return true;
    }
}
