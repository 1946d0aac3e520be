package io.loadwise.dispatcher.config;

import java.util.List;

/**
 * What the dispatcher speaks to the nodes of an http cluster ({@code "nodeProtocol"}): each request goes to a node
 * as HTTP/1.1 over pooled keep-alive connections, or as one stream of a multiplexed HTTP/2 connection, over TLS
 * with ALPN {@code h2} (the cluster's {@code nodeTls}) or in clear text with prior knowledge ({@code h2c}).
 */
public enum NodeProtocol {
    HTTP1("http1"),
    H2("h2"),
    H2C("h2c");

    private final String id;

    NodeProtocol(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Whether node connections carry HTTP/2 streams. */
    public boolean multiplexed() {
        return this != HTTP1;
    }

    /** The protocol named {@code id}; only a validated value gets here. */
    public static NodeProtocol of(String id) {
        for (NodeProtocol p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown nodeProtocol '" + id + "'");
    }

    /** Field-named errors of a cluster's {@code nodeProtocol} at {@code at} ({@code clusters[0]}). */
    static void check(String at, ClusterConfig c, List<String> errors) {
        String value = c.nodeProtocol();
        if (value == null) {
            return;
        }
        String field = at + ".nodeProtocol";
        NodeProtocol protocol = null;
        for (NodeProtocol p : values()) {
            if (p.id.equals(value)) {
                protocol = p;
            }
        }
        if (protocol == null) {
            errors.add(field + ": '" + ListenerChecks.printable(value) + "' is not http1, h2 or h2c");
            return;
        }
        if (c.mode() == Mode.TCP && protocol != HTTP1) {
            errors.add(field + ": only for http clusters (a tcp cluster relays bytes, whatever the protocol)");
        }
        if (protocol == H2 && c.nodeTls() == null) {
            errors.add(field + ": h2 is HTTP/2 over TLS and needs nodeTls; h2c is HTTP/2 in clear text");
        }
        if (protocol != HTTP1 && c.balance() == Balance.PER_CONNECTION) {
            // a client is bound to a node connection; a stream ends with its request, so no binding would hold
            errors.add(field + ": HTTP/2 to the nodes balances each request (a stream ends with it); balance "
                    + "per-connection needs http1");
        }
        if (protocol == H2C && c.nodeTls() != null) {
            errors.add(field + ": h2c is clear text but nodeTls is set; use h2 for HTTP/2 over TLS");
        }
    }
}
