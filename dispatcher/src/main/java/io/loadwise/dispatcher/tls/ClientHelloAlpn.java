package io.loadwise.dispatcher.tls;

import io.netty.buffer.ByteBuf;

/**
 * Reads the ALPN extension (RFC 7301) of a ClientHello's body (from its version field on, as Netty's
 * {@code SslClientHelloHandler} hands it over) without copying: whether the client offers exactly one protocol, and
 * which. Every length is checked against what encloses it; a malformed hello answers false, and the TLS handshake
 * that follows refuses it.
 */
final class ClientHelloAlpn {

    private static final int EXTENSION_ALPN = 16;
    /** legacy_version (2) and random (32). */
    private static final int FIXED_PREFIX = 34;

    private ClientHelloAlpn() {
    }

    /** Whether the hello's ALPN list is exactly {@code protocol} (ASCII), as a CA's tls-alpn-01 handshake's is. */
    static boolean offersOnly(ByteBuf hello, String protocol) {
        int end = hello.writerIndex();
        int at = hello.readerIndex() + FIXED_PREFIX;
        if (at + 1 > end) {
            return false;
        }
        at += 1 + hello.getUnsignedByte(at); // legacy_session_id
        if (at + 2 > end) {
            return false;
        }
        at += 2 + hello.getUnsignedShort(at); // cipher_suites
        if (at + 1 > end) {
            return false;
        }
        at += 1 + hello.getUnsignedByte(at); // legacy_compression_methods
        if (at + 2 > end) {
            return false;
        }
        int extensionsEnd = at + 2 + hello.getUnsignedShort(at);
        at += 2;
        if (extensionsEnd > end) {
            return false;
        }
        while (at + 4 <= extensionsEnd) {
            int type = hello.getUnsignedShort(at);
            int length = hello.getUnsignedShort(at + 2);
            at += 4;
            if (at + length > extensionsEnd) {
                return false;
            }
            if (type == EXTENSION_ALPN) {
                return onlyEntry(hello, at, length, protocol);
            }
            at += length;
        }
        return false;
    }

    /** The extension's ProtocolNameList holds one name, {@code protocol}. */
    private static boolean onlyEntry(ByteBuf hello, int at, int length, String protocol) {
        if (length < 3 || hello.getUnsignedShort(at) != length - 2) {
            return false;
        }
        int nameLength = hello.getUnsignedByte(at + 2);
        if (nameLength != length - 3 || nameLength != protocol.length()) {
            return false;
        }
        for (int i = 0; i < nameLength; i++) {
            if (hello.getByte(at + 3 + i) != (byte) protocol.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
