package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.acme.AcmeChallenges;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ACME's http-01 answers ahead of the routes (issue 34, "a challenge path answered only for pending tokens, never a
 * path traversal"): the exact answer for a pending token, and every near miss passed to the node byte for byte, as
 * any other request.
 */
class AcmeChallengeStageTest {

    private static final String TOKEN = "0BK-MaDFMxVK4MZCNAP03uHcI9JpgtHYp6i6fSUloOA";
    private static final String KEY_AUTHORIZATION = TOKEN + ".9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI";
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private EmbeddedProxy proxy;

    @AfterEach
    void close() {
        AcmeChallenges.withdraw(TOKEN);
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aPendingTokenIsAnsweredWithItsKeyAuthorizationAndNoNodeSeesIt() {
        AcmeChallenges.offer(TOKEN, KEY_AUTHORIZATION);
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends("GET /.well-known/acme-challenge/" + TOKEN + " HTTP/1.1\r\nHost: shop.example\r\n\r\n");
        assertEquals("HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: "
                + KEY_AUTHORIZATION.length() + "\r\n\r\n" + KEY_AUTHORIZATION, proxy.clientReceived());
        proxy.clientSends("HEAD /.well-known/acme-challenge/" + TOKEN + "?x=1 HTTP/1.1\r\nHost: shop.example\r\n\r\n");
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 200 OK\r\n"), "HEAD, a query ignored");
        assertEquals(0, proxy.nodeConnections.size(), "answered by the proxy");
        proxy.assertSettled();
    }

    @Test
    void nearMissesAndOtherMethodsGoToTheNodeUnchanged() {
        AcmeChallenges.offer(TOKEN, KEY_AUTHORIZATION);
        proxy = new EmbeddedProxy(c -> { });
        List<String> targets = List.of(
                "/.well-known/acme-challenge/" + TOKEN + "x",                 // a longer token
                "/.well-known/acme-challenge/" + TOKEN.substring(1),          // a shorter one
                "/.well-known/acme-challenge/" + TOKEN.toLowerCase(),         // tokens are case-sensitive
                "/.well-known/acme-challenge/../" + TOKEN,                    // traversal: not a token
                "/.well-known/acme-challenge/" + TOKEN + "/..",
                "/.well-known/acme-challenge/%2e%2e%2fetc%2fpasswd",
                "/.well-known/acme-challenge/",
                "/.WELL-KNOWN/acme-challenge/" + TOKEN,                       // another path to the origin
                "//.well-known/acme-challenge/" + TOKEN);
        for (String target : targets) {
            proxy.clientSends("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
            int at = busyConnection();
            String seen = proxy.nodeReceived(at);
            assertTrue(seen.startsWith("GET " + target + " HTTP/1.1\r\n"), target + ": " + seen);
            proxy.nodeSends(at, OK);
            String answer = proxy.clientReceived();
            assertTrue(answer.startsWith("HTTP/1.1 200 OK"), target + ": " + answer);
        }
        proxy.clientSends("POST /.well-known/acme-challenge/" + TOKEN + " HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n");
        int node = busyConnection();
        assertTrue(proxy.nodeReceived(node).startsWith("POST /.well-known/acme-challenge/" + TOKEN + " "),
                "only GET and HEAD are answered");
        proxy.nodeSends(node, OK);
        proxy.clientReceived();
        proxy.assertSettled();
    }

    /** The node connection that has unread bytes: the one the last request went to. */
    private int busyConnection() {
        for (int i = 0; i < proxy.nodeConnections.size(); i++) {
            if (proxy.node(i).outboundMessages().peek() != null) {
                return i;
            }
        }
        throw new AssertionError("no node connection was sent anything");
    }

    @Test
    void aWithdrawnTokenIsNoLongerAnswered() {
        AcmeChallenges.offer(TOKEN, KEY_AUTHORIZATION);
        AcmeChallenges.withdraw(TOKEN);
        proxy = new EmbeddedProxy(c -> { });
        proxy.clientSends("GET /.well-known/acme-challenge/" + TOKEN + " HTTP/1.1\r\nHost: h\r\n\r\n");
        assertTrue(proxy.nodeReceived(0).startsWith("GET /.well-known/acme-challenge/" + TOKEN + " "));
        proxy.nodeSends(0, OK);
        proxy.clientReceived();
        proxy.assertSettled();
    }

    @Test
    void onlyTokenShapedStringsAreOffered() {
        assertThrows(IllegalArgumentException.class, () -> AcmeChallenges.offer("short", "x"));
        assertThrows(IllegalArgumentException.class, () -> AcmeChallenges.offer("../../etc/passwd/xxxxxxxxxx", "x"));
        assertEquals(null, AcmeChallenges.httpAnswer(null));
    }
}
