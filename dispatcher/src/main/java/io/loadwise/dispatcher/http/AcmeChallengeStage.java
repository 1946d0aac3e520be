package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acme.AcmeChallenges;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * ACME's http-01 check on every HTTP listener, ahead of its routes: a {@code GET} of
 * {@code /.well-known/acme-challenge/<token>} for a token one of the dispatcher's orders has pending is answered with
 * its key authorization (RFC 8555 §8.3), whatever the routes say (a redirect to HTTPS included: the CA must reach the
 * token over plain HTTP). Everything else, other tokens and other paths under the prefix included, goes to the routes
 * unchanged. With no order pending it costs a volatile read.
 */
final class AcmeChallengeStage implements RouteStage {

    static final String ROUTE_NAME = "acme-challenge";

    private final RouteStage routes;

    private AcmeChallengeStage(RouteStage routes) {
        this.routes = routes;
    }

    /** {@code routes} with the challenge answered first; once, however often the routes are swapped. */
    static RouteStage before(RouteStage routes) {
        return routes instanceof AcmeChallengeStage ? routes : new AcmeChallengeStage(routes);
    }

    @Override
    public Route route(HttpRequest request, RequestSource source) {
        String answer = AcmeChallenges.httpAnswer(request.uri());
        if (answer == null || !(HttpMethod.GET.equals(request.method()) || HttpMethod.HEAD.equals(request.method()))) {
            return routes.route(request, source);
        }
        return new Route(null, new HttpFilters(List.of((r, s) -> HttpFilter.Decision.respond(response(answer)))), null,
                ROUTE_NAME);
    }

    private static FullHttpResponse response(String keyAuthorization) {
        byte[] body = keyAuthorization.getBytes(StandardCharsets.US_ASCII);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream");
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }
}
