package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.console.api.ApiServlet;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.console.testing.FaultyPolicy;
import io.loadwise.console.testing.LogLines;
import io.loadwise.console.testing.RawHttp;
import io.loadwise.console.web.ConsoleServlet;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The console's defences over raw sockets, against a real dispatcher: login throttling per source address
 * (clients on different loopback addresses), access decisions on the normalised path whatever the raw
 * request path says, and unexpected failures that tell the client an incident id and nothing else.
 * Each test uses its own loopback addresses, so one test's failed logins never throttle another's.
 */
class ConsoleSecurityTest {

    private static final Pattern SESSION = Pattern.compile("LOADWISE_SESSION=([^;]+)");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private static final Pattern INCIDENT = Pattern.compile("incident ([0-9a-f]{8})");

    @TempDir
    static Path dir;
    static ConsoleFixture fixture;

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

    /** A browser-like client on one loopback address: keeps its session cookie and the last CSRF token seen. */
    private static final class Client {
        final InetAddress from;
        String cookie;
        String csrf;

        Client(String address) throws IOException {
            this.from = InetAddress.getByName(address);
        }

        RawHttp.Response get(String target) throws IOException {
            return remember(RawHttp.send(from, fixture.adminPort, "GET", target, null, headers()));
        }

        RawHttp.Response post(String target, String... pairs) throws IOException {
            StringBuilder form = new StringBuilder("_csrf=").append(enc(csrf));
            for (int i = 0; i + 1 < pairs.length; i += 2) {
                form.append('&').append(enc(pairs[i])).append('=').append(enc(pairs[i + 1]));
            }
            String[] headers = Stream.concat(Stream.of(headers()),
                    Stream.of("Content-Type: application/x-www-form-urlencoded")).toArray(String[]::new);
            return remember(RawHttp.send(from, fixture.adminPort, "POST", target, form.toString(), headers));
        }

        RawHttp.Response logIn(String password) throws IOException {
            get("/login");
            return post("/login", "password", password);
        }

        private String[] headers() {
            return cookie == null ? new String[0] : new String[] {"Cookie: LOADWISE_SESSION=" + cookie};
        }

