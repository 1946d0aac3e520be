package io.loadwise.dispatcher.adversarial;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP/2 client over one blocking socket that writes exactly the frames a case builds (h2c with prior
 * knowledge), for the attacks a real client library would never send. Header blocks are HPACK literals
 * without Huffman coding, so a case controls every byte.
 */
final class H2RawClient implements AutoCloseable {

    static final int DATA = 0;
    static final int HEADERS = 1;
    static final int RST_STREAM = 3;
    static final int SETTINGS = 4;
    static final int PING = 6;
    static final int GOAWAY = 7;
    static final int CONTINUATION = 9;
    static final int END_STREAM = 1;
    static final int END_HEADERS = 4;
    static final int ENHANCE_YOUR_CALM = 0xb;
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** A frame the server sent. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        int goAwayError() {
            return ((payload[4] & 0xff) << 24) | ((payload[5] & 0xff) << 16) | ((payload[6] & 0xff) << 8)
                    | (payload[7] & 0xff);
        }
    }

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    /** The client's own port: its streams' access-log lines carry it ({@code client_port}). */
    int localPort() {
        return socket.getLocalPort();
    }

    H2RawClient(InetSocketAddress address, int readTimeoutMs) throws IOException {
        socket = new Socket(address.getAddress(), address.getPort());
        socket.setSoTimeout(readTimeoutMs);
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
        out.write(PREFACE);
        out.write(frame(SETTINGS, 0, 0, new byte[0]));
        out.flush();
    }

    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        byte[] f = new byte[9 + payload.length];
        f[0] = (byte) (payload.length >>> 16);
        f[1] = (byte) (payload.length >>> 8);
        f[2] = (byte) payload.length;
        f[3] = (byte) type;
        f[4] = (byte) flags;
        f[5] = (byte) (stream >>> 24);
        f[6] = (byte) (stream >>> 16);
        f[7] = (byte) (stream >>> 8);
        f[8] = (byte) stream;
        System.arraycopy(payload, 0, f, 9, payload.length);
        return f;
    }

    /** A header block: GET {@code path} on scheme http with authority x, then {@code extra} name/value pairs. */
    static byte[] requestBlock(String method, String path, String... extra) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        literal(block, ":method", method);
        literal(block, ":scheme", "http");
        literal(block, ":path", path);
        literal(block, ":authority", "x");
        for (int i = 0; i < extra.length; i += 2) {
            literal(block, extra[i], extra[i + 1]);
        }
        return block.toByteArray();
    }

    /** A literal field without indexing, new name (RFC 7541 §6.2.2). */
    static void literal(ByteArrayOutputStream block, String name, String value) {
        block.write(0);
        string(block, name.getBytes(StandardCharsets.ISO_8859_1));
        string(block, value.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A literal field with incremental indexing (it enters the dynamic table). */
    static void indexedLiteral(ByteArrayOutputStream block, String name, String value) {
        block.write(0x40);
        string(block, name.getBytes(StandardCharsets.ISO_8859_1));
        string(block, value.getBytes(StandardCharsets.ISO_8859_1));
    }

    static void string(ByteArrayOutputStream block, byte[] text) {
        integer(block, 0, 7, text.length);
        block.writeBytes(text);
    }

    /** An HPACK integer with an {@code bits}-bit prefix, the high bits {@code high}. */
    static void integer(ByteArrayOutputStream block, int high, int bits, int value) {
        int max = (1 << bits) - 1;
        if (value < max) {
            block.write(high | value);
            return;
        }
        block.write(high | max);
        value -= max;
        while (value >= 128) {
            block.write((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        block.write(value);
    }

    /** Writes; returns false when the server already closed the connection. */
    boolean write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The next frame, or {@code null} at the end of the connection (or when nothing comes in time). */
    Frame read() throws IOException {
        try {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Frame(type, flags, stream, payload);
        } catch (EOFException | SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            return null; // reset by the server
        }
    }

    /** Reads until a GOAWAY (returned) or the end; {@code null} if the connection ended without one. */
    Frame readUntilGoAway() throws IOException {
        Frame frame;
        while ((frame = read()) != null) {
            if (frame.type() == GOAWAY) {
                return frame;
            }
        }
        return null;
    }

    /** Whether the server closed the connection (reads reach the end within the read timeout). */
    boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // drain what is left
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
