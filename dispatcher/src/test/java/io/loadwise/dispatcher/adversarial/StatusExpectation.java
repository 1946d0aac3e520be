package io.loadwise.dispatcher.adversarial;

/**
 * An {@code expect:} value: {@code none} (the connection ends without a response), a status code
 * ({@code 400}: the status line must be {@code HTTP/1.1 400 <any reason>}), or a whole status line.
 */
record StatusExpectation(boolean none, int code, String exactLine) {

    static StatusExpectation parse(String value) {
        String v = value.trim();
        if (v.equals("none")) {
            return new StatusExpectation(true, 0, null);
        }
        if (v.matches("\\d{3}")) {
            return new StatusExpectation(false, Integer.parseInt(v), null);
        }
        if (v.matches("HTTP/1\\.[01] \\d{3}( .*)?")) {
            return new StatusExpectation(false, Integer.parseInt(v.substring(9, 12)), v);
        }
        throw new IllegalArgumentException("expect is 'none', a status code or a status line: " + value);
    }

    /** Null when {@code statusLine} matches, otherwise why not. */
    String mismatch(String statusLine) {
        if (exactLine != null) {
            return exactLine.equals(statusLine) ? null : "expected status line '" + exactLine + "'";
        }
        return statusLine.matches("HTTP/1\\.1 " + code + "( .*)?") ? null : "expected HTTP/1.1 " + code;
    }
}
