package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.H2RawClient.frame;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw HTTP/2 node in clear text (prior knowledge): reads frames off a plain socket and answers each request,
 * once its END_STREAM came, with the frames its {@link Script} writes, byte for byte, so a case can make a node
 * send what no HTTP/2 library would. Announces {@code SETTINGS_MAX_CONCURRENT_STREAMS} and records how many
 * streams were ever open at once, over all its connections.
 */
final class RawH2Node implements AutoCloseable {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PUSH_PROMISE = 0x5;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int CONTINUATION = 0x9;
    static final int END_STREAM = 0x1;
    static final int END_HEADERS = 0x4;

    /** What the node answers on {@code stream} of {@code connection}. */
    @FunctionalInterface
    interface Script {
        void answer(Connection connection, int stream) throws Exception;
    }

    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger maxOpen = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final CopyOnWriteArrayList<Socket> sockets = new CopyOnWriteArrayList<>();
    private final int maxStreams;
    private final Script script;

    RawH2Node(int maxStreams, Script script) throws IOException {
        this.maxStreams = maxStreams;
        this.script = script;
        Thread acceptor = new Thread(this::accept, "raw-h2-node-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String address() {
        return "127.0.0.1:" + listener.getLocalPort();
    }

    /** A header block of literal fields, name/value pairs. */
    static byte[] block(String... pairs) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        for (int i = 0; i < pairs.length; i += 2) {
            H2RawClient.literal(block, pairs[i], pairs[i + 1]);
        }
        return block.toByteArray();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                sockets.add(socket);
                connections.incrementAndGet();
                Thread reader = new Thread(() -> serve(socket), "raw-h2-conn");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            Connection connection = new Connection(socket.getOutputStream());
            in.readFully(new byte[24]);
            byte[] settings = new byte[6];
            settings[1] = 0x3; // SETTINGS_MAX_CONCURRENT_STREAMS
            settings[2] = (byte) (maxStreams >>> 24);
            settings[3] = (byte) (maxStreams >>> 16);
            settings[4] = (byte) (maxStreams >>> 8);
            settings[5] = (byte) maxStreams;
            connection.write(frame(SETTINGS, 0, 0, settings));
            byte[] head = new byte[9];
            while (true) {
                in.readFully(head);
                int length = ((head[0] & 0xff) << 16) | ((head[1] & 0xff) << 8) | (head[2] & 0xff);
                int type = head[3];
                int flags = head[4];
                int stream = ((head[5] & 0x7f) << 24) | ((head[6] & 0xff) << 16) | ((head[7] & 0xff) << 8)
                        | (head[8] & 0xff);
                byte[] payload = new byte[length];
                in.readFully(payload);
                if (type == SETTINGS && (flags & 1) == 0) {
                    connection.write(frame(SETTINGS, 1, 0, new byte[0]));
                } else if (type == PING && (flags & 1) == 0) {
                    connection.write(frame(PING, 1, 0, payload));
                } else if (type == HEADERS && connection.opened(stream)) {
                    maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                    requests.incrementAndGet();
                } else if (type == RST_STREAM) {
                    connection.closed(stream);
                } else if (type == GOAWAY) {
                    return;
                }
                if ((type == HEADERS || type == DATA) && (flags & END_STREAM) != 0) {
                    Thread answer = new Thread(() -> {
                        try {
                            script.answer(connection, stream);
                        } catch (Exception e) {
                            // the connection closed meanwhile
                        } finally {
                            connection.closed(stream);
                        }
                    }, "raw-h2-answer");
                    answer.setDaemon(true);
                    answer.start();
                }
            }
        } catch (IOException closed) {
            // the proxy closed the connection
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    /** One connection from the proxy: frames written whole, one writer at a time. */
    final class Connection {
        private final OutputStream out;
        private final java.util.Set<Integer> streams = java.util.concurrent.ConcurrentHashMap.newKeySet();

        Connection(OutputStream out) {
            this.out = out;
        }

        synchronized void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /**
         * Writes a frame. A frame that ends the node's side of a stream (END_STREAM, or RST_STREAM) closes it in the
         * count first: the proxy may open the next stream the moment it reads this one, and must not be seen to
         * exceed the limit because this thread had not yet counted the close.
         */
        void frame(int type, int flags, int stream, byte[] payload) throws IOException {
            if (((type == HEADERS || type == DATA) && (flags & END_STREAM) != 0) || type == RST_STREAM) {
                closed(stream);
            }
            write(H2RawClient.frame(type, flags, stream, payload));
        }

        boolean opened(int stream) {
            return streams.add(stream);
        }

        void closed(int stream) {
            if (streams.remove(stream)) {
                open.decrementAndGet();
            }
        }
    }
}
