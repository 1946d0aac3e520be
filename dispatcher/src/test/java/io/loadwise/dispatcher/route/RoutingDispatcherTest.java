package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.control.RoutedListenerStatus;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.testsupport.Await;
import io.loadwise.policy.PolicyRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real {@link Dispatcher} with {@code listeners[]}: two HTTP clusters without a port of their own behind one
 * listener, over real sockets. Splits keep pinned sessions, a reload swaps the table while a request in flight
 * finishes on the old one, and a client over {@code maxConnectionsPerClient} is refused.
 */
class RoutingDispatcherTest {

    private final List<HttpServer> nodes = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch slowArrived = new CountDownLatch(1);
    private Transport transport;
    private Dispatcher dispatcher;
    private String shop1;
    private String shop2;
    private String canary;

    @BeforeEach
    void start() throws Exception {
        shop1 = node("s1");
        shop2 = node("s2");
        canary = node("c1");
        transport = new Transport(1);
        dispatcher = new Dispatcher(config(95, 5), null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);
    }

    private LoadwiseConfig config(int shopWeight, int canaryWeight) throws Exception {
        return ConfigLoader.parse(("""
            {"admin": {"listen": "127.0.0.1:0", "token": "test-token-0123456789"},
             "clusters": [
               {"name": "shop", "mode": "http", "policy": "round-robin", "affinity": "cookie",
                "nodes": [{"name": "s1", "address": "%s"}, {"name": "s2", "address": "%s"}]},
               {"name": "canary", "mode": "http", "policy": "round-robin", "affinity": "cookie",
                "nodes": [{"name": "c1", "address": "%s"}]}],
             "listeners": [{"name": "edge", "listen": "127.0.0.1:0", "maxConnectionsPerClient": 3,
               "routes": [
                 {"name": "health", "match": {"path": "/healthz"}, "respond": {"status": 200, "body": "ok"}},
                 {"name": "testers", "match": {"headers": {"x-canary": "1"}}, "cluster": "canary"},
                 {"name": "everyone", "split": [{"cluster": "shop", "weight": %d}, {"cluster": "canary", "weight": %d}]}
               ]}]}
            """).formatted(shop1, shop2, canary, shopWeight, canaryWeight));
    }

    private String node(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/slow")) {
                slowArrived.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = name.getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        nodes.add(server);
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() throws IOException {
        release.countDown();
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        nodes.forEach(n -> n.stop(0));
    }

    @Test
    void routesLeadToClustersWithoutAPortOfTheirOwn() throws Exception {
        assertEquals("ok", exchange("GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").body);
        assertEquals("c1", exchange("GET /x HTTP/1.1\r\nHost: a\r\nX-Canary: 1\r\nConnection: close\r\n\r\n").body);
        assertEquals(null, dispatcher.boundAddress("shop"), "shop binds no port of its own");
        RoutedListenerStatus edge = dispatcher.listenerStatuses().get(0);
        assertEquals(1, edge.routes().get(0).requests());
        assertEquals(1, edge.routes().get(1).byStatusClass().get(1));
    }

    @Test
    void aSplitKeepsAPinnedSessionWhereItStarted() throws Exception {
        int toCanary = 0;
        String pinnedToCanary = null;
        for (int i = 0; i < 400 && pinnedToCanary == null; i++) {
            Reply r = exchange("GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            if (r.body.equals("c1")) {
                toCanary++;
                pinnedToCanary = r.header("set-cookie");
            }
        }
        assertNotNull(pinnedToCanary, "one request in twenty reaches the canary");
        String cookie = pinnedToCanary.substring(0, pinnedToCanary.indexOf(';'));
        for (int i = 0; i < 50; i++) {
            assertEquals("c1", exchange("GET /x HTTP/1.1\r\nHost: a\r\nCookie: " + cookie
                    + "\r\nConnection: close\r\n\r\n").body, "request " + i + " of the canary's session");
        }
        assertTrue(toCanary >= 1);
    }

    @Test
    void aReloadSwapsTheTableAndARequestInFlightFinishesOnTheOldOne() throws Exception {
        dispatcher.apply(config(100, 0));
        CompletableFuture<Reply> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return exchange("GET /slow HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(slowArrived.await(10, TimeUnit.SECONDS), "the slow request reached a shop node");
        dispatcher.apply(config(0, 100));
        for (int i = 0; i < 20; i++) {
            assertEquals("c1", exchange("GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").body);
        }
        release.countDown();
        Reply finished = slow.get(10, TimeUnit.SECONDS);
        assertEquals(200, finished.status);
        assertTrue(finished.body.equals("s1") || finished.body.equals("s2"), finished.body);
    }

    @Test
    void aClientOverItsConnectionsIsRefusedAndTheOthersKeepTheirs() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                Socket s = connect();
                held.add(s);
                write(s, "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n");
                assertEquals(200, read(s).status);
            }
            try (Socket fourth = connect()) {
                write(fourth, "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n");
                assertEquals(-1, readOrReset(fourth), "closed before any answer");
            }
            write(held.get(0), "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n");
            assertEquals(200, read(held.get(0)).status, "the client's open connections are untouched");
            held.remove(0).close();
            int[] refusedProbes = {0};
            Await.until("a slot freed when a connection closed", () -> {
                try (Socket again = connect()) {
                    write(again, "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n");
                    return read(again).status == 200;
                } catch (IOException e) {
                    refusedProbes[0]++; // the close had not reached the listener yet: refused, and counted
                    return false;
                }
            });
            assertEquals(1 + refusedProbes[0], dispatcher.listenerStatuses().get(0).rejectedPerClient());
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    /** The next byte, or -1 at the end of the stream or when the peer reset it (closed with our bytes unread). */
    private static int readOrReset(Socket s) throws IOException {
        try {
            return s.getInputStream().read();
        } catch (java.net.SocketException e) {
            return -1;
        }
    }

    record Reply(int status, List<String> headers, String body) {
        String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            for (String h : headers) {
                if (h.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                    return h.substring(prefix.length()).trim();
                }
            }
            return null;
        }
    }

    private Socket connect() throws IOException {
        InetSocketAddress edge = dispatcher.routedListening().get("edge");
        Socket s = new Socket(edge.getAddress(), edge.getPort());
        s.setSoTimeout(10_000);
        return s;
    }

    private Reply exchange(String request) throws IOException {
        try (Socket s = connect()) {
            write(s, request);
            return read(s);
        }
    }

    private static void write(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    /** One response with a Content-Length body. */
    private static Reply read(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1).stripTrailing();
                line.reset();
                if (text.isEmpty()) {
                    break;
                }
                lines.add(text);
            } else {
                line.write(b);
            }
        }
        if (lines.isEmpty()) {
            throw new IOException("no response");
        }
        int status = Integer.parseInt(lines.get(0).split(" ")[1]);
        List<String> headers = lines.subList(1, lines.size());
        int length = 0;
        for (String h : headers) {
            if (h.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(h.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return new Reply(status, headers, new String(body, StandardCharsets.ISO_8859_1));
    }
}
