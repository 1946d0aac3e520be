package io.loadwise.dispatcher.config;

import java.util.List;

/** Field-named errors for {@code proxyProtocol} (listeners, clusters that listen) and {@code sendProxyProtocol}. */
final class ProxyProtocolChecks {

    private ProxyProtocolChecks() {
    }

    /** A listener's or listening cluster's {@code proxyProtocol} at {@code at} ({@code ….proxyProtocol}). */
    static void check(String at, ProxyProtocolConfig p, List<String> errors) {
        if (p == null) {
            return;
        }
        if (p.accept() != null && !List.of("v1", "v2", "any").contains(p.accept())) {
            errors.add(at + ".accept: '" + ListenerChecks.printable(p.accept()) + "' is not v1, v2 or any");
        }
        if (p.trustedSources() == null || p.trustedSources().isEmpty()) {
            errors.add(at + ".trustedSources: required, the addresses or CIDR blocks of the balancers in front");
        } else {
            for (int i = 0; i < p.trustedSources().size(); i++) {
                String source = p.trustedSources().get(i);
                if (source == null || !source.matches("[0-9A-Fa-f.:]+(/[0-9]{1,3})?")) {
                    errors.add(at + ".trustedSources[" + i + "]: '" + ListenerChecks.printable(String.valueOf(source))
                            + "' is not an address or CIDR block");
                    continue;
                }
                try {
                    io.loadwise.dispatcher.net.AddressBlock.parse(source);
                } catch (IllegalArgumentException e) {
                    errors.add(at + ".trustedSources[" + i + "]: " + ListenerChecks.printable(e.getMessage()));
                }
            }
        }
        FieldChecks.range(at + ".headerTimeoutMs", p.headerTimeoutMs(), 1, 60_000, errors);
    }

    /** A cluster's {@code proxyProtocol} (only with its own {@code listen}) and {@code sendProxyProtocol}. */
    static void cluster(String at, ClusterConfig c, List<String> errors) {
        if (c.proxyProtocol() != null) {
            if (c.listen() == null) {
                errors.add(at + ".proxyProtocol: the cluster has no listen of its own; set it on the listener"
                        + " that routes to it");
            }
            check(at + ".proxyProtocol", c.proxyProtocol(), errors);
        }
        String send = c.sendProxyProtocol();
        if (send != null && !send.equals("v1") && !send.equals("v2")) {
            errors.add(at + ".sendProxyProtocol: '" + ListenerChecks.printable(send) + "' is not v1 or v2");
        }
        if (send != null && c.mode() != Mode.TCP && c.nodeProtocol() != null && !c.nodeProtocol().equals("http1")) {
            // an HTTP/2 node connection multiplexes requests; a private one per client connection is not built
            errors.add(at + ".sendProxyProtocol: not with nodeProtocol '" + ListenerChecks.printable(c.nodeProtocol())
                    + "' (a PROXY header names one client, an HTTP/2 node connection carries many); use http1");
        }
    }
}
