package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.adversarial.NodeRequest.Header;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The raw node's own HTTP/1.1 request parser, deliberately strict (RFC 9112): what the proxy sends a
 * node must be unambiguous. CRLF line ends only, token header names with no space before the colon, no
 * obs-fold, no control characters in values, one framing header (a single {@code Transfer-Encoding:
 * chunked} or a single {@code Content-Length}), hex chunk sizes of at most 8 digits. Anything else is
 * a {@link Malformed} that the case reports as the proxy sending a bad request to a node.
 */
final class RequestParser {

    /** Bounds what a runaway peer can make the node hold. */
    private static final int MAX_HEAD_BYTES = 1024 * 1024;

    /** The proxy sent something no strict HTTP/1.1 server would accept. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    /** A request head: its line, its fields in order and its exact bytes. */
    record Head(String requestLine, List<Header> headers, byte[] raw) {
    }

    private final InputStream in;
    /** The body bytes read so far for the current request: kept when the stream ends mid-body. */
    private final ByteArrayOutputStream rawBody = new ByteArrayOutputStream();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final List<Header> trailers = new ArrayList<>();
    private boolean extensions;

    RequestParser(InputStream in) {
        this.in = in;
    }

    /** The next request head, or {@code null} when the stream ends cleanly before one starts. */
    Head readHead() throws IOException, Malformed {
        ByteArrayOutputStream raw = new ByteArrayOutputStream(256);
        int first = in.read();
        if (first < 0) {
            return null;
        }
        raw.write(first);
        String requestLine = readLine(raw, (char) first, "request line");
        checkRequestLine(requestLine);
        List<Header> headers = readFields(raw, "header");
        return new Head(requestLine, headers, raw.toByteArray());
    }

