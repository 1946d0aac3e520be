package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.http.HttpFilter;
import io.loadwise.dispatcher.http.HttpFilters;
import io.loadwise.dispatcher.http.RequestSource;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The filter chain of one route, in the order a request meets them: its rate limit (so a limited request costs
 * nothing more), its request header edits, its rewrite, and, for a redirect or fixed answer, the answer itself;
 * its response header edits apply to every response, local answers included.
 */
final class RouteFilters {

    private RouteFilters() {
    }

    static HttpFilters of(Route route, Map<String, ClientRateLimit> limits, LongSupplier clock) {
        RouteConfig config = route.config();
        List<HttpFilter> chain = new ArrayList<>(4);
        if (config.rateLimit() != null) {
            chain.add(new RateLimit(limits.get(config.rateLimit()), clock));
        }
        HeaderEdits requestEdits = HeaderEdits.of(config.requestHeaders());
        if (!requestEdits.isEmpty()) {
            chain.add((request, source) -> {
                requestEdits.apply(request.headers());
                return HttpFilter.Decision.CONTINUE;
            });
        }
        if (config.rewrite() != null) {
            chain.add(new Rewrite(config.rewrite(), route.prefixSegments()));
        }
        if (route.action() instanceof RouteAction.Redirect redirect) {
            chain.add(new Redirect(redirect, route.prefixSegments()));
        } else if (route.action() instanceof RouteAction.Respond respond) {
            chain.add((request, source) -> HttpFilter.Decision.respond(LocalAnswer.of(
                    HttpResponseStatus.valueOf(respond.status()), respond.body(), respond.contentType())));
        }
        HeaderEdits responseEdits = HeaderEdits.of(config.responseHeaders());
        if (!responseEdits.isEmpty()) {
            chain.add(new HttpFilter() {
                @Override
                public Decision onRequest(HttpRequest request, RequestSource source) {
                    return Decision.CONTINUE;
                }

                @Override
                public void onResponseHead(HttpRequest request, HttpResponse response) {
                    responseEdits.apply(response.headers());
                }
            });
        }
        return chain.isEmpty() ? HttpFilters.NONE : new HttpFilters(chain);
    }

    /** {@code rateLimit}: 429 with Retry-After over the client's rate; nothing further runs. */
    record RateLimit(ClientRateLimit limit, LongSupplier clock) implements HttpFilter {

        @Override
        public Decision onRequest(HttpRequest request, RequestSource source) {
            String key = limit.key().of(source.clientIp(request), headerValue(request), cookieValue(request));
            long waitNanos = limit.acquire(key, clock.getAsLong());
            if (waitNanos == 0) {
                return Decision.CONTINUE;
            }
            FullHttpResponse answer = LocalAnswer.error(HttpResponseStatus.TOO_MANY_REQUESTS,
                    "rate limit " + limit.name());
            answer.headers().set(HttpHeaderNames.RETRY_AFTER,
                    Math.max(1, (waitNanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1)));
            return Decision.respond(answer);
        }

        private CharSequence headerValue(HttpRequest request) {
            return limit.key().kind() == io.loadwise.dispatcher.config.RateLimitKey.Kind.HEADER
                    ? request.headers().get(limit.key().name()) : null;
        }

        private String cookieValue(HttpRequest request) {
            if (limit.key().kind() != io.loadwise.dispatcher.config.RateLimitKey.Kind.COOKIE) {
                return null;
            }
            for (String header : request.headers().getAll(HttpHeaderNames.COOKIE)) {
                for (Cookie cookie : ServerCookieDecoder.LAX.decode(header)) {
                    if (cookie.name().equals(limit.key().name())) {
                        return cookie.value();
                    }
                }
            }
            return null;
        }
    }

    /** {@code rewrite}: the path prefix the route matched and the Host, as the node sees them. */
    record Rewrite(RouteConfig.RewriteConfig rewrite, int prefixSegments) implements HttpFilter {

        @Override
        public Decision onRequest(HttpRequest request, RequestSource source) {
            RequestTarget target = RequestTarget.of(request);
            if (rewrite.pathPrefix() != null && target.problem() == null) {
                String path = PathRewrite.replacePrefix(target.normalised().forward(), prefixSegments,
                        rewrite.pathPrefix());
                request.setUri(target.query() == null ? path : path + "?" + target.query());
            } else if (rewrite.host() != null && !request.uri().startsWith("/")) {
                // an absolute-form target names the old host too: the node gets origin-form
                request.setUri(target.rawPath() + (target.query() == null ? "" : "?" + target.query()));
            }
            if (rewrite.host() != null) {
                request.headers().set(HttpHeaderNames.HOST, rewrite.host());
            }
            return Decision.CONTINUE;
        }
    }

    /** {@code redirect}: a Location from checked parts; 400 when the request's own parts cannot be used. */
    record Redirect(RouteAction.Redirect redirect, int prefixSegments) implements HttpFilter {

        @Override
        public Decision onRequest(HttpRequest request, RequestSource source) {
            RequestTarget target = RequestTarget.of(request);
            String location = target.problem() != null ? null : redirect.location().build(
                    source.secure() ? "https" : "http", target.authority(), target.normalised().forward(),
                    prefixSegments, target.query());
            if (location == null) {
                return Decision.respond(LocalAnswer.error(HttpResponseStatus.BAD_REQUEST,
                        "the request's host or path cannot be redirected"));
            }
            FullHttpResponse answer = LocalAnswer.of(HttpResponseStatus.valueOf(redirect.status()), new byte[0],
                    "text/plain; charset=utf-8");
            answer.headers().set(HttpHeaderNames.LOCATION, location);
            return Decision.respond(answer);
        }
    }
}
