package io.loadwise.dispatcher.runtime;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Real HTTP nodes on loopback (the JDK's server) and a strict keep-alive client for reload tests. */
public final class HttpNodes {

    private HttpNodes() {
    }

    /** A node answering its name; {@code /slow} waits until {@link #release} is counted down. */
    public static final class Node implements AutoCloseable {
        final String name;
        final HttpServer server;
        final ExecutorService threads = Executors.newFixedThreadPool(4);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch slowArrived = new CountDownLatch(1);

        public Node(String name) throws IOException {
            this.name = name;
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            server.setExecutor(threads);
            server.createContext("/", exchange -> {
                if (exchange.getRequestURI().getPath().equals("/slow")) {
                    slowArrived.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                byte[] body = name.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }

        public String address() {
            return "127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            release.countDown();
            server.stop(0);
            threads.shutdownNow();
        }
    }

    /**
     * A keep-alive HTTP/1.1 client that never retries: a request fails if the connection ends before its
     * whole response. It reconnects only when a response said {@code Connection: close}.
     */
    public static final class StrictClient implements AutoCloseable {
        private final int port;
        private Socket socket;
        int reconnects;

        public StrictClient(int port) {
            this.port = port;
        }

        /** The response body of {@code GET path}; throws when the request failed. */
        public String get(String path) throws IOException {
            if (socket == null) {
                socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.setSoTimeout(10_000);
                reconnects++;
            }
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String status = line(in);
            if (!status.startsWith("HTTP/1.1 200")) {
                throw new IOException("status " + status);
            }
            int length = -1;
            boolean close = false;
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(lower.substring(15).trim());
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    close = true;
                }
            }
            byte[] body = in.readNBytes(length);
            if (body.length != length) {
                throw new IOException("body cut after " + body.length + " of " + length + " bytes");
            }
            if (close) {
                closeSocket();
            }
            return new String(body, StandardCharsets.UTF_8);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed mid-response after '" + sb + "'");
                }
                if (b != '\r') {
                    sb.append((char) b);
                }
            }
            return sb.toString();
        }

        private void closeSocket() throws IOException {
            if (socket != null) {
                socket.close();
                socket = null;
            }
        }

        @Override
        public void close() throws IOException {
            closeSocket();
        }
    }

    static List<String> addresses(List<Node> nodes) {
        List<String> list = new ArrayList<>();
        for (Node node : nodes) {
            list.add(node.address());
        }
        return list;
    }
}
