package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.adversarial.NodeScript.After;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node made of a plain {@link ServerSocket}: one thread per accepted connection (at most
 * {@link #MAX_CONNECTIONS} at once; more are closed on accept), each parsing requests with the strict
 * {@link RequestParser} and answering through a {@link NodeScript}. Records every byte, every request
 * (in head order over all connections) and how each connection ended.
 */
final class RawNode implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RawNode.class);
    static final int MAX_CONNECTIONS = 64;

    private final ServerSocket server;
    private final NodeScript script;
    private final Semaphore slots = new Semaphore(MAX_CONNECTIONS);
    private final List<NodeConnection> connections = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    /** Requests by number - 1; an entry is replaced when its body completes. */
    private final List<NodeRequest> requests = new ArrayList<>();
    private final Thread acceptor;
    /** Each connection starts with a PROXY header, read before its requests ({@code sendProxyProtocol}). */
    private volatile boolean expectProxyHeader;

    RawNode(NodeScript script) throws IOException {
        this.script = script;
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "raw-node-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    void expectProxyHeader(boolean expect) {
        this.expectProxyHeader = expect;
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (!slots.tryAcquire()) {
                log.warn("raw node: over {} connections, closing a new one", MAX_CONNECTIONS);
                closeQuietly(socket);
                continue;
            }
            NodeConnection connection = new NodeConnection(connections.size() + 1, socket);
            connections.add(connection);
            Thread thread = new Thread(() -> serve(connection), "raw-node-conn-" + connection.index);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    private void serve(NodeConnection connection) {
        Socket socket = connection.socket;
        try {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(connection.recordingInput(), 8192);
            OutputStream out = socket.getOutputStream();
            if (expectProxyHeader) {
                connection.proxyHeader = readProxyHeader(in);
            }
            RequestParser parser = new RequestParser(in);
            After after = After.KEEP;
            while (after == After.KEEP || after == After.STALL) {
                RequestParser.Head head = parser.readHead();
                if (head == null) {
                    break;
                }
                String framing = RequestParser.framing(head.headers());
                NodeRequest request = add(connection, head, framing);
                if (after == After.KEEP) {
                    script.onHead(request, out);
                }
                parser.startBody();
                try {
                    parser.readBody(framing, head.headers());
                } finally {
                    request = complete(request, parser, false);
                }
                request = complete(request, parser, true);
                if (after == After.KEEP) {
                    after = script.answer(request, out);
                }
            }
            if (after == After.ECHO) {
                echo(in, out);
            } else if (after == After.CLOSE) {
                connection.ended(true);
                return;
            }
            connection.ended(false);
        } catch (RequestParser.Malformed e) {
            connection.malformed(e.getMessage());
            refuse(socket);
            drain(connection);
        } catch (EOFException e) {
            connection.ended(false); // the proxy closed mid-request
        } catch (IOException e) {
            connection.ended(false); // reset, or a write refused
        } finally {
            closeQuietly(socket);
            slots.release();
        }
    }

    private NodeRequest add(NodeConnection connection, RequestParser.Head head, String framing) {
        synchronized (requests) {
            NodeRequest request = new NodeRequest(requests.size() + 1, connection.index, head.requestLine(),
                    List.copyOf(head.headers()), head.raw(), framing, new byte[0], new byte[0], List.of(), false,
                    framing.equals("none"));
            requests.add(request);
            return request;
        }
    }

    private NodeRequest complete(NodeRequest request, RequestParser parser, boolean done) {
        NodeRequest updated = request.withBody(parser.rawBody(), parser.body(), parser.trailers(),
                parser.extensions(), done);
        synchronized (requests) {
            requests.set(request.number() - 1, updated);
        }
        return updated;
    }

    private static void echo(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) > 0) {
            out.write(buffer, 0, n);
            out.flush();
        }
    }

    /** What a strict server answers to a malformed request; the case fails on it in any case. */
    private static void refuse(Socket socket) {
        byte[] body = "raw node: malformed request\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        String head = "HTTP/1.1 400 Bad Request\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        try {
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            // the proxy is gone already
        }
    }

    /** After a malformed request: keep recording what else arrives until the proxy closes. */
    private static void drain(NodeConnection connection) {
        try {
            InputStream in = connection.recordingInput();
            byte[] buffer = new byte[8192];
            while (in.read(buffer) >= 0) {
                // recorded by the stream
            }
        } catch (IOException e) {
            // reset
        }
        connection.ended(false);
    }

    List<NodeRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /**
     * A v1 header's line, or a v2 header (TCP over IPv4) as the v1 line with the same fields; what follows is left
     * to the request parser, so a second header would be a malformed request.
     */
    private static String readProxyHeader(InputStream in) throws IOException {
        in.mark(16);
        int first = in.read();
        in.reset();
        if (first != 0x0D) {
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0 && b != '\n' && line.length() < 108) {
                line.append((char) b);
            }
            return line.toString().strip();
        }
        byte[] fixed = in.readNBytes(16);
        int length = ((fixed[14] & 0xff) << 8) | (fixed[15] & 0xff);
        byte[] a = in.readNBytes(length);
        if (fixed[12] != 0x21 || fixed[13] != 0x11 || length < 12) {
            return "v2 " + Integer.toHexString(fixed[12] & 0xff) + " " + Integer.toHexString(fixed[13] & 0xff);
        }
        return "PROXY TCP4 " + (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff) + " "
                + (a[4] & 0xff) + "." + (a[5] & 0xff) + "." + (a[6] & 0xff) + "." + (a[7] & 0xff) + " "
                + (((a[8] & 0xff) << 8) | (a[9] & 0xff)) + " " + (((a[10] & 0xff) << 8) | (a[11] & 0xff));
    }

    List<NodeConnection> connections() {
        return List.copyOf(connections);
    }

    long receivedCount() {
        long total = 0;
        for (NodeConnection connection : connections) {
            total += connection.receivedCount();
        }
        return total;
    }

    @Override
    public void close() {
        closeQuietly(server);
        for (NodeConnection connection : connections) {
            closeQuietly(connection.socket);
        }
        joinQuietly(acceptor);
        for (Thread thread : threads) {
            joinQuietly(thread);
        }
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // already closed
        }
    }
}
