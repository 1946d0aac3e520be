package io.loadwise.console.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket: the request bytes go out exactly as written (no client normalises the path),
 * and the socket can be bound to a chosen loopback address, so a test can be "another client" on
 * 127.0.0.2, 127.0.0.3, … (Linux routes all of 127/8 to the loopback interface).
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** A parsed answer; header names lower-cased, the last one of a name wins. */
    public record Response(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends {@code GET target} with the given extra header lines (each "Name: value"), from 127.0.0.1. */
    public static Response get(int port, String target, String... headers) throws IOException {
        return send(InetAddress.getLoopbackAddress(), port, "GET", target, null, headers);
    }

    /**
     * Sends one request with {@code Connection: close} from {@code local} and reads the whole answer.
     *
     * @param body a form or JSON body, or {@code null}
     */
    public static Response send(InetAddress local, int port, String method, String target, String body,
            String... headers) throws IOException {
        StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            request.append("Content-Length: ").append(content.length).append("\r\n");
        }
        request.append("\r\n");
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(local, 0));
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            return parse(in.readAllBytes());
        }
    }

    private static Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || headEnd < 0) {
            throw new IllegalStateException("not an HTTP/1.1 response: " + text);
        }
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            // Chunk sizes count bytes, so the body is taken apart before it is decoded.
            int at = headEnd + 4;
            while (true) {
                int lineEnd = text.indexOf("\r\n", at);
                int size = Integer.parseInt(text.substring(at, lineEnd).split(";")[0].trim(), 16);
                if (size == 0) {
                    break;
                }
                body.write(raw, lineEnd + 2, size);
                at = lineEnd + 2 + size + 2;
            }
        } else {
            body.write(raw, headEnd + 4, raw.length - headEnd - 4);
        }
        return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
    }
}
