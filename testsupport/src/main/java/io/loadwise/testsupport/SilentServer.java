package io.loadwise.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP server that accepts every connection and never sends a byte: the peer that makes a client's
 * deadline, not the kernel's connect timeout, decide. {@link #close} closes the listener and every connection
 * it holds.
 */
public final class SilentServer implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    public SilentServer() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    held.add(listener.accept());
                }
            } catch (IOException closed) {
                // close() was called
            }
        }, "silent-server-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : held) {
            s.close();
        }
    }
}
