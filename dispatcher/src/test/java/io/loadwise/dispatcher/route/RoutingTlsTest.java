package io.loadwise.dispatcher.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import io.loadwise.testsupport.TestPki;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP to HTTPS site of docs/routing.md, with curl as the client: a plain listener that only redirects, and
 * a TLS listener that requires client certificates, where a Host naming another SNI domain than the handshake's
 * gets 421 (RFC 9110 §15.5.20: the connection was made for another host).
 */
class RoutingTlsTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestPki.Issued client;
    static HttpServer node;
    static Transport transport;
    static Dispatcher dispatcher;

    @BeforeAll
    static void start() throws Exception {
        pki = new TestPki(dir);
        TestPki.Issued shop = pki.issue("shop", "shop.example", "shop.example");
        TestPki.Issued other = pki.issue("other", "other.example", "other.example");
        client = pki.issue("client", "client");
        node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", exchange -> {
            byte[] body = ("node saw " + exchange.getRequestHeaders().getFirst("Host") + " "
                    + exchange.getRequestURI()).getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        LoadwiseConfig config = ConfigLoader.parse(("""
            {"admin": {"listen": "127.0.0.1:0", "token": "test-token-0123456789"},
             "clusters": [{"name": "shop", "mode": "http", "policy": "round-robin",
                           "nodes": [{"name": "n1", "address": "127.0.0.1:%d"}]}],
             "listeners": [
               {"name": "plain", "listen": "127.0.0.1:0",
                "routes": [{"match": {"path": "/healthz"}, "respond": {"status": 200, "body": "ok\\n"}},
                           {"redirect": {"status": 301, "scheme": "https"}}]},
               {"name": "secure", "listen": "127.0.0.1:0",
                "tls": {"certificate": "%s", "key": "%s", "clientCa": "%s", "clientAuth": "require",
                        "certificates": [{"serverNames": ["other.example"], "certificate": "%s", "key": "%s"}]},
                "routes": [{"cluster": "shop",
                            "responseHeaders": {"set": {"strict-transport-security": "max-age=31536000"}}}]}]}
            """).formatted(node.getAddress().getPort(), shop.certificate(), shop.key(), pki.caCert,
                other.certificate(), other.key()));
        transport = new Transport(1);
        dispatcher = new Dispatcher(config, null, PolicyRegistry.load(), transport, new ModeListenerFactory());
        dispatcher.start("test-token", false);
    }

    @AfterAll
    static void stop() throws IOException {
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (transport != null) {
            transport.close();
        }
        if (node != null) {
            node.stop(0);
        }
    }

    private static int port(String listener) {
        return dispatcher.routedListening().get(listener).getPort();
    }

    private static TestPki.Result curl(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10"));
        command.addAll(List.of(args));
        return TestPki.exec(command, null, 20);
    }

    @Test
    void thePlainPortRedirectsEverythingButItsHealthCheck() throws IOException {
        int plain = port("plain");
        TestPki.Result redirect = curl("-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "--resolve",
                "shop.example:" + plain + ":127.0.0.1", "http://shop.example:" + plain + "/cart?id=7");
        assertEquals("301 https://shop.example/cart?id=7", redirect.output());
        TestPki.Result health = curl("http://127.0.0.1:" + plain + "/healthz");
        assertEquals("ok\n", health.output());
    }

    @Test
    void theTlsPortServesItsHostAndAnswers421ForAnotherSniDomain() throws IOException {
        int secure = port("secure");
        String resolveShop = "shop.example:" + secure + ":127.0.0.1";
        TestPki.Result ok = curl("-i", "--cacert", pki.caCert.toString(), "--cert", client.certificate().toString(),
                "--key", client.key().toString(), "--resolve", resolveShop, "https://shop.example:" + secure + "/a");
        assertEquals(0, ok.exit(), ok.output());
        assertTrue(ok.output().contains("node saw shop.example:" + secure + " /a"), ok.output());
        assertTrue(ok.output().toLowerCase().contains("strict-transport-security: max-age=31536000"), ok.output());

        TestPki.Result misdirected = curl("-o", "/dev/null", "-w", "%{http_code}", "--cacert", pki.caCert.toString(),
                "--cert", client.certificate().toString(), "--key", client.key().toString(), "--resolve", resolveShop,
                "-H", "Host: other.example", "https://shop.example:" + secure + "/a");
        assertEquals("421", misdirected.output());
    }
}