        private RawHttp.Response remember(RawHttp.Response response) {
            String setCookie = response.header("Set-Cookie");
            if (setCookie != null) {
                Matcher m = SESSION.matcher(setCookie);
                if (m.find()) {
                    cookie = m.group(1);
                }
            }
            Matcher m = CSRF.matcher(response.body());
            if (m.find()) {
                csrf = m.group(1);
            }
            return response;
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void wrongPasswordsThrottleOnlyTheirOwnAddress() throws Exception {
        try (LogLines lines = new LogLines(LoginGuard.class, Level.WARN)) {
            Client attacker = new Client("127.0.0.2");
            RawHttp.Response first = attacker.logIn("not-the-password");
            assertEquals(401, first.status());
            assertTrue(first.body().contains("Wrong password. After 2 more wrong passwords from your address, each "
                    + "further attempt from it must wait, longer each time."), first.body());
            assertEquals(401, attacker.post("/login", "password", "still-wrong").status());
            RawHttp.Response third = attacker.post("/login", "password", "wrong-again");
            assertEquals(401, third.status());
            assertTrue(third.body().contains("Wrong password. Wait 1 second before you try again from this address."),
                    third.body());

            RawHttp.Response early = attacker.post("/login", "password", ConsoleFixture.PASSWORD);
            assertEquals(429, early.status(), "too early: even the right password is not checked");
            assertEquals("1", early.header("Retry-After"));
            assertTrue(early.body().contains("Too many wrong passwords from your address. Wait 1 second before you "
                    + "try again"), early.body());
            assertEquals(302, attacker.get("/").status(), "not logged in");

            Client admin = new Client("127.0.0.3");
            RawHttp.Response login = admin.logIn(ConsoleFixture.PASSWORD);
            assertEquals(303, login.status(), "another address logs in at once: " + login.body());
            assertEquals(200, admin.get("/").status());

            assertTrue(lines.lines().contains("WARN console login failed from 127.0.0.2: wrong password (1 in a row)"),
                    lines.lines().toString());
        }
    }

    static Stream<Arguments> rawPaths() {
        return Stream.of(
                // Encoded dot-segments: Tomcat would decode and normalise them to another resource.
                Arguments.of("/api/%2e%2e/clusters", 400, "encoded dot-segment"),
                Arguments.of("/api/%2E%2e/clusters", 400, "encoded dot-segment"),
                Arguments.of("/api/.%2e/clusters", 400, "encoded dot-segment"),
                Arguments.of("/api/%2e/clusters", 400, "encoded dot-segment"),
                Arguments.of("/%2e%2e/api/clusters", 400, null), // above the root: Tomcat refuses it itself
                Arguments.of("/api/clusters/shop/%2e%2e/%2e%2e/%2e%2e/clusters", 400, "encoded dot-segment"),
                // Encoded slashes (Tomcat refuses these itself) and backslashes.
                Arguments.of("/api%2fclusters", 400, null),
                Arguments.of("/api/clusters%2Fshop", 400, null),
                Arguments.of("/api%5cclusters", 400, null),
                // Path parameters: Tomcat strips them before mapping, so they could hide a dot-segment.
                Arguments.of("/api/..;/clusters", 400, "path parameters"),
                Arguments.of("/api;x=1/clusters", 400, "path parameters"),
                Arguments.of("/api/clusters;jsessionid=0123", 400, "path parameters"),
                Arguments.of("/clusters;x=y", 400, "path parameters"),
                // Doubled slashes and plain dot-segments are normalised, then judged as what they are.
                Arguments.of("//api/clusters", 401, "missing bearer token"),
                Arguments.of("/api//clusters", 401, "missing bearer token"),
                Arguments.of("/static/../api/clusters", 401, "missing bearer token"),
                Arguments.of("//clusters", 302, null),
                Arguments.of("/api/../clusters", 302, null),
                // Paths are case-sensitive: these are console pages, which need a login.
                Arguments.of("/API/clusters", 302, null),
                Arguments.of("/Api/Clusters", 302, null),
                Arguments.of("/METRICS", 302, null));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("rawPaths")
    void rawPathsAreJudgedByWhatTheyReach(String target, int status, String error) throws Exception {
        RawHttp.Response response = RawHttp.get(fixture.adminPort, target);
        assertEquals(status, response.status(), target + ": " + response.body());
        if (error != null) {
            String message = new ObjectMapper().readTree(response.body()).path("error").asText();
            assertTrue(message.contains(error), message);
        }
        if (status == 302) {
            assertTrue(response.header("Location").endsWith("/login"), response.header("Location"));
        }
        assertNoClusterData(target, response);
    }

    @Test
    void aBearerTokenOpensNeitherOddPathsNorConsolePages() throws Exception {
        String bearer = "Authorization: Bearer " + ConsoleFixture.TOKEN;
        RawHttp.Response doubled = RawHttp.get(fixture.adminPort, "//api/clusters", bearer);
        assertEquals(200, doubled.status(), "the same resource as /api/clusters: " + doubled.body());
        assertTrue(doubled.body().contains("\"shop\""), doubled.body());
        for (String target : List.of("/api/%2e%2e/clusters", "/api/..;/clusters", "/api/clusters;x=1")) {
            RawHttp.Response response = RawHttp.get(fixture.adminPort, target, bearer);
            assertEquals(400, response.status(), target);
            assertNoClusterData(target, response);
        }
        RawHttp.Response upper = RawHttp.get(fixture.adminPort, "/API/clusters", bearer);
        assertEquals(302, upper.status(), "a console path: the token is not a login");
    }

    /** Nothing of the configuration leaks: neither the cluster's JSON nor its node addresses. */
    private static void assertNoClusterData(String target, RawHttp.Response response) {
        assertFalse(response.body().contains("\"shop\"") || response.body().contains(fixture.nodeAddress(0)),
                target + " leaked: " + response.body());
    }

    @Test
    void anUnexpectedApiFailureShowsAnIncidentIdAndNoExceptionText() throws Exception {
        try (LogLines lines = new LogLines(ApiServlet.class, Level.ERROR)) {
            RawHttp.Response response = RawHttp.send(InetAddress.getLoopbackAddress(), fixture.adminPort, "PUT",
                    "/api/clusters/shop/policy", "{\"policy\": \"" + FaultyPolicy.ID + "\"}",
                    "Authorization: Bearer " + ConsoleFixture.TOKEN, "Content-Type: application/json");
            assertEquals(500, response.status(), response.body());
            assertLeaksNothing(response.body());
            String error = new ObjectMapper().readTree(response.body()).path("error").asText();
            Matcher id = INCIDENT.matcher(error);
            assertTrue(id.find(), error);
            assertTrue(error.endsWith("the dispatcher log has the details under this id"), error);
            assertLoggedWithStackTrace(lines, id.group(1));
        }
        assertEquals("round-robin", fixture.dispatcher.cluster("shop").policy().id(), "nothing changed");
    }

    @Test
    void anUnexpectedConsoleFailureShowsAnIncidentIdAndNoExceptionText() throws Exception {
        Client admin = new Client("127.0.0.4");
        assertEquals(303, admin.logIn(ConsoleFixture.PASSWORD).status());
        admin.get("/clusters");
        try (LogLines lines = new LogLines(ConsoleServlet.class, Level.ERROR)) {
            RawHttp.Response response = admin.post("/clusters/policy", "cluster", "shop", "policy", FaultyPolicy.ID);
            assertEquals(500, response.status(), response.body());
            assertLeaksNothing(response.body());
            assertTrue(response.body().contains("id=\"incident\""), response.body());
            Matcher id = INCIDENT.matcher(response.body().replace("<code>", "").replace("</code>", ""));
            assertTrue(id.find(), response.body());
            assertLoggedWithStackTrace(lines, id.group(1));
        }
        assertEquals("round-robin", fixture.dispatcher.cluster("shop").policy().id(), "nothing changed");
    }

    private static void assertLeaksNothing(String body) {
        assertFalse(body.contains(FaultyPolicy.SECRET) || body.contains("secret-key")
                || body.contains("UnsupportedOperationException") || body.contains("at io.loadwise"), body);
    }

    private static void assertLoggedWithStackTrace(LogLines lines, String incident) {
        ILoggingEvent logged = lines.events().stream().filter(e -> e.getFormattedMessage().endsWith("incident " + incident))
                .findFirst().orElseThrow(() -> new AssertionError("incident " + incident + " not logged: " + lines.lines()));
        assertEquals(Level.ERROR, logged.getLevel());
        assertNotNull(logged.getThrowableProxy(), "logged with its stack trace");
        assertEquals(FaultyPolicy.SECRET, logged.getThrowableProxy().getMessage());
    }
}
