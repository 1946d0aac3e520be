package io.loadwise.dispatcher.adversarial;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;

/**
 * One connection the raw node accepted: every byte received (the first {@link #RECORD_CAP} kept), the
 * strict parser's complaint if any, and how it ended. Written by its connection thread, read by the test.
 */
final class NodeConnection {

    static final int RECORD_CAP = 1024 * 1024;

    final int index;
    final Socket socket;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private long receivedCount;
    private volatile String malformed;
    private volatile boolean closed;
    private volatile boolean closedByNode;
    /** The PROXY header the connection started with ({@code sendProxyProtocol}), as a v1 line; {@code null}: none. */
    volatile String proxyHeader;

    NodeConnection(int index, Socket socket) {
        this.index = index;
        this.socket = socket;
    }

    /** The socket's input, recorded as it is read. */
    InputStream recordingInput() throws IOException {
        return new FilterInputStream(socket.getInputStream()) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    record(new byte[] {(byte) b}, 0, 1);
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    record(buffer, offset, n);
                }
                return n;
            }
        };
    }

    private synchronized void record(byte[] bytes, int offset, int length) {
        receivedCount += length;
        int room = RECORD_CAP - received.size();
        if (room > 0) {
            received.write(bytes, offset, Math.min(room, length));
        }
    }

    synchronized byte[] received() {
        return received.toByteArray();
    }

    synchronized long receivedCount() {
        return receivedCount;
    }

    void malformed(String why) {
        malformed = why;
    }

    /** What the strict parser refused, or {@code null}. */
    String malformed() {
        return malformed;
    }

    /** The connection ended: the proxy closed or reset it, or the node did ({@code byNode}). */
    void ended(boolean byNode) {
        if (!closed) {
            closedByNode = byNode;
            closed = true;
        }
    }

    boolean closed() {
        return closed;
    }

    boolean closedByProxy() {
        return closed && !closedByNode;
    }

    @Override
    public String toString() {
        return "node connection " + index + (closed ? (closedByNode ? " (closed by the node)" : " (closed by the proxy)")
                : " (open)") + (malformed != null ? " malformed: " + malformed : "");
    }
}
