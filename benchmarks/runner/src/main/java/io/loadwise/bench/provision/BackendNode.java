package io.loadwise.bench.provision;

/**
 * A running application-server node as the dispatcher sees it.
 *
 * @param name  VCN1..3
 * @param host  address of its HTTP listener
 * @param port  port of its HTTP listener
 * @param route the session route it writes into JSESSIONID ({@code jvmRoute}), or null if none
 */
public record BackendNode(String name, String host, int port, String route) {

    public String address() {
        return host + ":" + port;
    }
}