    /** {@code length}, {@code chunked} or {@code none}, from the fields of a head that passed {@link #readHead}. */
    static String framing(List<Header> headers) throws Malformed {
        List<String> te = NodeRequest.valuesIn(headers, "transfer-encoding");
        List<String> cl = NodeRequest.valuesIn(headers, "content-length");
        if (!te.isEmpty() && !cl.isEmpty()) {
            throw new Malformed("both Transfer-Encoding and Content-Length");
        }
        if (te.size() > 1) {
            throw new Malformed("Transfer-Encoding " + te.size() + " times");
        }
        if (cl.size() > 1) {
            throw new Malformed("Content-Length " + cl.size() + " times: " + cl);
        }
        if (te.size() == 1) {
            if (!te.get(0).equalsIgnoreCase("chunked")) {
                throw new Malformed("Transfer-Encoding other than exactly chunked: " + te.get(0));
            }
            return "chunked";
        }
        if (cl.size() == 1) {
            String value = cl.get(0);
            if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new Malformed("Content-Length is not 1-18 digits: " + value);
            }
            return "length";
        }
        return "none";
    }

    /** Resets the body buffers; then {@link #readBody} fills them. */
    void startBody() {
        rawBody.reset();
        body.reset();
        trailers.clear();
        extensions = false;
    }

    /** Reads the body of {@code framing}; {@link EOFException} when the stream ends first (buffers keep the part). */
    void readBody(String framing, List<Header> headers) throws IOException, Malformed {
        if (framing.equals("length")) {
            long length = Long.parseLong(NodeRequest.valuesIn(headers, "content-length").get(0));
            for (long i = 0; i < length; i++) {
                int b = next();
                keep(rawBody, b);
                keep(body, b);
            }
        } else if (framing.equals("chunked")) {
            readChunks();
        }
    }

    private void readChunks() throws IOException, Malformed {
        while (true) {
            int first = next();
            keep(rawBody, first);
            String sizeLine = readLine(rawBody, (char) first, "chunk size");
            int semicolon = sizeLine.indexOf(';');
            String hex = semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon);
            if (semicolon >= 0) {
                extensions = true;
            }
            if (hex.isEmpty() || hex.length() > 8 || !hex.chars().allMatch(RequestParser::isHex)) {
                throw new Malformed("chunk size is not 1-8 hex digits: " + Escapes.show(sizeLine));
            }
            long size = Long.parseLong(hex, 16);
            if (size == 0) {
                trailers.addAll(readFields(rawBody, "trailer"));
                return;
            }
            for (long i = 0; i < size; i++) {
                int b = next();
                keep(rawBody, b);
                keep(body, b);
            }
            int cr = next();
            int lf = next();
            keep(rawBody, cr);
            keep(rawBody, lf);
            if (cr != '\r' || lf != '\n') {
                throw new Malformed("chunk data not followed by CRLF");
            }
        }
    }

    byte[] rawBody() {
        return rawBody.toByteArray();
    }

    byte[] body() {
        return body.toByteArray();
    }

    List<Header> trailers() {
        return List.copyOf(trailers);
    }

    boolean extensions() {
        return extensions;
    }

    private List<Header> readFields(ByteArrayOutputStream raw, String what) throws IOException, Malformed {
        List<Header> fields = new ArrayList<>();
        while (true) {
            int first = next();
            raw.write(first);
            if (raw.size() > MAX_HEAD_BYTES) {
                throw new Malformed(what + " section over " + MAX_HEAD_BYTES + " bytes");
            }
            String line = readLine(raw, (char) first, what);
            if (line.isEmpty()) {
                return fields;
            }
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                throw new Malformed("obs-fold " + what + " line: " + Escapes.show(line));
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new Malformed(what + " line without a name and colon: " + Escapes.show(line));
            }
            String name = line.substring(0, colon);
            if (!name.chars().allMatch(RequestParser::isTokenChar)) {
                throw new Malformed(what + " name is not a token: " + Escapes.show(name));
            }
            String value = line.substring(colon + 1).strip();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if ((c < 0x20 && c != '\t') || c == 0x7f) {
                    throw new Malformed(what + " value with a control character: " + Escapes.show(line));
                }
            }
            fields.add(new Header(name, value));
        }
    }

    /** A line whose first character was already read (and kept); CRLF required, bare CR or LF refused. */
    private String readLine(ByteArrayOutputStream raw, char first, String what) throws IOException, Malformed {
        StringBuilder line = new StringBuilder();
        int c = first;
        while (true) {
            if (c == '\n') {
                throw new Malformed(what + " ends in a bare LF: " + Escapes.show(line.toString()));
            }
            if (c == '\r') {
                int lf = next();
                raw.write(lf);
                if (lf != '\n') {
                    throw new Malformed("bare CR in " + what + ": " + Escapes.show(line.toString()));
                }
                return line.toString();
            }
            line.append((char) c);
            if (line.length() > MAX_HEAD_BYTES) {
                throw new Malformed(what + " over " + MAX_HEAD_BYTES + " bytes");
            }
            c = next();
            raw.write(c);
        }
    }

    private static void checkRequestLine(String line) throws Malformed {
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()
                || !parts[0].chars().allMatch(RequestParser::isTokenChar)) {
            throw new Malformed("request line is not 'method SP target SP version': " + Escapes.show(line));
        }
        if (!parts[2].equals("HTTP/1.1") && !parts[2].equals("HTTP/1.0")) {
            throw new Malformed("request version is not HTTP/1.1 or HTTP/1.0: " + Escapes.show(line));
        }
        for (int i = 0; i < parts[1].length(); i++) {
            char c = parts[1].charAt(i);
            if (c <= 0x20 || c >= 0x7f) {
                throw new Malformed("request target with a control or non-ASCII byte: " + Escapes.show(line));
            }
        }
    }

    private int next() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection ended mid-request");
        }
        return b;
    }

    private static void keep(ByteArrayOutputStream out, int b) {
        if (out.size() < NodeRequest.BODY_CAP) {
            out.write(b);
        }
    }

    static boolean isTokenChar(int c) {
        return c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    private static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
