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
 * A node that answers any request with {@code 101 Switching Protocols} and then echoes raw bytes, as a
 * WebSocket server would after its handshake. One connection at a time, on its own thread.
 */
final class EchoUpgradeBackend implements AutoCloseable {

    private final ServerSocket server;
    private final Thread thread;
    final ConcurrentLinkedQueue<String> heads = new ConcurrentLinkedQueue<>();

    EchoUpgradeBackend() throws IOException {
        server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "echo-upgrade-backend");
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
                out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                byte[] buffer = new byte[8192];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    out.write(buffer, 0, n);
                    out.flush();
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
