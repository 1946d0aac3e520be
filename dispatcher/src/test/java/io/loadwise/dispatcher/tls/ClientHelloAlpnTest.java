package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;

/**
 * The ALPN reader against real ClientHellos (the JDK's, as a CA's Java client or a browser sends them) and against
 * hellos cut or corrupted at every length field: a malformed one answers false, never throws or reads past the end.
 */
class ClientHelloAlpnTest {

    /** The JDK client's first handshake message's body, from its version field on (what the SNI handler hands over). */
    private static byte[] hello(List<String> alpn) throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("shop.example", 443);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setApplicationProtocols(alpn.toArray(String[]::new));
        engine.setSSLParameters(parameters);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] record = new byte[out.remaining()];
        out.get(record);
        assertEquals(0x16, record[0], "a handshake record");
        assertEquals(1, record[5], "a ClientHello");
        int length = ((record[6] & 0xff) << 16) | ((record[7] & 0xff) << 8) | (record[8] & 0xff);
        return Arrays.copyOfRange(record, 9, 9 + length);
    }

    private static boolean acmeOnly(byte[] body) {
        ByteBuf buf = Unpooled.wrappedBuffer(body);
        try {
            return ClientHelloAlpn.offersOnly(buf, "acme-tls/1");
        } finally {
            buf.release();
        }
    }

    @Test
    void realHellos() throws Exception {
        assertTrue(acmeOnly(hello(List.of("acme-tls/1"))));
        assertFalse(acmeOnly(hello(List.of("acme-tls/1", "http/1.1"))));
        assertFalse(acmeOnly(hello(List.of("http/1.1", "acme-tls/1"))));
        assertFalse(acmeOnly(hello(List.of("h2"))));
        assertFalse(acmeOnly(hello(List.of("acme-tls/2"))));
        assertFalse(acmeOnly(hello(List.of("acme-tls/10"))));
        assertFalse(acmeOnly(hello(List.of())), "no ALPN extension");
    }

    @Test
    void everyTruncationAnswersFalse() throws Exception {
        byte[] good = hello(List.of("acme-tls/1"));
        for (int cut = 0; cut < good.length; cut++) {
            ByteBuf buf = Unpooled.wrappedBuffer(good, 0, cut);
            try {
                // the extensions run to the hello's end, so any cut leaves their announced length unmet
                assertFalse(ClientHelloAlpn.offersOnly(buf, "acme-tls/1"), "cut at " + cut + " of " + good.length);
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void everyCorruptedByteIsSafe() throws Exception {
        byte[] good = hello(List.of("acme-tls/1"));
        for (int i = 0; i < good.length; i++) {
            for (int value : new int[] {0x00, 0x01, 0x7f, 0xff}) {
                byte[] bad = good.clone();
                bad[i] = (byte) value;
                acmeOnly(bad); // any answer, but no exception and no read outside the buffer
            }
        }
    }

    @Test
    void handBuiltAlpnExtensions() {
        byte[] name = "acme-tls/1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertTrue(acmeOnly(withAlpn(list(10 + 1, 10, name))));
        assertFalse(acmeOnly(withAlpn(list(10 + 2, 10, name))), "list length longer than its one entry");
        assertFalse(acmeOnly(withAlpn(list(10, 10, name))), "list length shorter than the entry");
        assertFalse(acmeOnly(withAlpn(list(10 + 1, 11, name))), "entry length past the list");
        assertFalse(acmeOnly(withAlpn(list(10 + 1, 9, name))), "entry length short of the name");
        assertFalse(acmeOnly(withAlpn(new byte[0])), "empty extension");
        assertFalse(acmeOnly(withAlpn(new byte[] {0, 0})), "empty list");
        assertFalse(acmeOnly(withAlpn(list(1, 0, new byte[0]))), "an empty name");
    }

    /** The ProtocolNameList: its 16-bit length, one 8-bit entry length, the bytes. */
    private static byte[] list(int listLength, int entryLength, byte[] name) {
        byte[] b = new byte[3 + name.length];
        b[0] = (byte) (listLength >> 8);
        b[1] = (byte) listLength;
        b[2] = (byte) entryLength;
        System.arraycopy(name, 0, b, 3, name.length);
        return b;
    }

    /** A minimal hello body: version, random, no session id, one cipher suite, null compression, the ALPN extension. */
    private static byte[] withAlpn(byte[] extension) {
        ByteBuf b = Unpooled.buffer();
        b.writeShort(0x0303).writeZero(32).writeByte(0).writeShort(2).writeShort(0x1301).writeByte(1).writeByte(0);
        b.writeShort(4 + extension.length).writeShort(16).writeShort(extension.length).writeBytes(extension);
        byte[] body = new byte[b.readableBytes()];
        b.readBytes(body);
        b.release();
        return body;
    }
}
