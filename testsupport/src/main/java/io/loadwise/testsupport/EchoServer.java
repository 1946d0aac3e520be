package io.loadwise.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real TCP backend on 127.0.0.1: echoes every byte back and, at end of input, closes. It counts the
 * connections it accepted. One daemon thread per connection, enough for tests.
 */
public final class EchoServer implements AutoCloseable {

    private final ServerSocket server;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();

    public EchoServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "echo-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    public int accepted() {
        return accepted.get();
    }

    /** Connections whose client side ended (EOF or reset) and that this server then closed. */
    public int ended() {
        return ended.get();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                accepted.incrementAndGet();
                Thread t = new Thread(() -> {
                    echo(socket);
                    ended.incrementAndGet();
                }, "echo-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void echo(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the client went away; nothing to do in a test backend
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
