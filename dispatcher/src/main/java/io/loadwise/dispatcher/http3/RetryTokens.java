package io.loadwise.dispatcher.http3;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.quic.QuicTokenHandler;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * QUIC address validation by Retry (RFC 9000 §8.1.2): a client's first Initial is answered with a Retry carrying a
 * token only the proxy can make, and a connection (with its state and its handshake's CPU) exists only once the
 * client echoes the token from the address it was sent to. Before that, the proxy sends one small Retry per
 * Initial: no amplification, and a spoofed source address gets nothing it can use.
 *
 * <p>A token is {@code HMAC-SHA256(key, expiry ‖ address ‖ port ‖ dcid) ‖ expiry ‖ dcid}: 32 bytes of MAC, 8 of
 * expiry (epoch milliseconds) and the client's original destination connection ID, which must stay last (Netty
 * reads it from the offset {@link #validateToken} returns). The key is random per listener start, so tokens of an
 * earlier run are refused.
 */
final class RetryTokens implements QuicTokenHandler {

    static final int MAC_LENGTH = 32;
    static final int MAX_CONNECTION_ID_LENGTH = 20;
    private static final int HEADER = MAC_LENGTH + Long.BYTES;

    private final SecretKeySpec key;
    private final long lifetimeMs;
    private final LongSupplier clock;
    private final LongAdder issued = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final ThreadLocal<Mac> macs;

    RetryTokens(long lifetimeMs, LongSupplier clock) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.key = new SecretKeySpec(secret, "HmacSHA256");
        this.lifetimeMs = lifetimeMs;
        this.clock = clock;
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    @Override
    public boolean writeToken(ByteBuf out, ByteBuf dcid, InetSocketAddress address) {
        if (dcid.readableBytes() > MAX_CONNECTION_ID_LENGTH) {
            return false;
        }
        long expiry = clock.getAsLong() + lifetimeMs;
        out.writeBytes(mac(expiry, address, dcid));
        out.writeLong(expiry);
        out.writeBytes(dcid, dcid.readerIndex(), dcid.readableBytes());
        issued.increment();
        return true;
    }

    @Override
    public int validateToken(ByteBuf token, InetSocketAddress address) {
        int length = token.readableBytes();
        if (length < HEADER || length > maxTokenLength()) {
            refused.increment();
            return -1;
        }
        int start = token.readerIndex();
        long expiry = token.getLong(start + MAC_LENGTH);
        ByteBuf dcid = token.slice(start + HEADER, length - HEADER);
        byte[] given = new byte[MAC_LENGTH];
        token.getBytes(start, given);
        if (expiry < clock.getAsLong() || !MessageDigest.isEqual(given, mac(expiry, address, dcid))) {
            refused.increment();
            return -1;
        }
        return HEADER;
    }

    @Override
    public int maxTokenLength() {
        return HEADER + MAX_CONNECTION_ID_LENGTH;
    }

    private byte[] mac(long expiry, InetSocketAddress address, ByteBuf dcid) {
        Mac mac = macs.get();
        for (int shift = 56; shift >= 0; shift -= 8) {
            mac.update((byte) (expiry >>> shift));
        }
        mac.update(address.getAddress().getAddress());
        mac.update((byte) (address.getPort() >>> 8));
        mac.update((byte) address.getPort());
        byte[] id = new byte[dcid.readableBytes()];
        dcid.getBytes(dcid.readerIndex(), id);
        mac.update(id);
        return mac.doFinal();
    }

    /** Retry tokens sent. */
    long issued() {
        return issued.sum();
    }

    /** Tokens refused: forged, for another address, expired or malformed. */
    long refused() {
        return refused.sum();
    }
}
