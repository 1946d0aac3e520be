package io.loadwise.dispatcher.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The Retry tokens: valid only from the address they were sent to, unaltered, before their expiry. */
class RetryTokensTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final RetryTokens tokens = new RetryTokens(10_000, now::get);
    private final InetSocketAddress client = new InetSocketAddress("192.0.2.7", 40_000);
    private final ByteBuf dcid = Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});

    private ByteBuf token() {
        ByteBuf out = Unpooled.buffer();
        assertTrue(tokens.writeToken(out, dcid, client));
        return out;
    }

    @Test
    void aTokenFromTheSameAddressBeforeItsExpiryIsValidAndNamesTheOriginalConnectionId() {
        ByteBuf token = token();
        int offset = tokens.validateToken(token, client);
        assertEquals(RetryTokens.MAC_LENGTH + Long.BYTES, offset);
        assertEquals(dcid, token.slice(offset, token.readableBytes() - offset));
        assertTrue(token.readableBytes() <= tokens.maxTokenLength());
        assertEquals(1, tokens.issued());
    }

    @Test
    void anotherAddressOrPortIsRefused() {
        ByteBuf token = token();
        assertEquals(-1, tokens.validateToken(token, new InetSocketAddress("192.0.2.8", 40_000)));
        assertEquals(-1, tokens.validateToken(token, new InetSocketAddress("192.0.2.7", 40_001)));
        assertEquals(2, tokens.refused());
    }

    @Test
    void anExpiredTokenIsRefused() {
        ByteBuf token = token();
        now.addAndGet(10_001);
        assertEquals(-1, tokens.validateToken(token, client));
    }

    @Test
    void anyAlteredByteIsRefused() {
        ByteBuf token = token();
        for (int i = 0; i < token.readableBytes(); i++) {
            ByteBuf forged = token.copy();
            forged.setByte(i, forged.getByte(i) ^ 0x01);
            assertEquals(-1, tokens.validateToken(forged, client), "byte " + i);
        }
        assertEquals(-1, tokens.validateToken(token.slice(0, 20), client), "truncated");
    }

    @Test
    void anotherListenersKeyIsRefused() {
        ByteBuf token = token();
        assertEquals(-1, new RetryTokens(10_000, now::get).validateToken(token, client));
    }

    @Test
    void anOverlongConnectionIdGetsNoToken() {
        assertFalse(tokens.writeToken(Unpooled.buffer(), Unpooled.wrappedBuffer(new byte[21]), client));
    }
}
