package io.loadwise.dispatcher.http.codec;

/** Character classes of RFC 9110 §5.6 and RFC 9112, as lookup tables over bytes. */
public final class HttpSyntax {

    private static final boolean[] TOKEN = new boolean[256];
    private static final boolean[] HOST = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
            HOST[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
            HOST[c] = true;
            HOST[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
        // reg-name, IPv4 and IP-literal with a port; sub-delims other than these are legal in a URI
        // authority but name no real host, and a comma or space is how one Host becomes two.
        for (char c : "-._~%:[]".toCharArray()) {
            HOST[c] = true;
        }
    }

    private HttpSyntax() {
    }

    static boolean isToken(int b) {
        return TOKEN[b & 0xff];
    }

    /** Whether {@code value} is a non-empty token (RFC 9110 §5.6.2), so it needs no quoting. */
    public static boolean isToken(CharSequence value) {
        if (value.length() == 0) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0xff || !TOKEN[c]) {
                return false;
            }
        }
        return true;
    }

    static boolean isHostChar(int b) {
        return HOST[b & 0xff];
    }

    /** field-vchar, SP or HTAB: what a field value may hold (obs-text included). */
    static boolean isFieldValueChar(int b) {
        int c = b & 0xff;
        return c >= 0x20 ? c != 0x7f : c == '\t';
    }

    /** What an origin-form or absolute-form request target may hold: visible ASCII. */
    static boolean isTargetChar(int b) {
        int c = b & 0xff;
        return c > 0x20 && c < 0x7f;
    }

    static int hexValue(int b) {
        int c = b & 0xff;
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    static boolean isOws(int b) {
        return b == ' ' || b == '\t';
    }
}
