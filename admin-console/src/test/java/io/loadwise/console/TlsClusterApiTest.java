package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.TlsConfig;
import io.loadwise.testsupport.TestPki;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster with an HTTPS listener through the admin API and the console: its certificates are shown
 * (not-after as ISO-8601 text, subject, SANs, protocols, the 14-day warning), its key passwords never,
 * and a {@code PUT} of what {@code GET} returned keeps the passwords in force. Real dispatcher, real
 * certificates made by {@code openssl}, real TLS clients.
 */
class TlsClusterApiTest {

    private static final String PASSWORD = "k3y-pass-Secret";
    private static final Pattern SESSION = Pattern.compile("LOADWISE_SESSION=([^;]+)");
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @TempDir
    Path dir;
    ConsoleFixture fixture;
    ApiClient api;
    TestPki pki;
    TestPki.Issued server;
    Path encryptedKey;
    TestPki.Issued expired;
    Path expiredEncrypted;

    @BeforeEach
    void start() throws Exception {
        fixture = new ConsoleFixture(dir);
        api = new ApiClient(fixture.adminPort, ConsoleFixture.TOKEN);
        pki = new TestPki(Files.createDirectories(dir.resolve("pki")));
        server = pki.issue("server", "localhost", "localhost", "shop.example");
        encryptedKey = pki.encryptedKey(server, PASSWORD);
        expired = pki.expired("old");
        expiredEncrypted = pki.encryptedKey(expired, "old-" + PASSWORD);
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private String secureCluster(String mainPassword, String sniPassword) {
        return """
                {"name": "secure", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "tls": {"certificate": "%s", "key": "%s", "keyPassword": "%s",
                         "certificates": [{"serverNames": ["old.example"], "certificate": "%s", "key": "%s",
                                           "keyPassword": "%s"}]},
                 "nodes": [{"name": "a", "address": "%s"}]}
                """.formatted(server.certificate(), encryptedKey, mainPassword, expired.certificate(), expiredEncrypted,
                sniPassword, fixture.nodeAddress(0));
    }

    private ClusterConfig inForce(String name) {
        return fixture.dispatcher.config().clustersOrEmpty().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void certificatesAreShownAsTextAndPasswordsNever() throws Exception {
        ApiClient.Response created = api.post("/api/clusters", secureCluster(PASSWORD, "old-" + PASSWORD));
        assertEquals(201, created.status(), created.body());
        for (String path : List.of("/api/clusters", "/api/clusters/secure", "/api/clusters/secure/nodes/a")) {
            ApiClient.Response read = api.get(path);
            assertEquals(200, read.status(), path + ": " + read.body());
            assertFalse(read.body().contains(PASSWORD), path + " returned a key password: " + read.body());
        }
        JsonNode cluster = api.get("/api/clusters/secure").json();
        JsonNode listener = cluster.path("listener");
        assertEquals("[\"h2\",\"http/1.1\"]", listener.path("protocols").toString());
        assertTrue(listener.path("tls").asBoolean());
        assertEquals("[\"TLSv1.3\",\"TLSv1.2\"]", listener.path("tlsVersions").toString());
        JsonNode main = listener.path("certificates").get(0);
        assertEquals("CN=localhost", main.path("subject").asText());
        assertEquals("[\"IP:127.0.0.1\",\"DNS:localhost\",\"DNS:shop.example\"]", main.path("subjectAltNames").toString());
        assertEquals("CN=Loadwise Test CA", main.path("issuer").asText());
        Instant notAfter = Instant.parse(main.path("notAfter").asText()); // ISO-8601 text
        assertTrue(notAfter.isAfter(Instant.now().plus(Duration.ofDays(29))), main.toString());
        assertFalse(main.path("expiresSoon").asBoolean(), main.toString());
        assertEquals("[]", main.path("serverNames").toString());
        JsonNode old = listener.path("certificates").get(1);
        assertEquals("2020-01-02T00:00:00Z", old.path("notAfter").asText());
        assertTrue(old.path("expiresSoon").asBoolean(), old.toString());
        assertEquals("[\"old.example\"]", old.path("serverNames").toString());
        assertEquals("[\"cluster secure: certificate CN=old expired on 2020-01-02T00:00:00Z\"]",
                listener.path("warnings").toString());
        assertEquals("(set)", cluster.path("config").path("tls").path("keyPassword").asText());
        assertEquals("(set)", cluster.path("config").path("tls").path("certificates").get(0).path("keyPassword").asText());
        JsonNode inList = api.get("/api/clusters").json();
        assertTrue(inList.toString().contains("\"notAfter\":\"2020-01-02T00:00:00Z\""), inList.toString());

        // the listener serves the certificate the API describes
        TestPki.Result handshake = TestPki.exec(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + fixture.listener("secure").getPort(), "-servername", "localhost",
                "-CAfile", pki.caCert.toString()), "", 20);
        assertTrue(handshake.output().contains("Verify return code: 0 (ok)"), handshake.output());
    }

    @Test
    void aPutOfWhatGetReturnedKeepsTheKeyPasswords() throws Exception {
        assertEquals(201, api.post("/api/clusters", secureCluster(PASSWORD, "old-" + PASSWORD)).status());
        ObjectNode edited = (ObjectNode) api.get("/api/clusters/secure").json().path("config");
        edited.put("connectTimeoutMs", 4096);
        ApiClient.Response replaced = api.put("/api/clusters/secure", edited.toString());
        assertEquals(200, replaced.status(), replaced.body());
        assertFalse(replaced.body().contains(PASSWORD), replaced.body());
        TlsConfig tls = inForce("secure").tls();
        assertEquals(PASSWORD, tls.keyPassword());
        assertEquals("old-" + PASSWORD, tls.certificates().get(0).keyPassword());
        assertEquals(4096, inForce("secure").connectTimeoutMs());
        String onDisk = Files.readString(fixture.configFile);
        assertTrue(onDisk.contains("\"keyPassword\" : \"" + PASSWORD + "\"") || onDisk.contains("\"keyPassword\":\""
                + PASSWORD + "\""), onDisk);
        assertFalse(onDisk.contains("(set)"), onDisk);

        // another value replaces it, and is checked against the key
        ((ObjectNode) edited.path("tls")).put("keyPassword", "not-the-password");
        ApiClient.Response wrong = api.put("/api/clusters/secure", edited.toString());
        assertEquals(400, wrong.status(), wrong.body());
        assertTrue(wrong.body().contains("wrong keyPassword"), wrong.body());
        assertFalse(wrong.body().contains("not-the-password"), wrong.body());
        assertEquals(PASSWORD, inForce("secure").tls().keyPassword(), "a refused edit changes nothing");
    }

    @Test
    void postReloadServesACertificateReplacedOnDisk() throws Exception {
        Path live = Files.createDirectories(dir.resolve("live"));
        Files.copy(server.certificate(), live.resolve("server.pem"));
        Files.copy(server.key(), live.resolve("server.key"));
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "secure", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "tls": {"certificate": "%s", "key": "%s", "reloadCheckMs": 3600000},
                 "nodes": [{"name": "a", "address": "%s"}]}
                """.formatted(live.resolve("server.pem"), live.resolve("server.key"), fixture.nodeAddress(0)));
        assertEquals(201, created.status(), created.body());
        TestPki.Issued renewed = pki.issue("renewed", "renewed.localhost", "localhost");
        Files.copy(renewed.key(), live.resolve("server.key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(renewed.certificate(), live.resolve("server.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals("CN=localhost", api.get("/api/clusters/secure").json().path("listener").path("certificates").get(0)
                .path("subject").asText(), "the watcher checks once an hour here: only the reload re-reads the files");

        ApiClient.Response reloaded = api.post("/api/reload", "");
        assertEquals(200, reloaded.status(), reloaded.body());

        assertEquals("CN=renewed.localhost", api.get("/api/clusters/secure").json().path("listener")
                .path("certificates").get(0).path("subject").asText());
        TestPki.Result handshake = TestPki.exec(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + fixture.listener("secure").getPort(), "-CAfile", pki.caCert.toString()), "", 20);
        assertTrue(handshake.output().contains("subject=CN = renewed.localhost"), handshake.output());
    }

    /**
     * Issue 34 item 4: a cluster with {@code tls.acme} is made before its files exist, serves the stand-in, shows
     * {@code acme} as configured, keeps it through a PUT of what GET returned, and counts the failed order of an
     * unreachable CA in Prometheus.
     */
    @Test
    void anAcmeClusterStartsOnTheStandInAndKeepsItsAcmeThroughAnEdit() throws Exception {
        Path store = dir.resolve("acme-store");
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "acme-shop", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "tls": {"certificate": "%s", "key": "%s",
                         "acme": {"directory": "https://127.0.0.1:9/dir", "domains": ["shop.example"],
                                  "email": "ops@shop.example", "renewBeforeDays": 20}},
                 "nodes": [{"name": "a", "address": "%s"}]}
                """.formatted(store.resolve("shop.pem"), store.resolve("shop.key"), fixture.nodeAddress(0)));
        assertEquals(201, created.status(), created.body());
        JsonNode cluster = api.get("/api/clusters/acme-shop").json();
        assertEquals("CN=Loadwise stand-in (awaiting an ACME certificate)",
                cluster.path("listener").path("certificates").get(0).path("subject").asText());
        JsonNode acme = cluster.path("config").path("tls").path("acme");
        assertEquals("https://127.0.0.1:9/dir", acme.path("directory").asText());
        assertEquals("shop.example", acme.path("domains").get(0).asText());
        assertEquals(20, acme.path("renewBeforeDays").asInt());

