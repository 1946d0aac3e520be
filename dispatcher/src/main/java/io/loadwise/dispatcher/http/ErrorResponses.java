package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.Outcome.Refusal;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.nio.charset.StandardCharsets;

/** Responses the dispatcher generates itself: a status and a one-line plain-text reason. */
final class ErrorResponses {

    /** What {@code Allow} lists when a CONNECT is refused: the methods this proxy forwards. */
    static final String ALLOWED_METHODS = "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE";

    private ErrorResponses() {
    }

    /** With {@code Retry-After: 1} when {@code full}: the cluster is full, not broken, and worth another try soon. */
    static FullHttpResponse of(HttpResponseStatus status, String reason, boolean close, boolean full) {
        FullHttpResponse response = of(status, reason, close);
        if (full) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, "1");
        }
        return response;
    }

    /**
     * The answer to {@code request} (may be {@code null}): a gRPC call gets gRPC's Trailers-Only form ({@link Grpc}),
     * any other request {@link #of(HttpResponseStatus, String, boolean, boolean)}.
     */
    static FullHttpResponse of(HttpRequest request, HttpResponseStatus status, String reason, boolean close,
            boolean full) {
        if (request == null || !Grpc.is(request.headers())) {
            return of(status, reason, close, full);
        }
        FullHttpResponse response = Grpc.answer(status, reason);
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return response;
    }

    /** What the client is answered when node acquisition found no node. */
    static HttpResponseStatus statusFor(Refusal refusal) {
        return switch (refusal) {
            case NO_ROUTE -> HttpResponseStatus.NOT_FOUND;
            case UNREACHABLE -> HttpResponseStatus.BAD_GATEWAY;
            default -> HttpResponseStatus.SERVICE_UNAVAILABLE;
        };
    }

    static FullHttpResponse of(HttpResponseStatus status, String reason, boolean close) {
        byte[] body = (status.code() + " " + status.reasonPhrase() + ": " + reason + "\n")
                .getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(body));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        RequestIds.answer(null, response); // a fresh id; the caller puts the request's instead when there is one
        if (close) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return response;
    }

    /** The status for a request the codec could not decode: 414, 431 or 400. */
    static HttpResponseStatus statusForDecoderFailure(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        return HttpResponseStatus.BAD_REQUEST;
    }
}
