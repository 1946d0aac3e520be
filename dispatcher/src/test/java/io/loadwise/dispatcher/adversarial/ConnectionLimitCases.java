package io.loadwise.dispatcher.adversarial;

import static io.loadwise.dispatcher.adversarial.SlowPeerCases.latin1;
import static io.loadwise.dispatcher.adversarial.SlowPeerCases.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * Client connection limits (spec item 21): over the limit a connection waits unserved (it is not
 * refused, the kernel backlog holds it) while the served ones keep working, and is served as soon as
 * one of them closes. Per listener, and global over two listeners of one dispatcher.
 */
final class ConnectionLimitCases {

    static final String GROUP = "limits-connections";
    /** How long "gets no response" is watched: long enough for a proxy that would answer to do so. */
    private static final int UNSERVED_WATCH_MS = 600;

    private ConnectionLimitCases() {
    }

    static List<JavaCase> all() {
        return List.of(
                new JavaCase(GROUP, "listener-limit-holds-the-fifth-connection-until-one-closes", "21",
                        ConnectionLimitCases::listenerLimit),
                new JavaCase(GROUP, "listener-limit-does-not-touch-another-listener", "21",
                        ConnectionLimitCases::otherListenerUnaffected),
                new JavaCase(GROUP, "global-limit-over-two-listeners", "21", ConnectionLimitCases::globalLimit));
    }

    private static void listenerLimit(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest proxy = ctx.proxy(new ClusterOverrides().set("maxClientConnections", 4), node);
        List<InetSocketAddress> four = List.of(proxy.address(), proxy.address(), proxy.address(), proxy.address());
        holdAndRelease(ctx, four, proxy.address());
    }

    private static void otherListenerUnaffected(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ProxyUnderTest limited = ctx.proxy(new ClusterOverrides().set("maxClientConnections", 2), node);
        ProxyUnderTest other = ctx.proxy(new ClusterOverrides(), node);
        for (int i = 0; i < 2; i++) {
            RawClient held = ctx.client(limited);
            held.write(get("/held-" + i));
            read(held, 200, "connection " + (i + 1) + " within the limit");
        }
        RawClient free = ctx.client(other);
        free.write(get("/other"));
        read(free, 200, "a listener without a limit, while another one is full");
    }

    /**
     * Two HTTP clusters of one {@link Dispatcher} with {@code maxClientConnections: 4} at the top: two
     * connections held on each, a fifth to either listener waits.
     */
    private static void globalLimit(CaseContext ctx) throws Exception {
        RawNode node = ctx.node(NodeScript.ECHO_LINE);
        ClusterConfig a = new ClusterOverrides().build("a", List.of(node.address()));
        ClusterConfig b = new ClusterOverrides().build("b", List.of(node.address()));
        LoadwiseConfig config = new LoadwiseConfig(new AdminConfig("127.0.0.1:0", "adversarial-token-0123", null),
                null, 4, List.of(a, b));
        Transport transport = ctx.register(new Transport(1));
        Dispatcher dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport,
                new ModeListenerFactory());
        ctx.register(dispatcher);
        dispatcher.start("adversarial-token-0123", false);
        InetSocketAddress first = dispatcher.boundAddress("a");
        InetSocketAddress second = dispatcher.boundAddress("b");
        holdAndRelease(ctx, List.of(first, first, second, second), second);
    }

    /**
     * Serves one request on each of {@code held}, then checks that a connection to {@code extra} gets no
     * answer while they stay open and still work, and that it is served once the first of them closes.
     */
    private static void holdAndRelease(CaseContext ctx, List<InetSocketAddress> held, InetSocketAddress extra)
            throws Exception {
        List<RawClient> clients = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            RawClient client = ctx.register(new RawClient(held.get(i), 3_000));
            client.write(get("/held-" + i));
            read(client, 200, "connection " + (i + 1) + " within the limit");
            clients.add(client);
        }
        RawClient waiting = ctx.register(new RawClient(extra, UNSERVED_WATCH_MS));
        waiting.write(get("/waiting"));
        try {
            ClientResponse early = waiting.read(false);
            fail("the connection over the limit was served at once: " + early);
        } catch (SocketTimeoutException expected) {
            // unserved, as it should be while the others are open
        } catch (EOFException e) {
            fail("the connection over the limit was closed instead of waiting in the backlog");
        }
        for (int i = 0; i < clients.size(); i++) {
            clients.get(i).write(get("/again-" + i));
            read(clients.get(i), 200, "held connection " + (i + 1) + " while one waits");
        }
        clients.get(0).close();
        waiting.readTimeout(3_000);
        ClientResponse served = read(waiting, 200, "the waiting connection after one closed");
        assertEquals("GET /waiting HTTP/1.1", new String(served.body(), java.nio.charset.StandardCharsets.ISO_8859_1));
        ByteArrayOutputStream none = new ByteArrayOutputStream();
        waiting.readTimeout(200);
        assertFalse(waiting.closed(none), "the late connection was closed right after its response");
    }

    private static byte[] get(String path) {
        return latin1("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
    }
}
