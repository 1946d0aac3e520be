package io.loadwise.dispatcher.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A node written byte by byte: reads a request head, answers with a fixed response at once (whatever
 * body may follow), then echoes every further byte back ({@link #upgrade()}: a WebSocket-like server
 * after its handshake) or just drains them. One connection at a time, on its own thread.
 */
final class ScriptedBackend implements AutoCloseable {

    static final String SWITCHING = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n";

    private final ServerSocket server;
    private final Thread thread;
    private final String response;
    private final boolean echo;
    final ConcurrentLinkedQueue<String> heads = new ConcurrentLinkedQueue<>();

    /** Answers 101, then echoes. */
    static ScriptedBackend upgrade() throws IOException {
        return new ScriptedBackend(SWITCHING, true);
    }

    ScriptedBackend(String response, boolean echo) throws IOException {
        this.response = response;
        this.echo = echo;
        server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "scripted-backend");
        thread.setDaemon(true);
        thread.start();
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                    int c = in.read();
                    if (c < 0) {
                        break;
                    }
                    head.write(c);
                }
                heads.add(head.toString(StandardCharsets.ISO_8859_1));
                out.write(response.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                byte[] buffer = new byte[8192];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    if (echo) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // closed: the test is over
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
