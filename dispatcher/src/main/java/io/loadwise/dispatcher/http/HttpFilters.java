package io.loadwise.dispatcher.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import java.util.List;

/**
 * The filter chain of a route, in order: requests pass it first to last, and the first filter that answers
 * ends the walk; response heads pass it first to last too, local answers included. Immutable.
 */
public final class HttpFilters {

    /** No filters: every request goes on to a node, every response as the node sent it. */
    public static final HttpFilters NONE = new HttpFilters(List.of());

    private final HttpFilter[] filters;

    public HttpFilters(List<HttpFilter> filters) {
        this.filters = filters.toArray(new HttpFilter[0]);
    }

    public boolean isEmpty() {
        return filters.length == 0;
    }

    /** The local answer of the first filter that gives one, or {@code null}: the request goes on to a node. */
    FullHttpResponse onRequest(HttpRequest request, RequestSource source) {
        for (HttpFilter filter : filters) {
            HttpFilter.Decision decision = filter.onRequest(request, source);
            if (!decision.continues()) {
                return decision.answer();
            }
        }
        return null;
    }

    void onResponseHead(HttpRequest request, HttpResponse response) {
        for (HttpFilter filter : filters) {
            filter.onResponseHead(request, response);
        }
    }
}
