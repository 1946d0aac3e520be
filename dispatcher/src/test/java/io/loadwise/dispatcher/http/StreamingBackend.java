package io.loadwise.dispatcher.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.zip.CRC32;

/**
 * A JDK {@code HttpServer} node for body streaming: {@code /upload} counts and checksums the request
 * body, {@code /download?bytes=N[&chunked]} generates N pattern bytes, {@code /echo} returns the body
 * chunked. Nothing is held in memory beyond one block. (The JDK server answers
 * {@code Expect: 100-continue} with a 100 by itself.)
 */
final class StreamingBackend implements AutoCloseable {

    static final int BLOCK = 64 * 1024;

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    StreamingBackend() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(executor);
        server.createContext("/upload", this::upload);
        server.createContext("/download", this::download);
        server.createContext("/echo", this::echo);
        server.start();
    }

    String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** The i-th block of the generated stream: deterministic, so both ends can checksum it. */
    static void fill(byte[] block, long offset) {
        for (int i = 0; i < block.length; i++) {
            block[i] = (byte) ((offset + i) * 31 >>> 3);
        }
    }

    private void upload(HttpExchange exchange) throws IOException {
        CRC32 crc = new CRC32();
        long count = 0;
        byte[] buffer = new byte[BLOCK];
        try (InputStream in = exchange.getRequestBody()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                crc.update(buffer, 0, n);
                count += n;
            }
        }
        byte[] body = (count + " " + crc.getValue()).getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private void download(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        long total = Long.parseLong(query.replaceAll(".*bytes=(\\d+).*", "$1"));
        exchange.getRequestBody().close();
        exchange.sendResponseHeaders(200, query.contains("chunked") ? 0 : total);
        byte[] block = new byte[BLOCK];
        try (OutputStream out = exchange.getResponseBody()) {
            for (long sent = 0; sent < total; sent += BLOCK) {
                fill(block, sent);
                out.write(block, 0, (int) Math.min(BLOCK, total - sent));
            }
        }
    }

    private void echo(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        byte[] buffer = new byte[BLOCK];
        try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
