package io.loadwise.dispatcher.net;

import java.net.InetSocketAddress;

/** Parses {@code host:port} and {@code [v6]:port} into an unresolved socket address. */
public final class NodeAddress {

    private NodeAddress() {
    }

    /**
     * @throws IllegalArgumentException with a message fit for a config error ("port 99999 out of range")
     */
    public static InetSocketAddress parse(String address) {
        return parse(address, false);
    }

    /** As {@link #parse(String)}; a listen address may use port 0 (any free port, for tests). */
    public static InetSocketAddress parseListen(String address) {
        return parse(address, true);
    }

    private static InetSocketAddress parse(String address, boolean allowZero) {
        if (address == null || address.isBlank()) {
            throw new IllegalArgumentException("missing host:port");
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("'" + address + "' is not host:port");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new IllegalArgumentException("'" + address + "': write IPv6 addresses as [addr]:port");
        }
        String portText = address.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port '" + portText + "' is not a number");
        }
        if (port < (allowZero ? 0 : 1) || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range");
        }
        return InetSocketAddress.createUnresolved(host, port);
    }
}
