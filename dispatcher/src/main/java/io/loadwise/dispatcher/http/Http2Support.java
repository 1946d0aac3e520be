package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.config.Http2Config;
import io.netty.channel.ChannelPipeline;

/**
 * HTTP/2 as the HTTP/1.1 listener sees it: detectors in each client pipeline that switch a connection over
 * before its first request, and a close that ends those connections. Defined here and implemented by the
 * {@code http2} package, which builds on this one; whoever makes the listener passes the implementation in
 * ({@code runtime.ModeListenerFactory}), so {@code http} never depends on {@code http2}.
 */
public interface Http2Support {

    /** Makes the HTTP/2 side of {@code listener}, when its {@code http2.enabled}. */
    @FunctionalInterface
    interface Factory {
        Http2Support create(HttpListener listener, Http2Config config, int maxHeaderBytes, boolean secure);
    }

    /** Adds the detectors of HTTP/2 to a new client connection's pipeline, around its HTTP/1.1 codec. */
    void addDetectors(ChannelPipeline pipeline);

    /** Ends every HTTP/2 connection gracefully (GOAWAY). */
    void close();
}
