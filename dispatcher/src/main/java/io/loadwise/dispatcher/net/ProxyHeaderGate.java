package io.loadwise.dispatcher.net;

import io.netty.channel.Channel;

/**
 * A listener's PROXY protocol reading: its settings, its counters and one rate limit for its log lines. Puts a
 * {@link ProxyHeaderHandler} first in each accepted connection's pipeline, after the listener's own set-up.
 */
public final class ProxyHeaderGate {

    /** The handler's name in a client pipeline. */
    public static final String NAME = "proxy-header";

    private final String listener;
    private final ProxyProtocolSettings settings;
    private final ProxyProtocolStats stats;
    private final Object throttle = ProxyHeaderHandler.newThrottle();
    private PerClientConnections perClient;

    public ProxyHeaderGate(String listener, ProxyProtocolSettings settings, ProxyProtocolStats stats) {
        this.listener = listener;
        this.settings = settings;
        this.stats = stats;
    }

    /** Counts connections per client by the header's address; trusted sources are exempt at accept. */
    public ProxyHeaderGate limitPerClient(PerClientConnections limit) {
        this.perClient = limit;
        if (limit != null) {
            limit.exempt(settings.trustedSources());
        }
        return this;
    }

    /** Called last in a listener's initializer: the handler goes first, in front of TLS and the codecs. */
    public void install(Channel ch) {
        ch.pipeline().addFirst(NAME, new ProxyHeaderHandler(listener, settings, stats, throttle, perClient));
    }

    public ProxyProtocolStats stats() {
        return stats;
    }
}
