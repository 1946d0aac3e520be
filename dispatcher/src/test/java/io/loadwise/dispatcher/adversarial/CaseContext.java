package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.net.Transport;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * What one case starts (raw nodes, the proxy, clients), closed together in reverse order by the runner's
 * thread, also when the case timed out on another thread.
 */
final class CaseContext implements AutoCloseable {

    /** Client reads give up after this unless a case says otherwise: a hang fails fast. */
    static final int DEFAULT_READ_TIMEOUT_MS = 3_000;

    private final Transport transport;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    CaseContext(Transport transport) {
        this.transport = transport;
    }

    Transport transport() {
        return transport;
    }

    synchronized <T extends AutoCloseable> T register(T resource) {
        opened.push(resource);
        return resource;
    }

    RawNode node(NodeScript script) throws IOException {
        return register(new RawNode(script));
    }

    ProxyUnderTest proxy(ClusterOverrides overrides, RawNode... nodes) throws IOException {
        List<String> addresses = java.util.Arrays.stream(nodes).map(RawNode::address).toList();
        return register(ProxyUnderTest.start(transport, overrides, addresses));
    }

    RawClient client(ProxyUnderTest proxy) throws IOException {
        return client(proxy, DEFAULT_READ_TIMEOUT_MS);
    }

    RawClient client(ProxyUnderTest proxy, int readTimeoutMs) throws IOException {
        return register(new RawClient(proxy.address(), readTimeoutMs));
    }

    @Override
    public synchronized void close() {
        AutoCloseable resource;
        while ((resource = opened.poll()) != null) {
            try {
                resource.close();
            } catch (Exception e) {
                // closing what a failed case left behind; the failure itself is already reported
            }
        }
    }
}
