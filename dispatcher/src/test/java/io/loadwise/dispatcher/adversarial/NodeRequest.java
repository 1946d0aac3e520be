package io.loadwise.dispatcher.adversarial;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One request as the raw node received it, exactly as on the wire. {@code complete} is false while the
 * body is still being read and stays false when the connection ended first.
 *
 * @param number 1-based, in the order the node parsed request heads over all its connections
 * @param connection 1-based, in the order the node accepted connections
 * @param framing {@code length}, {@code chunked} or {@code none}
 * @param rawBody the body bytes as on the wire (chunk framing included); at most {@link #BODY_CAP}
 * @param body the payload (chunks joined); at most {@link #BODY_CAP}
 * @param chunkExtensions a chunk-size line carried an extension
 */
record NodeRequest(int number, int connection, String requestLine, List<Header> headers, byte[] rawHead,
        String framing, byte[] rawBody, byte[] body, List<Header> trailers, boolean chunkExtensions,
        boolean complete) {

    static final int BODY_CAP = 1024 * 1024;

    record Header(String name, String value) {

        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    /** Every value of the header {@code name} (case-insensitive), in order. */
    List<String> values(String name) {
        return valuesIn(headers, name);
    }

    List<String> trailerValues(String name) {
        return valuesIn(trailers, name);
    }

    static List<String> valuesIn(List<Header> fields, String name) {
        List<String> values = new ArrayList<>();
        for (Header header : fields) {
            if (header.name().equalsIgnoreCase(name)) {
                values.add(header.value());
            }
        }
        return values;
    }

    byte[] raw() {
        byte[] all = new byte[rawHead.length + rawBody.length];
        System.arraycopy(rawHead, 0, all, 0, rawHead.length);
        System.arraycopy(rawBody, 0, all, rawHead.length, rawBody.length);
        return all;
    }

    String method() {
        int space = requestLine.indexOf(' ');
        return space < 0 ? requestLine : requestLine.substring(0, space);
    }

    boolean expectsContinue() {
        for (String value : values("expect")) {
            if (value.toLowerCase(Locale.ROOT).equals("100-continue")) {
                return true;
            }
        }
        return false;
    }

    NodeRequest withBody(byte[] newRawBody, byte[] newBody, List<Header> newTrailers, boolean extensions,
            boolean done) {
        return new NodeRequest(number, connection, requestLine, headers, rawHead, framing, newRawBody, newBody,
                newTrailers, extensions, done);
    }

    @Override
    public String toString() {
        return "#" + number + " on node connection " + connection + (complete ? "" : " (incomplete)") + ": "
                + Escapes.show(new String(raw(), StandardCharsets.ISO_8859_1));
    }
}
