package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The route and filter stages in front of the exchange, on embedded channels: a filter may answer a request
 * itself (no node sees it, the connection goes on) or see each response head; a request without a route is
 * a 404.
 */
class RequestStagesTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

    private EmbeddedProxy proxy;

    @AfterEach
    void close() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Answers {@code /blocked} with 403 itself; marks every response head it sees. */
    private static final HttpFilter BLOCKING = new HttpFilter() {
        @Override
        public Decision onRequest(HttpRequest request, RequestSource source) {
            return request.uri().equals("/blocked")
                    ? Decision.respond(ErrorResponses.of(HttpResponseStatus.FORBIDDEN, "blocked", false))
                    : Decision.CONTINUE;
        }

        @Override
        public void onResponseHead(HttpRequest request, HttpResponse response) {
            response.headers().set("x-filtered", "yes");
        }
    };

    @Test
    void aFilterAnswersLocallyAndTheConnectionServesTheNextRequest() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.server.setFilters(new HttpFilters(List.of(BLOCKING)));
        proxy.clientSends("POST /blocked HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc");
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 403 Forbidden"));
        assertEquals(0, proxy.nodeConnections.size(), "no node saw it");
        proxy.clientSends("GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
        assertTrue(proxy.nodeReceived(0).startsWith("GET /x "), "the body was dropped, the next request read");
        proxy.nodeSends(0, OK);
        String answer = proxy.clientReceived();
        assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.contains("x-filtered: yes"), answer);
        assertTrue(proxy.client.isOpen());
        proxy.assertSettled();
    }

    @Test
    void aRequestWithoutARouteIs404() {
        proxy = new EmbeddedProxy(c -> { });
        proxy.server.setRoutes((request, source) -> null);
        proxy.clientSends("GET /x HTTP/1.1\r\nHost: h\r\n\r\n");
        assertTrue(proxy.clientReceived().startsWith("HTTP/1.1 404 Not Found"));
        assertEquals(0, proxy.nodeConnections.size());
        proxy.assertSettled();
    }
}
