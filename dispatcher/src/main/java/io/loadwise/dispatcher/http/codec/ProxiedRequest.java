package io.loadwise.dispatcher.http.codec;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A request head as {@link RequestDecoder} read it, with the body framing it decided once from the
 * headers as received (RFC 9112 §6.3). The proxy writes the body to the node with this framing, whatever
 * later header rewriting does, so the node can never read a different message boundary than we did.
 */
public final class ProxiedRequest extends DefaultHttpRequest {

    /** {@link #bodyLength()} of a chunked body. */
    public static final long CHUNKED = -1;

    private final long bodyLength;
    private final boolean upgrade;
    private final HttpVersion clientVersion;
    /** The request target's bytes as the client sent them; {@code null} when not read from HTTP/1.1. */
    private final byte[] receivedTarget;
    /** The {@link #uri()} made of {@link #receivedTarget}: another URI means the target was rewritten. */
    private final String receivedUri;

    ProxiedRequest(HttpVersion version, HttpMethod method, String uri, HttpHeaders headers, long bodyLength,
            boolean upgrade) {
        this(version, method, uri, null, headers, bodyLength, upgrade);
    }

    ProxiedRequest(HttpVersion version, HttpMethod method, String uri, byte[] receivedTarget, HttpHeaders headers,
            long bodyLength, boolean upgrade) {
        super(version, method, uri, headers);
        this.bodyLength = bodyLength;
        this.upgrade = upgrade;
        this.clientVersion = version;
        this.receivedTarget = receivedTarget;
        this.receivedUri = uri;
    }

    /**
     * A request that did not come through {@link RequestDecoder}: an HTTP/2 stream's, whose framing the
     * HTTP/2 layer decided ({@code content-length}, or chunked to the node when it gave none).
     */
    public static ProxiedRequest of(HttpMethod method, String uri, HttpHeaders headers, long bodyLength) {
        return new ProxiedRequest(HttpVersion.HTTP_1_1, method, uri, headers, bodyLength, false);
    }

    /**
     * The request target's bytes as the client sent them (checked by the decoder: visible ASCII only),
     * or {@code null} when there are none or the target was changed since.
     */
    byte[] targetAsReceived() {
        return uri() == receivedUri ? receivedTarget : null;
    }

    /** The version the client spoke, whatever the request is forwarded as. */
    public HttpVersion clientVersion() {
        return clientVersion;
    }

    /** Bytes of body: 0 for none, {@link #CHUNKED} for a chunked body. */
    public long bodyLength() {
        return bodyLength;
    }

    public boolean chunked() {
        return bodyLength == CHUNKED;
    }

    /** Whether the body is empty: only the empty last content follows the head. */
    public boolean bodyless() {
        return bodyLength == 0;
    }

    /** The client asked to switch protocols ({@code Upgrade} and the {@code upgrade} Connection token). */
    public boolean upgrade() {
        return upgrade;
    }
}
