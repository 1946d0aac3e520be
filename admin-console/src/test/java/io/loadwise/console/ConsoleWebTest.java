package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.Mode;
import io.loadwise.dispatcher.config.NodeConfig;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console over plain HTTP (no browser): session cookie flags, login and session rotation, CSRF on
 * pages and on session-authenticated API calls, security headers, logs confinement, form field errors.
 * One dispatcher for the class; no test here fails a login, so the login throttle never interferes.
 */
class ConsoleWebTest {

    private static final Pattern SESSION = Pattern.compile("LOADWISE_SESSION=([^;]+)");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @TempDir
    static Path dir;
    static ConsoleFixture fixture;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Logged in once for the tests that are not about logging in (each login hashes: ~0.5 s). */
    private static Session admin;

    private Session admin() throws Exception {
        if (admin == null) {
            admin = new Session().logIn();
        }
        return admin;
    }

    @BeforeAll
    static void start() throws Exception {
        fixture = new ConsoleFixture(dir);
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** A cookie-holding client session, by hand so that Set-Cookie can be inspected. */
    private static final class Session {
        String cookie;
        String csrf;

        HttpResponse<String> get(String path) throws Exception {
            return send(HttpRequest.newBuilder(URI.create(fixture.base() + path)).GET());
        }

        HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
            String body = form.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
                    .collect(Collectors.joining("&"));
            return send(HttpRequest.newBuilder(URI.create(fixture.base() + path))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        }

        HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
            if (cookie != null) {
                request.header("Cookie", "LOADWISE_SESSION=" + cookie);
            }
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            response.headers().allValues("Set-Cookie").forEach(c -> {
                Matcher m = SESSION.matcher(c);
                if (m.find()) {
                    cookie = m.group(1);
                }
            });
            Matcher m = CSRF.matcher(response.body());
            if (m.find()) {
                csrf = m.group(1);
            }
            return response;
        }

        Session logIn() throws Exception {
            get("/login");
            HttpResponse<String> r = post("/login", form("_csrf", csrf, "password", ConsoleFixture.PASSWORD));
            assertEquals(303, r.statusCode(), r.body());
            get("/");
            return this;
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static Map<String, String> form(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    @Test
    void pagesNeedALogin() throws Exception {
        for (String path : new String[] {"/", "/clusters", "/listeners", "/graphs", "/logs", "/jvm", "/docs"}) {
            HttpResponse<String> r = new Session().get(path);
            assertEquals(302, r.statusCode(), path);
            assertTrue(r.headers().firstValue("Location").orElse("").endsWith("/login"), path);
        }
    }

    @Test
    void listenersPageShowsThePROXYHeadersAppliedAndRefused() throws Exception {
        fixture.dispatcher.createListener(io.loadwise.dispatcher.config.ConfigLoader.parseListener("""
                {"name": "edge-pp", "listen": "127.0.0.1:0",
                 "proxyProtocol": {"accept": "v1", "trustedSources": ["127.0.0.1"]},
                 "routes": [{"cluster": "shop"}]}
                """));
        try {
            String bound = fixture.dispatcher.listenerStatuses().stream().filter(l -> l.name().equals("edge-pp"))
                    .findFirst().orElseThrow().bound();
            int port = Integer.parseInt(bound.substring(bound.lastIndexOf(':') + 1));
            try (java.net.Socket good = new java.net.Socket("127.0.0.1", port)) {
                good.setSoTimeout(10_000);
                good.getOutputStream().write(("PROXY TCP4 203.0.113.7 127.0.0.1 5000 80\r\nGET / HTTP/1.1\r\n"
                        + "Host: a\r\nConnection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertTrue(new String(good.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII)
                        .startsWith("HTTP/1.1 "), "answered after the header");
            }
            try (java.net.Socket bare = new java.net.Socket("127.0.0.1", port)) { // trusted source, no header
                bare.setSoTimeout(10_000);
                bare.getOutputStream().write("GET / HTTP/1.1\r\nHost: a\r\n\r\n"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                assertEquals(-1, bare.getInputStream().read(), "closed without an answer");
            }
            Session s = admin();
            HttpResponse<String> page = s.get("/listeners");
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("PROXY headers: <span class=\"proxy-accepted\">1</span> applied · "
                    + "<span class=\"proxy-refused\">1</span> connections closed (untrusted source 0, invalid 1,"
                    + " too slow 0)"), page.body());
            assertFalse(page.body().contains("class=\"http3\""), "no HTTP/3 line for a listener without it");
        } finally {
            fixture.dispatcher.deleteListener("edge-pp");
        }
    }

    @Test
    void listenersPageEscapesConfiguredTextAndRefusesBadTablesByField() throws Exception {
        fixture.dispatcher.createListener(io.loadwise.dispatcher.config.ConfigLoader.parseListener("""
                {"name": "probe", "listen": "127.0.0.1:0",
                 "routes": [{"match": {"headers": {"x-probe": "<script>alert(1)</script>"}}, "cluster": "shop"}]}
                """));
        try {
            Session s = admin();
            HttpResponse<String> page = s.get("/listeners");
            assertEquals(200, page.statusCode());
            assertTrue(page.body().contains("<td class=\"match\">header x-probe=&lt;script&gt;alert(1)&lt;/script&gt;</td>"),
                    page.body());
            assertFalse(page.body().contains("<script>alert"), "configured text is never markup");

            HttpResponse<String> broken = s.post("/listeners/routes", form("_csrf", s.csrf, "name", "probe",
                    "routes", "[{\"cluster\": \"shop\"}, {\"cluster\": \"shop\"} x"));
            assertEquals(400, broken.statusCode());
            assertTrue(broken.body().contains("<li class=\"field-error\" data-field=\"routes\"><code>routes</code>:"
                    + " invalid JSON at line 1, column "), broken.body());
            HttpResponse<String> duplicate = s.post("/listeners/routes", form("_csrf", s.csrf, "name", "probe",
                    "routes", "[{\"cluster\": \"shop\", \"cluster\": \"other\"}]"));
            assertEquals(400, duplicate.statusCode());
            assertTrue(duplicate.body().contains("Duplicate field &#39;cluster&#39;"), duplicate.body());
            HttpResponse<String> unknown = s.post("/listeners/routes", form("_csrf", s.csrf, "name", "nope",
                    "routes", "[]"));
            assertEquals(404, unknown.statusCode());
            assertEquals("<script>alert(1)</script>", fixture.dispatcher.config().listeners().get(0).routes().get(0)
                    .match().headers().get("x-probe").exact(), "nothing changed");
        } finally {
            fixture.dispatcher.deleteListener("probe");
        }
    }

    @Test
    void sessionCookieIsHttpOnlySameSiteStrictOnRootPath() throws Exception {
        HttpResponse<String> r = new Session().get("/login");
        assertEquals(200, r.statusCode());
        String setCookie = r.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("LOADWISE_SESSION="))
                .findFirst().orElseThrow(() -> new AssertionError("no session cookie: " + r.headers()));
        assertTrue(setCookie.contains("HttpOnly"), setCookie);
        assertTrue(setCookie.contains("SameSite=Strict"), setCookie);
        assertTrue(setCookie.contains("Path=/"), setCookie);
        assertFalse(setCookie.contains("Secure"), "plain HTTP: no Secure flag, or the browser would drop it");
    }

    @Test
    void securityHeadersOnPagesAndApi() throws Exception {
        HttpResponse<String> page = new Session().get("/login");
        HttpResponse<String> api = http.send(HttpRequest.newBuilder(URI.create(fixture.base() + "/api/clusters"))
                .header("Authorization", "Bearer " + ConsoleFixture.TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, api.statusCode());
        for (HttpResponse<String> r : java.util.List.of(page, api)) {
            String csp = r.headers().firstValue("Content-Security-Policy").orElse("");
            assertTrue(csp.contains("default-src 'self'"), csp);
            assertTrue(csp.contains("frame-ancestors 'none'"), csp);
            assertFalse(csp.contains("unsafe-inline"), csp);
            assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(null));
            assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(null));
            assertEquals("no-referrer", r.headers().firstValue("Referrer-Policy").orElse(null));
        }
        assertFalse(page.body().contains("<script>"), "no inline script");
        assertFalse(page.body().contains("style=\""), "no inline style");
    }

    @Test
    void loginWithoutCsrfTokenIsForbidden() throws Exception {
        Session s = new Session();
        s.get("/login");
        HttpResponse<String> r = s.post("/login", form("password", ConsoleFixture.PASSWORD));
        assertEquals(403, r.statusCode());
        assertTrue(r.body().contains("CSRF"), r.body());
        HttpResponse<String> forged = s.post("/login", form("_csrf", "forged", "password", ConsoleFixture.PASSWORD));
        assertEquals(403, forged.statusCode());
        assertEquals(302, s.get("/").statusCode(), "still not logged in");
    }

    @Test
    void loginRotatesTheSessionIdAndLogoutEndsIt() throws Exception {
        Session s = new Session();
        s.get("/login");
        String before = s.cookie;
        assertNotNull(before);
        HttpResponse<String> r = s.post("/login", form("_csrf", s.csrf, "password", ConsoleFixture.PASSWORD));
        assertEquals(303, r.statusCode(), r.body());
        assertNotEquals(before, s.cookie, "session id must change at login");
        HttpResponse<String> overview = s.get("/");
        assertEquals(200, overview.statusCode());
        assertTrue(overview.body().contains("shop"), "the overview lists the cluster");

        Session stale = new Session();
        stale.cookie = before;
        assertEquals(302, stale.get("/").statusCode(), "the pre-login id is not logged in");

        assertEquals(303, s.post("/logout", form("_csrf", s.csrf)).statusCode());
        assertEquals(302, s.get("/").statusCode());
    }

    @Test
    void sessionReachesTheApiButStateChangesNeedTheCsrfHeader() throws Exception {
        Session s = admin();
        HttpResponse<String> list = s.get("/api/clusters");
        assertEquals(200, list.statusCode(), list.body());
        String body = "{\"policy\": \"random\"}";
        HttpResponse<String> without = s.send(HttpRequest.newBuilder(URI.create(fixture.base() + "/api/clusters/shop/policy"))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(403, without.statusCode(), without.body());
        assertTrue(without.body().contains("X-CSRF-Token"), without.body());
        assertEquals("round-robin", fixture.dispatcher.cluster("shop").policy().id());
        HttpResponse<String> with = s.send(HttpRequest.newBuilder(URI.create(fixture.base() + "/api/clusters/shop/policy"))
                .header("Content-Type", "application/json").header("X-CSRF-Token", s.csrf)
                .PUT(HttpRequest.BodyPublishers.ofString("{\"policy\": \"round-robin\"}")));
        assertEquals(200, with.statusCode(), with.body());
    }

    @Test
    void consoleFormPostWithoutCsrfChangesNothing() throws Exception {
        Session s = admin();
        HttpResponse<String> r = s.post("/clusters/node", form("cluster", "shop", "node", "a", "action", "disable"));
        assertEquals(403, r.statusCode());
        assertTrue(fixture.dispatcher.cluster("shop").node("a").configuredEnabled());
    }

    @Test
    void badPortIsShownNextToTheListenField() throws Exception {
        Session s = admin();
        s.get("/clusters/new");
        HttpResponse<String> r = s.post("/clusters/save", form("_csrf", s.csrf, "editing", "false", "name", "bad",
                "mode", "http", "listen", "127.0.0.1:99999", "policy", "round-robin",
                "node.0.name", "x", "node.0.address", "127.0.0.1:70000", "node.0.weight", "1", "node.0.enabled", "on",
                "node.1.name", "", "node.1.address", "", "node.1.weight", "1"));
        assertEquals(400, r.statusCode());
        Matcher listen = Pattern.compile("id=\"err-listen\">([^<]*)<").matcher(r.body());
        assertTrue(listen.find(), r.body());
        assertTrue(listen.group(1).contains("99999"), listen.group(1));
        Matcher address = Pattern.compile("id=\"err-node-0-address\">([^<]*)<").matcher(r.body());
        assertTrue(address.find(), r.body());
        assertTrue(address.group(1).contains("70000"), address.group(1));
        assertEquals(null, fixture.dispatcher.cluster("bad"));
    }

    @Test
    void logsAreViewableEscapedAndConfinedToTheirDirectory() throws Exception {
        Path outside = Files.writeString(dir.resolve("secret.txt"), "top secret");
        Files.createSymbolicLink(fixture.logDir.resolve("link.log"), outside);
        Session s = admin();
        HttpResponse<String> list = s.get("/logs");
        assertTrue(list.body().contains("loadwise.log"), list.body());
        assertFalse(list.body().contains("link.log"), "symbolic links are not listed");
        HttpResponse<String> view = s.get("/logs/view?file=loadwise.log&lines=2");
        assertEquals(200, view.statusCode());
        assertTrue(view.body().contains("&lt;script&gt;x&lt;/script&gt;\nlast line"), view.body());
        assertFalse(view.body().contains("first line"), "only the last 2 lines");
        HttpResponse<String> download = s.get("/logs/download?file=loadwise.log");
        assertEquals(200, download.statusCode());
        assertTrue(download.headers().firstValue("Content-Disposition").orElse("").startsWith("attachment"));
        assertTrue(download.body().startsWith("first line"));
        for (String attempt : new String[] {"../secret.txt", "..%2Fsecret.txt", "%2E%2E%2Fsecret.txt",
                URLEncoder.encode(outside.toString(), StandardCharsets.UTF_8), "link.log", "..", ".", "", "logs%5C..%5Csecret.txt"}) {
            for (String page : new String[] {"/logs/view?file=", "/logs/download?file="}) {
                HttpResponse<String> r = s.get(page + attempt);
                assertEquals(404, r.statusCode(), page + attempt);
                assertFalse(r.body().contains("top secret"), page + attempt);
            }
        }
    }

    @Test
    void docsRenderTheMarkdownOfDocsDirectory() throws Exception {
        Session s = admin();
        HttpResponse<String> policies = s.get("/docs/policies");
        assertEquals(200, policies.statusCode());
        assertTrue(policies.body().contains("<h1 id=\"task-assignment-policies\">Task assignment policies</h1>"));
        assertTrue(policies.body().contains("<table>"));
        HttpResponse<String> thirdParty = s.get("/docs/third-party");
        assertEquals(200, thirdParty.statusCode());
        assertTrue(thirdParty.body().contains("Netty") && thirdParty.body().contains("Apache License 2.0"));
        int traversal = s.get("/docs/..%2Fpom").statusCode();
        assertTrue(traversal == 400 || traversal == 404, "encoded slash refused: " + traversal);
        assertEquals(404, s.get("/docs/no-such-page").statusCode());
    }

    @Test
    void everyIndexedDocumentationPageRenders() throws Exception {
        Session s = admin();
        HttpResponse<String> index = s.get("/docs");
        Matcher links = Pattern.compile("href=\"(/docs/[a-z0-9-]+)\"").matcher(index.body());
        int pages = 0;
        while (links.find()) {
            HttpResponse<String> page = s.get(links.group(1));
            assertEquals(200, page.statusCode(), links.group(1));
            assertTrue(page.body().contains("<article class=\"doc\"><h1"), links.group(1));
            pages++;
        }
        assertTrue(pages >= 9, "index lists the docs: " + pages);
    }

    @Test
    void withoutAPasswordTheLoginPageSaysHowToSetOne() throws Exception {
        Path file = dir.resolve("data").resolve("admin-password");
        Path aside = dir.resolve("admin-password.aside");
        Files.move(file, aside);
        try {
            Session s = new Session();
            HttpResponse<String> page = s.get("/login");
            assertTrue(page.body().contains("id=\"no-password\""), page.body());
            assertTrue(page.body().contains("./loadwise passwd --config"), page.body());
            assertTrue(page.body().contains("LOADWISE_ADMIN_PASSWORD"), page.body());
            HttpResponse<String> attempt = s.post("/login", form("_csrf", s.csrf, "password", ConsoleFixture.PASSWORD));
            assertEquals(401, attempt.statusCode());
            assertEquals(302, s.get("/").statusCode(), "no login without a password file");
            HttpResponse<String> api = http.send(HttpRequest.newBuilder(URI.create(fixture.base() + "/api/clusters"))
                    .header("Authorization", "Bearer " + ConsoleFixture.TOKEN).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, api.statusCode(), "the API keeps its bearer token");
        } finally {
            Files.move(aside, file);
        }
    }

    @Test
    void nodeActionsAndClusterLifecycleThroughTheForms() throws Exception {
        Session s = admin();
        s.get("/clusters");
        HttpResponse<String> created = s.post("/clusters/save", form("_csrf", s.csrf, "editing", "false", "name", "tmp",
                "mode", "tcp", "listen", "127.0.0.1:0", "policy", "round-robin",
                "node.0.name", "x", "node.0.address", fixture.nodeAddress(0), "node.0.weight", "2", "node.0.enabled", "on",
                "node.1.name", "y", "node.1.address", fixture.nodeAddress(1), "node.1.weight", "1", "node.1.enabled", "on"));
        assertEquals(303, created.statusCode(), created.body());
        assertTrue(s.get("/clusters").body().contains("Created cluster &#39;tmp&#39;."));
        var tmp = fixture.dispatcher.cluster("tmp");
        assertEquals(2, tmp.node("x").weight());

        assertEquals(303, s.post("/clusters/node", form("_csrf", s.csrf, "cluster", "tmp", "node", "x", "action", "disable")).statusCode());
        assertFalse(tmp.node("x").configuredEnabled());
        assertTrue(Files.readString(fixture.configFile).contains("\"enabled\" : false")
                || Files.readString(fixture.configFile).contains("\"enabled\":false"), "persisted");
        s.post("/clusters/node", form("_csrf", s.csrf, "cluster", "tmp", "node", "y", "action", "drain"));
        assertTrue(tmp.node("y").draining());
        s.post("/clusters/node", form("_csrf", s.csrf, "cluster", "tmp", "node", "y", "action", "weight", "weight", "7"));
        assertEquals(7, tmp.node("y").weight());
        s.post("/clusters/node", form("_csrf", s.csrf, "cluster", "tmp", "node", "y", "action", "weight", "weight", "heavy"));
        HttpResponse<String> refused = s.get("/clusters");
        assertTrue(refused.body().contains("Not changed: weight: &#39;heavy&#39; is not a whole number"), refused.body());
        assertEquals(7, tmp.node("y").weight());
        String table = s.get("/clusters").body();
        assertTrue(table.contains("<td class=\"state\">disabled</td>")
                && table.contains("<td class=\"state\">drained (immediate)</td>"), table);
        s.post("/clusters/node", form("_csrf", s.csrf, "cluster", "tmp", "node", "y", "action", "undrain"));
        assertFalse(tmp.node("y").draining());
        assertTrue(s.get("/clusters").body().contains(">drain sessions</button>"), "the session drain button");
        s.post("/clusters/node", form("_csrf", s.csrf, "cluster", "tmp", "node", "y", "action", "drain-sessions"));
        assertEquals(io.loadwise.dispatcher.config.DrainMode.SESSIONS, tmp.node("y").drainMode());
        String sessions = s.get("/clusters").body();
        assertTrue(sessions.contains("<td class=\"state\">draining (sessions: sessions unknown, 0 pinned requests in"
                + " the last minute)</td>"), sessions);

        assertEquals(303, s.post("/clusters/delete", form("_csrf", s.csrf, "name", "tmp")).statusCode());
        assertNull(fixture.dispatcher.cluster("tmp"));
        assertFalse(Files.readString(fixture.configFile).contains("\"tmp\""));
    }

    /** Issue 11 item 4: a node an agent-driven policy has no metrics for is flagged, not shown as down. */
    @Test
    void overviewAndConfigurationFlagNodesWhoseAgentIsUnknown() throws Exception {
        fixture.dispatcher.createCluster(ClusterConfig.builder().name("agentless").mode(Mode.HTTP)
                .listen("127.0.0.1:0").policy("least-loaded")
                .nodes(List.of(new NodeConfig("p", fixture.nodeAddress(0), 1, true, null, null),
                        new NodeConfig("q", fixture.nodeAddress(1), 1, true, null, null))).build());
        try {
            Session s = admin();
            for (String page : new String[] {"/", "/clusters"}) {
                String body = s.get(page).body();
                String agentless = section(body, page.equals("/") ? "cluster-agentless" : "config-agentless");
                assertEquals(2, count(agentless, "<span class=\"tag agent-unknown\" title=\"No fresh agent metrics"),
                        page + ": both nodes flagged: " + agentless);
                assertFalse(agentless.contains("down"), page + ": an unknown agent is not a down node: " + agentless);
                assertEquals(0, count(section(body, page.equals("/") ? "cluster-shop" : "config-shop"), "agent-unknown"),
                        page + ": round-robin reads no agent metrics, so nothing to flag");
            }
        } finally {
            fixture.dispatcher.deleteCluster("agentless");
        }
    }

    /** The {@code <section>} with this id. */
    private static String section(String page, String id) {
        int start = page.indexOf("<section class=\"card\" id=\"" + id + "\"");
        assertTrue(start >= 0, "no section " + id);
        return page.substring(start, page.indexOf("</section>", start));
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void metricsPageWithoutAWindowShowsTheDefaultOne() throws Exception {
        Session s = admin();
        for (String target : new String[] {"/graphs", "/graphs?cluster=shop", "/graphs?cluster=shop&node=a",
                "/graphs?cluster=shop&window="}) {
            HttpResponse<String> page = s.get(target);
            assertEquals(200, page.statusCode(), target + ": " + page.body());
            assertTrue(page.body().contains("data-window=\"1h\""), target + ": " + page.body());
            assertTrue(page.body().contains("<a href=\"/graphs?cluster=shop&amp;window=1h\""), page.body());
        }
    }

    @Test
    void metricsPageRefusesAnUnknownWindowByName() throws Exception {
        HttpResponse<String> page = admin().get("/graphs?cluster=shop&window=2h");
        assertEquals(400, page.statusCode(), page.body());
        assertTrue(page.body().contains("Unknown window '2h': choose one of 10m, 1h, 24h, 30d."), page.body());
    }

    @Test
    void metricsPageRefusesAnUnknownReplicaViewAndHasNoSwitchForOneDispatcher() throws Exception {
        Session s = admin();
        HttpResponse<String> page = s.get("/graphs?cluster=shop&view=all");
        assertEquals(400, page.statusCode(), page.body());
        assertTrue(page.body().contains("Unknown view 'all': choose one of this, sum, each."), page.body());
        HttpResponse<String> alone = s.get("/graphs?cluster=shop&view=sum");
        assertEquals(200, alone.statusCode(), alone.body());
        assertFalse(alone.body().contains("id=\"replica-view\""), "no switch without other replicas");
        assertTrue(alone.body().contains("data-view=\"this\""), "this replica's graphs: " + alone.body());
    }

    @Test
    void liveRequestPageEscapesItsFiltersAndPassesThemToTheApi() throws Exception {
        HttpResponse<String> page = admin().get("/requests?node=%22%3E%3Cscript%3Ex%3C%2Fscript%3E&status=5xx&bogus=1");
        assertEquals(200, page.statusCode(), page.body());
        assertFalse(page.body().contains("<script>x"), page.body());
        assertTrue(page.body().contains("value=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\""), page.body());
        assertTrue(page.body().contains("data-source=\"/api/requests?status=5xx&amp;node=%22%3E%3Cscript%3Ex%3C%2Fscript%3E\""),
                "filters passed on URL-encoded, unknown ones dropped: " + page.body());
        assertTrue(page.body().contains("<option selected>5xx</option>"), page.body());
        assertTrue(page.body().contains("<a href=\"/requests\" class=\"current\">Live requests</a>"), page.body());
    }

    @Test
    void jvmPageListsMemoryAndThreads() throws Exception {
        HttpResponse<String> r = admin().get("/jvm");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("Heap"));
        assertTrue(r.body().contains(Thread.currentThread().getName()) || r.body().contains("main"), "threads listed");
    }

    @Test
    void capacityPlannerPageReproducesTheSeedExampleAndDrawsItsChart() throws Exception {
        Session session = admin();
        HttpResponse<String> page = session.get("/capacity?mu=104.13&lambda=100&servers=3");
        assertEquals(200, page.statusCode(), page.body());
        // seed 003: μ = 104.13 req/s, 2 servers, λ = 100 req/s -> M/M/2 mean response 12.48 ms
        assertTrue(page.body().contains("<td>2</td><td>48.0 %</td><td>12.48 ms</td>"), page.body());
        assertTrue(page.body().contains("id=\"nodes-needed\">2<"), "80 % rule: 100 / (0.8 * 104.13) -> 2 nodes");
        assertFalse(page.body().contains("unstable"), "ρ = 0.96 on one node is still stable");
        assertTrue(session.get("/capacity?mu=104.13&lambda=150&servers=2").body().contains("unstable (ρ ≥ 1)"),
                "one node cannot take 150 req/s");

        HttpResponse<byte[]> chart = http.send(HttpRequest.newBuilder(URI.create(fixture.base()
                + "/capacity/chart.png?mu=104.13&servers=3")).header("Cookie", "LOADWISE_SESSION=" + session.cookie)
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, chart.statusCode());
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(chart.body()));
        assertTrue(image != null && image.getWidth() > 100, "the chart decodes as a PNG");

        HttpResponse<String> bad = session.get("/capacity?mu=-3&servers=1000");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("id=\"mu-error\""), bad.body());
        assertTrue(bad.body().contains("id=\"servers-error\""), bad.body());
    }
}
