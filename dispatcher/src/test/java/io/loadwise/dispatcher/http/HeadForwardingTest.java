package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.config.NodeConfig;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The exact bytes a node and a client receive: every field the proxy keeps is the peer's own line (its
 * casing, its spacing, its order, each repetition), and only the fields the proxy changes are removed or
 * added (written after the kept ones).
 */
class HeadForwardingTest {

    private EmbeddedProxy proxy;

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private void oneNode() {
        proxy = new EmbeddedProxy(c -> c.nodes(List.of(new NodeConfig("a", "127.0.0.1:1", null, null, null, null))));
    }

    private static String forwarding(String host) {
        return "x-forwarded-for: embedded\r\n"
                + "forwarded: for=embedded;proto=http;host=" + host + "\r\n"
                + "x-forwarded-proto: http\r\n"
                + "x-forwarded-host: " + host + "\r\n";
    }

    @Test
    void keptFieldsReachTheNodeAsTheClientWroteThem() {
        oneNode();
        proxy.clientSends("GET /p?q=1 HTTP/1.1\r\nhOsT:  h.example \r\nX-Odd-CASE:value\r\nAccept: */*\r\n"
                + "X-Dup: 1\r\nx-dup:\t2 \r\nEmpty:\r\n\r\n");
        assertEquals("GET /p?q=1 HTTP/1.1\r\nhOsT:  h.example \r\nX-Odd-CASE:value\r\nAccept: */*\r\n"
                + "X-Dup: 1\r\nx-dup:\t2 \r\nEmpty:\r\n" + forwarding("h.example") + "\r\n", proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.assertSettled();
    }

    @Test
    void eachRequestOfAConnectionNamesItsOwnHostInTheForwardingFields() {
        oneNode();
        for (String host : new String[] {"a.example", "a.example", "b.example", "a.example"}) {
            proxy.clientSends("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
            assertEquals("GET / HTTP/1.1\r\nHost: " + host + "\r\n" + forwarding(host) + "\r\n",
                    proxy.nodeReceived(0));
            proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
            assertEquals("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", proxy.clientReceived());
        }
        assertEquals(1, proxy.nodeConnections.size());
        proxy.assertSettled();
    }

    @Test
    void aRequestWithoutHostGetsAForwardedElementWithoutHostAndNoForwardedHost() {
        oneNode();
        proxy.clientSends("GET / HTTP/1.0\r\nX-Forwarded-Host: evil\r\nConnection: keep-alive\r\n\r\n");
        assertEquals("GET / HTTP/1.1\r\nx-forwarded-for: embedded\r\nforwarded: for=embedded;proto=http\r\n"
                + "x-forwarded-proto: http\r\n\r\n", proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.clientReceived();
        proxy.clientSends("GET / HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n\r\n");
        assertEquals("GET / HTTP/1.1\r\nHost: h\r\n" + forwarding("h") + "\r\n", proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.assertSettled();
    }

    @Test
    void hopByHopAndConnectionNamedFieldsAreTheOnlyOnesRemoved() {
        oneNode();
        proxy.clientSends("GET / HTTP/1.1\r\nConnection: keep-alive, X-Secret\r\nHost: h\r\nX-Secret: s\r\n"
                + "Keep-Alive: timeout=5\r\nX-Kept:  k\r\nTE: trailers\r\nProxy-Authorization: basic x\r\n"
                + "Upgrade: h2c\r\nendpoint-load-metrics: cpu=1\r\nX-Forwarded-For: 6.6.6.6\r\n"
                + "X-Forwarded-Proto: https\r\nX-Last: l\r\n\r\n");
        assertEquals("GET / HTTP/1.1\r\nHost: h\r\nX-Kept:  k\r\nX-Last: l\r\n" + forwarding("h") + "\r\n",
                proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.assertSettled();
    }

    @Test
    void bareLineFeedsReachTheNodeAsCrlf() {
        oneNode();
        proxy.clientSends("GET / HTTP/1.1\nHost: h\nX-A: 1\n\n");
        assertEquals("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n" + forwarding("h") + "\r\n", proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.assertSettled();
    }

    @Test
    void obsFoldIsRefusedAndNothingReachesTheNode() {
        oneNode();
        proxy.clientSends("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  folded\r\n\r\n");
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 400 "));
        assertEquals(0, proxy.nodeConnections.size());
    }

    @Test
    void framingFieldsAreWrittenAsDecidedAfterTheKeptOnes() {
        oneNode();
        proxy.clientSends("POST / HTTP/1.1\r\nContent-Length: 3\r\nHost: h\r\ncontent-length: 3\r\nX-B: b\r\n\r\nabc");
        assertEquals("POST / HTTP/1.1\r\nHost: h\r\nX-B: b\r\n" + forwarding("h") + "content-length: 3\r\n\r\nabc",
                proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.assertSettled();
    }

    @Test
    void contentLengthIsWrittenFromTheDecidedFramingWhateverItsSpelling() {
        oneNode();
        proxy.clientSends("POST / HTTP/1.1\r\nHost: h\r\nCONTENT-LENGTH:  2\r\n\r\nab");
        assertEquals("POST / HTTP/1.1\r\nHost: h\r\n" + forwarding("h") + "content-length: 2\r\n\r\nab",
                proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        proxy.assertSettled();
    }

    @Test
    void keptResponseFieldsReachTheClientAsTheNodeWroteThem() {
        oneNode();
        proxy.clientSends("GET / HTTP/1.1\r\nHost: h\r\n\r\n");
        proxy.nodeReceived(0);
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nserver:  nginx \r\nConnection: keep-alive, X-Hop\r\nX-Hop: 1\r\n"
                + "Content-Length: 2\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nKeep-Alive: timeout=5\r\n"
                + "ETag:\"abc\"\r\n\r\nok");
        assertEquals("HTTP/1.1 200 OK\r\nserver:  nginx \r\nContent-Length: 2\r\nSet-Cookie: a=1\r\n"
                + "set-cookie: b=2\r\nETag:\"abc\"\r\n\r\nok", proxy.clientReceived());
        proxy.assertSettled();
    }

    @Test
    void anHttp10ClientGetsTheKeptFieldsAndTheConnectionFieldItNeeds() {
        oneNode();
        proxy.clientSends("GET / HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n\r\n");
        assertEquals("GET / HTTP/1.1\r\nHost: h\r\n" + forwarding("h") + "\r\n", proxy.nodeReceived(0));
        proxy.nodeSends(0, "HTTP/1.1 200 OK\r\nX-A:a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK\r\nX-A:a\r\nconnection: close\r\n\r\nok", proxy.clientReceived());
    }
}
