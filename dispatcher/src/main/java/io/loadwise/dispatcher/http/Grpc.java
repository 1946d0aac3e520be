package io.loadwise.dispatcher.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What the proxy knows of gRPC (docs/grpc.md): which requests are gRPC calls, the answers it makes itself for them
 * (HTTP 200 with {@code grpc-status} and {@code grpc-message} in one HEADERS frame, gRPC's Trailers-Only form, since a
 * gRPC client reads the status there and not in the HTTP status), and the client's {@code grpc-timeout}.
 */
final class Grpc {

    static final int DEADLINE_EXCEEDED = 4;
    static final int UNAVAILABLE = 14;
    static final int INTERNAL = 13;
    static final String STATUS = "grpc-status";
    static final String MESSAGE = "grpc-message";
    static final String TIMEOUT = "grpc-timeout";

    private Grpc() {
    }

    /** Whether a request with {@code headers} is a gRPC call: {@code content-type: application/grpc[+codec]}. */
    static boolean is(HttpHeaders headers) {
        String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
        if (type == null || !type.regionMatches(true, 0, "application/grpc", 0, 16)) {
            return false;
        }
        return type.length() == 16 || type.charAt(16) == '+' || type.charAt(16) == ';'; // not grpc-web
    }

    /**
     * The gRPC status of an answer the proxy makes with HTTP {@code code}: {@code DEADLINE_EXCEEDED} for its own
     * timeouts (504, 408), {@code UNAVAILABLE} when no node could take or finish the call (502, 503), else the
     * mapping of gRPC's HTTP-to-gRPC table (doc/http-grpc-status-mapping.md).
     */
    static int statusFor(int code) {
        return switch (code) {
            case 408, 504 -> DEADLINE_EXCEEDED;
            case 502, 503, 429 -> UNAVAILABLE;
            case 400, 413, 414, 431 -> INTERNAL;
            case 401 -> 16; // UNAUTHENTICATED
            case 403 -> 7; // PERMISSION_DENIED
            case 404 -> 12; // UNIMPLEMENTED
            default -> 2; // UNKNOWN
        };
    }

    /** The Trailers-Only answer to a gRPC call the proxy ends with HTTP {@code status} for {@code reason}. */
    static FullHttpResponse answer(HttpResponseStatus status, String reason) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.EMPTY_BUFFER);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/grpc")
                .setInt(STATUS, statusFor(status.code()))
                .set(MESSAGE, percentEncoded(status.code() + " " + reason))
                .setInt(HttpHeaderNames.CONTENT_LENGTH, 0); // an HTTP/1.1 client reads no body; HTTP/2 ends with it
        return response;
    }

    /** gRPC's percent-encoding of {@code grpc-message}: UTF-8, printable ASCII but {@code %} kept as is. */
    static String percentEncoded(String message) {
        StringBuilder out = new StringBuilder(message.length());
        for (byte b : message.getBytes(StandardCharsets.UTF_8)) {
            if (b >= 0x20 && b < 0x7f && b != '%') {
                out.append((char) b);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** The deadline a request with {@code headers} sets itself, in nanoseconds: a gRPC call's timeout; -1: none. */
    static long deadlineOf(HttpHeaders headers) {
        return is(headers) ? timeoutNanos(headers) : -1;
    }

    /**
     * The client's {@code grpc-timeout} in nanoseconds, or -1 when it has none or one that is not gRPC's syntax
     * (1 to 8 ASCII digits and a unit of H, M, S, m, u or n): such a value is ignored, as Envoy ignores it, and the
     * cluster's timeouts apply; the node, the gRPC server, reads the same header and decides for itself.
     */
    static long timeoutNanos(HttpHeaders headers) {
        String value = headers.get(TIMEOUT);
        if (value == null || value.length() < 2 || value.length() > 9) {
            return -1;
        }
        long amount = 0;
        for (int i = 0; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            amount = amount * 10 + (c - '0');
        }
        TimeUnit unit = switch (value.charAt(value.length() - 1)) {
            case 'H' -> TimeUnit.HOURS;
            case 'M' -> TimeUnit.MINUTES;
            case 'S' -> TimeUnit.SECONDS;
            case 'm' -> TimeUnit.MILLISECONDS;
            case 'u' -> TimeUnit.MICROSECONDS;
            case 'n' -> TimeUnit.NANOSECONDS;
            default -> null;
        };
        return unit == null ? -1 : unit.toNanos(amount);
    }
}
