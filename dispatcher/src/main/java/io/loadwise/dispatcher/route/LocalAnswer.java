package io.loadwise.dispatcher.route;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/** Responses the route stage gives itself: errors of routing, limits, redirects and fixed answers. */
final class LocalAnswer {

    private LocalAnswer() {
    }

    /** A status with a one-line plain-text reason, as the dispatcher's other answers. */
    static FullHttpResponse error(HttpResponseStatus status, String reason) {
        return of(status, (status.code() + " " + status.reasonPhrase() + ": " + reason + "\n")
                .getBytes(StandardCharsets.UTF_8), "text/plain; charset=utf-8");
    }

    static FullHttpResponse of(HttpResponseStatus status, byte[] body, String contentType) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (body.length > 0 || status.code() >= 200) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        return response;
    }
}
