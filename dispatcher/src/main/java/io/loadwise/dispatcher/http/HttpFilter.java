package io.loadwise.dispatcher.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;

/**
 * One filter of the L7 request path ({@link HttpFilters}), between the route stage and node acquisition:
 * sees each request head before a node is chosen, and may answer it itself; sees each final response head
 * before it goes to the client. Called on the client connection's event loop: it must not block.
 */
public interface HttpFilter {

    /** What a filter decided about a request: go on to the node, or answer locally with {@link #answer()}. */
    record Decision(FullHttpResponse answer) {

        /** Go on: the next filter, then a node. */
        public static final Decision CONTINUE = new Decision(null);

        /** Answer with {@code response} (which the proxy then owns and releases); no node sees the request. */
        public static Decision respond(FullHttpResponse response) {
            return new Decision(response);
        }

        public boolean continues() {
            return answer == null;
        }
    }

    /** A request head, before any node is chosen; its headers may be changed. */
    Decision onRequest(HttpRequest request, RequestSource source);

    /**
     * The final response head to {@code request}, already rewritten for the client, or a local answer (another
     * filter's, a redirect); its headers may be changed.
     */
    default void onResponseHead(HttpRequest request, HttpResponse response) {
    }
}
