package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.adversarial.NodeRequest.Header;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A client over one blocking socket that writes exactly the bytes it is given and reads responses with
 * the framing rules of RFC 9112 §6.3, keeping trailers and noticing bodies that are cut off.
 */
final class RawClient implements AutoCloseable {

    /** What any single response may carry into the test. */
    private static final int MAX_BODY = 16 * 1024 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawClient(InetSocketAddress address, int readTimeoutMs) throws IOException {
        this(address, readTimeoutMs, 0);
    }

    /** @param receiveBuffer the socket's receive buffer, set before connecting; 0 for the default */
    RawClient(InetSocketAddress address, int readTimeoutMs, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(address, 2_000);
        socket.setSoTimeout(readTimeoutMs);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = socket.getOutputStream();
    }

    /** The client's own port: its access-log lines carry it ({@code client_port}). */
    int localPort() {
        return socket.getLocalPort();
    }

    void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The raw output, for peers that write slowly ({@link Trickle}). */
    OutputStream output() {
        return out;
    }

    void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /**
     * Reads one response. {@code bodyless}: the request was HEAD (1xx, 204 and 304 are bodyless anyway).
     *
     * @throws EOFException the connection ended before a status line
     * @throws SocketTimeoutException nothing (more) arrived within the read timeout
     */
    ClientResponse read(boolean bodyless) throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new EOFException("connection closed before a response");
        }
        List<Header> headers = fields();
        if (headers == null) {
            return new ClientResponse(statusLine, List.of(), new byte[0], List.of(), false);
        }
        ClientResponse head = new ClientResponse(statusLine, headers, new byte[0], List.of(), true);
        int status = head.status();
        if (bodyless || (status >= 100 && status < 200) || status == 204 || status == 304) {
            return head;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<Header> trailers = new ArrayList<>();
        boolean complete;
        List<String> te = head.values("transfer-encoding");
        List<String> cl = head.values("content-length");
        if (!te.isEmpty() && te.get(te.size() - 1).toLowerCase(java.util.Locale.ROOT).endsWith("chunked")) {
            complete = chunks(body, trailers);
        } else if (!cl.isEmpty()) {
            complete = exactly(Long.parseLong(cl.get(0).trim()), body);
        } else {
            untilEnd(body);
            complete = true;
        }
        return new ClientResponse(statusLine, headers, body.toByteArray(), List.copyOf(trailers), complete);
    }

    /** Reads exactly {@code n} bytes, or fewer if the connection ends first. */
    byte[] readExactly(int n) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream(n);
        exactly(n, got);
        return got.toByteArray();
    }

    /**
     * Whether the connection ends (EOF or reset) within the read timeout; the bytes that arrived first,
     * if any, go to {@code extra} (a correct proxy sends none).
     */
    boolean closed(ByteArrayOutputStream extra) throws IOException {
        try {
            int b;
            while ((b = in.read()) >= 0) {
                if (extra.size() < 4096) {
                    extra.write(b);
                }
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private boolean chunks(ByteArrayOutputStream body, List<Header> trailers) throws IOException {
        while (true) {
            String sizeLine = readLine();
            if (sizeLine == null) {
                return false;
            }
            int semicolon = sizeLine.indexOf(';');
            long size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                List<Header> fields = fields();
                if (fields == null) {
                    return false;
                }
                trailers.addAll(fields);
                return true;
            }
            if (!exactly(size, body) || readLine() == null) {
                return false;
            }
        }
    }

    private boolean exactly(long n, ByteArrayOutputStream body) throws IOException {
        for (long i = 0; i < n; i++) {
            int b = readOrEnd();
            if (b < 0) {
                return false;
            }
            if (body.size() < MAX_BODY) {
                body.write(b);
            }
        }
        return true;
    }

    private void untilEnd(ByteArrayOutputStream body) throws IOException {
        int b;
        while ((b = readOrEnd()) >= 0) {
            if (body.size() < MAX_BODY) {
                body.write(b);
            }
        }
    }

    /** A byte, or -1 at EOF or reset; a timeout still throws (nothing more came, but nothing ended). */
    private int readOrEnd() throws IOException {
        try {
            return in.read();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Header or trailer fields up to the empty line; {@code null} if the connection ends first. */
    private List<Header> fields() throws IOException {
        List<Header> fields = new ArrayList<>();
        String line;
        while ((line = readLine()) != null) {
            if (line.isEmpty()) {
                return fields;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                throw new IOException("response field without a colon: " + Escapes.show(line));
            }
            fields.add(new Header(line.substring(0, colon), line.substring(colon + 1).strip()));
        }
        return null;
    }

    /** A line without its CRLF (a bare LF is accepted here: the assertions look at content); null at the end. */
    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = readOrEnd()) >= 0) {
            if (c == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) c);
            if (line.length() > 64 * 1024) {
                throw new IOException("response line over 64 KB");
            }
        }
        return line.length() == 0 ? null : line.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