        ApiClient.Response replaced = api.put("/api/clusters/acme-shop", cluster.path("config").toString());
        assertEquals(200, replaced.status(), replaced.body());
        assertEquals(acme, api.get("/api/clusters/acme-shop").json().path("config").path("tls").path("acme"),
                "a PUT of what GET returned keeps acme");
        Await.until(() -> api.get("/metrics").body().contains(
                "loadwise_acme_orders_failed_total{listener=\"cluster acme-shop\"} "), "the failed order counted");
        assertTrue(Files.isRegularFile(store.resolve("shop.key")), "the stand-in's key is on disk");
    }

    @Test
    void theMaskIsNoPasswordOfItsOwn() {
        ApiClient.Response refused = api.post("/api/clusters", secureCluster("(set)", "old-" + PASSWORD));
        assertEquals(400, refused.status(), refused.body());
        assertTrue(refused.body().contains("tls.keyPassword: '(set)' is what the API shows in place of a password, "
                + "not a password; give the real one"), refused.body());
    }

    @Test
    void consolePagesShowTheTlsCluster() throws Exception {
        assertEquals(201, api.post("/api/clusters", secureCluster(PASSWORD, "old-" + PASSWORD)).status());
        Console console = new Console().logIn();
        for (String path : List.of("/", "/clusters", "/clusters/edit?name=secure")) {
            HttpResponse<String> page = console.get(path);
            assertEquals(200, page.statusCode(), path + ": " + page.body());
            assertFalse(page.body().contains(PASSWORD), path + " shows a key password");
        }
        String clusters = console.get("/clusters").body();
        assertTrue(clusters.contains("Protocols <code>h2, http/1.1</code> · TLSv1.3/TLSv1.2"), clusters);
        assertTrue(clusters.contains("valid until 2020-01-02T00:00:00Z · <b>expires within 14 days</b>"), clusters);
    }

    /** A logged-in console session over plain HTTP. */
    private final class Console {
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        private String cookie;
        private String csrf;

        HttpResponse<String> get(String path) throws Exception {
            return send(HttpRequest.newBuilder(URI.create(fixture.base() + path)).GET());
        }

        Console logIn() throws Exception {
            get("/login");
            String form = "_csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8) + "&password="
                    + URLEncoder.encode(ConsoleFixture.PASSWORD, StandardCharsets.UTF_8);
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(fixture.base() + "/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)));
            assertEquals(303, r.statusCode(), r.body());
            return this;
        }

        private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
            if (cookie != null) {
                request.header("Cookie", "LOADWISE_SESSION=" + cookie);
            }
            HttpResponse<String> response = http.send(request.version(HttpClient.Version.HTTP_1_1)
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
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
    }
}
