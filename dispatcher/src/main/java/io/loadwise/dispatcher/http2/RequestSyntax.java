package io.loadwise.dispatcher.http2;

import io.netty.util.AsciiString;

/**
 * What an HTTP/2 request's fields must look like to reach a node as HTTP/1.1 unchanged (RFC 9113 §8.2.1,
 * §8.3): the checks {@link StreamAdapter} makes before it turns a stream into a request.
 */
final class RequestSyntax {

    private RequestSyntax() {
    }

    /** A value HTTP/1.1 reads the same way: no CR, LF, NUL or other controls but HTAB, no white space around. */
    static boolean validValue(CharSequence value) {
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7f) {
                return false;
            }
        }
        return length == 0 || (!isSpace(value.charAt(0)) && !isSpace(value.charAt(length - 1)));
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    /** {@code /path?query} with no white space or controls, or {@code *} for OPTIONS. */
    static boolean originForm(CharSequence path, CharSequence method) {
        if (path.length() == 1 && path.charAt(0) == '*') {
            return AsciiString.contentEquals(method, "OPTIONS");
        }
        if (path.charAt(0) != '/') {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    static boolean isToken(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return s.length() > 0;
    }

    static long parseLength(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
