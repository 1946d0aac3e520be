package io.loadwise.dispatcher.tls;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz target of the ClientHello ALPN reader: any bytes answer without an exception or a read outside the buffer
 * (a bounds-checked heap buffer throws on one), and a true answer means the protocol's bytes are there.
 */
class ClientHelloAlpnFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void anyBytes(byte[] bytes) {
        ByteBuf hello = Unpooled.wrappedBuffer(bytes);
        try {
            if (ClientHelloAlpn.offersOnly(hello, AlpnChallenges.ACME_TLS_1)) {
                assertTrue(new String(bytes, StandardCharsets.ISO_8859_1).contains(AlpnChallenges.ACME_TLS_1));
            }
        } finally {
            hello.release();
        }
    }
}
