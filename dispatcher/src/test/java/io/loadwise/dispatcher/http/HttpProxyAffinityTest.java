package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.loadwise.dispatcher.config.Affinity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Cookie affinity: JSESSIONID routes, the dispatcher's own cookie, and fall-back to the policy. */
class HttpProxyAffinityTest {

    private final List<TestBackend> backends = new ArrayList<>();
    private ProxyFixture proxy;

    @BeforeEach
    void setUp() throws Exception {
        for (String name : List.of("tomcat1", "liberty1", "plain")) {
            backends.add(new TestBackend(name));
        }
        proxy = new ProxyFixture();
        proxy.affinity = Affinity.COOKIE;
        proxy.node("tomcat1", backends.get(0).address(), null, "jvm1")
                .node("liberty1", backends.get(1).address(), null, "clone9")
                .node("plain", backends.get(2).address()).start();
    }

    @AfterEach
    void tearDown() {
        proxy.close();
        backends.forEach(TestBackend::close);
    }

    @Test
    void jsessionIdRoutesPinRequestsToTheirNode() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            for (int i = 0; i < 5; i++) {
                RawHttpClient.Response tomcat = client.get("/", "Cookie: theme=dark; JSESSIONID=A1B2C3D4.jvm1");
                assertEquals("tomcat1", tomcat.header("x-node"));
                assertNull(tomcat.header("set-cookie"), "already pinned: no cookie of ours");
                RawHttpClient.Response liberty = client.get("/", "Cookie: JSESSIONID=0000xYzAbC:clone9");
                assertEquals("liberty1", liberty.header("x-node"));
                RawHttpClient.Response rewritten = client.get("/cart;jsessionid=F00D.jvm1?item=3");
                assertEquals("tomcat1", rewritten.header("x-node"));
            }
            RawHttpClient.Response failedOver = client.get("/", "Cookie: JSESSIONID=0000xYz:unknownclone:clone9");
            assertEquals("liberty1", failedOver.header("x-node"), "the first known clone id after a fail-over");
        }
        assertEquals(16, proxy.server.affinityCounters().hits());
        assertEquals(0, proxy.server.affinityCounters().misses());
        proxy.assertSettled();
    }

    @Test
    void noCookieOfOursWhenTheApplicationStartsASessionWithItsRoute() throws Exception {
        try (ScriptedBackend app = new ScriptedBackend("HTTP/1.1 200 OK\r\nSet-Cookie: JSESSIONID=A1B2.jvm7; Path=/app\r\n"
                + "Content-Length: 2\r\n\r\nok", false);
                ScriptedBackend other = new ScriptedBackend("HTTP/1.1 200 OK\r\nSet-Cookie: JSESSIONID=A1B2.jvm1; Path=/\r\n"
                + "Content-Length: 2\r\n\r\nok", false);
                ProxyFixture routed = new ProxyFixture()) {
            routed.affinity = Affinity.COOKIE;
            routed.node("app", app.address(), null, "jvm7").start();
            try (RawHttpClient client = routed.client()) {
                RawHttpClient.Response response = client.get("/app/login");
                assertEquals(List.of("JSESSIONID=A1B2.jvm7; Path=/app"), response.headers("set-cookie"),
                        "the application's route pins the session; no LWROUTE beside it");
            }
            try (ProxyFixture mismatched = new ProxyFixture()) {
                mismatched.affinity = Affinity.COOKIE;
                mismatched.node("other", other.address(), null, "jvm2").start();
                try (RawHttpClient client = mismatched.client()) {
                    RawHttpClient.Response response = client.get("/");
                    assertEquals(2, response.headers("set-cookie").size(),
                            "a JSESSIONID naming another node's route does not pin this one: ours is added");
                }
            }
        }
    }

    @Test
    void insertedCookiePinsLaterRequests() throws Exception {
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response first = client.get("/");
            String node = first.header("x-node");
            String setCookie = first.header("set-cookie");
            String expectedValue = node.equals("tomcat1") ? "jvm1" : node.equals("liberty1") ? "clone9" : "plain";
            assertEquals("LWROUTE=" + expectedValue + "; Path=/; HttpOnly", setCookie);
            String cookie = setCookie.substring(0, setCookie.indexOf(';'));
            for (int i = 0; i < 9; i++) {
                RawHttpClient.Response pinned = client.get("/", "Cookie: " + cookie);
                assertEquals(node, pinned.header("x-node"), "round-robin alone would rotate");
                assertNull(pinned.header("set-cookie"));
            }
        }
        assertEquals(9, proxy.server.affinityCounters().hits());
        assertEquals(1, proxy.server.affinityCounters().unpinned());
        proxy.assertSettled();
    }

    @Test
    void pinnedNodeThatIsDisabledFallsBackToThePolicyAndRepins() throws Exception {
        proxy.cluster.setEnabled(proxy.node("tomcat1"), false);
        try (RawHttpClient client = proxy.client()) {
            RawHttpClient.Response moved = client.get("/", "Cookie: JSESSIONID=A1B2C3D4.jvm1");
            assertEquals(200, moved.status());
            String node = moved.header("x-node");
            assertNotEquals("tomcat1", node);
            String cookie = moved.header("set-cookie");
            assertEquals(node.equals("plain") ? "LWROUTE=plain; Path=/; HttpOnly" : "LWROUTE=clone9; Path=/; HttpOnly",
                    cookie);
            RawHttpClient.Response unknown = client.get("/", "Cookie: LWROUTE=gone");
            assertEquals(200, unknown.status());
        }
        assertEquals(0, proxy.server.affinityCounters().hits());
        assertEquals(2, proxy.server.affinityCounters().misses());
        proxy.assertSettled();
    }
}
