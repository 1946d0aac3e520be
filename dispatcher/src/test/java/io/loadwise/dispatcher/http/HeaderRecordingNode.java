package io.loadwise.dispatcher.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP/1.1 node that expects a PROXY header (v1 or v2) first on each connection and records, per connection, the
 * header (a v2 one written as the v1 line it stands for) and the request line of every request after it; each
 * request is answered {@code 200} with keep-alive, its body the connection's number. What a connection carried is
 * recorded before it is answered, so a client that got its answer finds it here.
 */
final class HeaderRecordingNode implements AutoCloseable {

    /** One node connection: its header, its requests' lines in order, and whether the proxy closed it. */
    static final class Conn {
        final int id;
        volatile String header;
        final List<String> requests = new CopyOnWriteArrayList<>();
        volatile boolean closed;

        Conn(int id) {
            this.id = id;
        }

        @Override
        public String toString() {
            return "#" + id + " " + header + " " + requests + (closed ? " closed" : "");
        }
    }

    private final ServerSocket server;
    final List<Conn> connections = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    HeaderRecordingNode() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::acceptLoop, "header-recording-node");
        accept.setDaemon(true);
        accept.start();
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Conn conn = new Conn(connections.size() + 1);
                connections.add(conn);
                Thread t = new Thread(() -> serve(s, conn), "node-conn-" + conn.id);
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void serve(Socket s, Conn conn) {
        try (s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            conn.header = readHeader(in);
            String line;
            while ((line = readLine(in)) != null) {
                String requestLine = line;
                while ((line = readLine(in)) != null && !line.isEmpty()) {
                    // headers: the test's requests have no body
                }
                conn.requests.add(requestLine);
                byte[] body = String.valueOf(conn.id).getBytes(StandardCharsets.ISO_8859_1);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
            }
        } catch (IOException e) {
            // the proxy reset it
        } finally {
            conn.closed = true;
        }
    }

    /** The v1 line, or a v2 header (TCP over IPv4) as the v1 line with the same fields. */
    private static String readHeader(InputStream in) throws IOException {
        in.mark(16);
        int first = in.read();
        in.reset();
        if (first != 0x0D) {
            return readLine(in);
        }
        byte[] fixed = in.readNBytes(16);
        int length = ((fixed[14] & 0xff) << 8) | (fixed[15] & 0xff);
        byte[] rest = in.readNBytes(length);
        if (fixed[12] != 0x21 || fixed[13] != 0x11 || length < 12) {
            return "v2 " + Integer.toHexString(fixed[12] & 0xff) + " " + Integer.toHexString(fixed[13] & 0xff);
        }
        return "PROXY TCP4 " + ip(rest, 0) + " " + ip(rest, 4) + " " + port(rest, 8) + " " + port(rest, 10);
    }

    private static String ip(byte[] b, int at) {
        return (b[at] & 0xff) + "." + (b[at + 1] & 0xff) + "." + (b[at + 2] & 0xff) + "." + (b[at + 3] & 0xff);
    }

    private static int port(byte[] b, int at) {
        return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return null;
    }

    InetSocketAddress socketAddress() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
