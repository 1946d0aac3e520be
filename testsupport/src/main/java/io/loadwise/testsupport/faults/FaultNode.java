package io.loadwise.testsupport.faults;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A node that fails on command, for the dispatcher's fault-injection suite and {@code loadwise bench chaos}: run
 * as a process of its own ({@code main}, through {@link FaultNodeProcess}) so that they can SIGKILL, SIGSTOP and
 * restart it. A plain blocking HTTP/1.1 server with keep-alive and a thread per
 * connection: every path, {@code /health} included, answers as the current mode says, and
 * {@code GET /_fault/MODE} switches the mode (the bench calls it directly, never through the dispatcher).
 * Modes: {@code ok} (200, body = the node's name, which is how the load generator knows who answered),
 * {@code 500} (every request answers 500), {@code slow} (200 after 2 s), {@code reset} (every connection is
 * reset as soon as a request arrives on it). Request heads longer than 16 KiB close the connection.
 *
 * <p>Arguments: name, port (0: any free port). Prints {@code PORT n} once it listens; exits when its
 * standard input closes, so a bench that dies does not leave it behind.
 */
public final class FaultNode {

    public static final int MAX_HEAD = 16_384;
    public static final long SLOW_MILLIS = 2_000;
    private static volatile String mode = "ok";

    private FaultNode() {
    }

    public static void main(String[] args) throws IOException {
        String name = args[0];
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[1])), 1024);
        System.out.println("PORT " + server.getLocalPort());
        System.out.flush();
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the bench never writes; EOF means it is gone
                }
            } catch (IOException e) {
                // same as EOF
            }
            System.exit(0);
        }, "stdin-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        while (true) {
            Socket socket = server.accept();
            Thread t = new Thread(() -> serve(name, socket), "conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void serve(String name, Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                String path = readHead(in);
                if (path == null) {
                    return;
                }
                if (path.startsWith("/_fault/")) {
                    mode = path.substring("/_fault/".length());
                    respond(out, 200, "mode " + mode);
                    continue;
                }
                switch (mode) {
                    case "500" -> respond(out, 500, "broken");
                    case "slow" -> {
                        Thread.sleep(SLOW_MILLIS); // the fault itself: a node that takes 2 s per request
                        respond(out, 200, name);
                    }
                    case "reset" -> {
                        socket.setSoLinger(true, 0);
                        return; // closing with linger 0 sends RST
                    }
                    default -> respond(out, 200, name);
                }
            }
        } catch (IOException e) {
            // the peer went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The request target of the next request head, or {@code null} at the end of the connection or past {@link #MAX_HEAD}. */
    public static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int matched = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.append((char) b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : 0;
            if (matched == 4) {
                String line = head.substring(0, head.indexOf("\r\n"));
                String[] parts = line.split(" ");
                return parts.length > 1 ? parts[1] : "/";
            }
            if (head.length() > MAX_HEAD) {
                return null;
            }
        }
        return null;
    }

    private static void respond(OutputStream out, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        out.write(("HTTP/1.1 " + status + (status == 200 ? " OK" : " Error") + "\r\nContent-Length: " + bytes.length
                + "\r\nContent-Type: text/plain\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
    }
}
