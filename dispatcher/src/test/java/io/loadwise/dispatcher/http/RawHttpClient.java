package io.loadwise.dispatcher.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A blocking HTTP/1.1 client over one socket, byte-exact: tests write requests as text (so they can
 * send malformed or hop-by-hop-laden ones) and parse responses with the framing rules of RFC 9112.
 */
final class RawHttpClient implements Closeable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttpClient(InetSocketAddress address) throws IOException {
        this(address, null);
    }

    /** @param from the local address to connect from (another loopback address: another client); {@code null}: any */
    RawHttpClient(InetSocketAddress address, String from) throws IOException {
        socket = new Socket();
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.connect(address, 15_000);
        socket.setSoTimeout(15_000);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        out = socket.getOutputStream();
    }

    /**
     * Sends {@code requests} GETs of {@code /} one after another on one connection to {@code address}, each of
     * which must be answered 200 by a {@link TestBackend}: how many each node ({@code X-Node}) answered.
     */
    static Map<String, Integer> answersPerNode(InetSocketAddress address, int requests) throws IOException {
        Map<String, Integer> perNode = new java.util.HashMap<>();
        try (RawHttpClient client = new RawHttpClient(address)) {
            for (int i = 0; i < requests; i++) {
                Response response = client.get("/");
                if (response.status() != 200) {
                    throw new AssertionError("request " + i + " got " + response.status());
                }
                perNode.merge(response.header("x-node"), 1, Integer::sum);
            }
        }
        return perNode;
    }

    /** GET {@code path} with Host and the given extra header lines ("Name: value"). */
    Response get(String path, String... headers) throws IOException {
        StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: test\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        write(request.append("\r\n").toString());
        return read(false);
    }

    void write(String text) throws IOException {
        write(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    OutputStream output() {
        return out;
    }

    InputStream input() {
        return in;
    }

    int localPort() {
        return socket.getLocalPort();
    }

    void setTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Reads one response, body included (none for {@code head}). */
    Response read(boolean head) throws IOException {
        Response response = readHead();
        int status = response.status();
        if (head || status < 200 || status == 204 || status == 304) {
            return response;
        }
        return new Response(status, response.headers(), readBody(response));
    }

    /** Reads a status line and headers only; the body (if any) is left in {@link #input()}. */
    Response readHead() throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        String line;
        while ((line = readLine()) != null && !line.isEmpty()) {
            int colon = line.indexOf(':');
            headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .add(line.substring(colon + 1).trim());
        }
        return new Response(status, headers, new byte[0]);
    }

    private byte[] readBody(Response response) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(response.header("transfer-encoding"))) {
            int size;
            while ((size = Integer.parseInt(readLine().trim().split(";")[0], 16)) > 0) {
                body.write(in.readNBytes(size));
                readLine();
            }
            while (!readLine().isEmpty()) {
                // trailers
            }
        } else if (response.header("content-length") != null) {
            body.write(in.readNBytes(Integer.parseInt(response.header("content-length"))));
        } else {
            body.write(in.readAllBytes());
        }
        return body.toByteArray();
    }

    /** True when the peer closes the connection within {@code millis} (reads nothing else). */
    boolean closedWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) c);
        }
        return line.length() == 0 ? null : line.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    record Response(int status, Map<String, List<String>> headers, byte[] body) {

        String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        List<String> headers(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
