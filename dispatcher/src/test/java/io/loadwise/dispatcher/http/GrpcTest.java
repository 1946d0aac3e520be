package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Grpc}: which requests are calls, the strict {@code grpc-timeout} syntax, the proxy's own answers. */
class GrpcTest {

    private static HttpHeaders headers(String... pairs) {
        HttpHeaders h = DefaultHttpHeadersFactory.headersFactory().withValidation(false).newHeaders();
        for (int i = 0; i < pairs.length; i += 2) {
            h.add(pairs[i], pairs[i + 1]);
        }
        return h;
    }

    @Test
    void grpcCallsAreToldByTheirContentType() {
        assertTrue(Grpc.is(headers("content-type", "application/grpc")));
        assertTrue(Grpc.is(headers("content-type", "application/grpc+proto")));
        assertTrue(Grpc.is(headers("content-type", "Application/GRPC;charset=x")));
        assertFalse(Grpc.is(headers("content-type", "application/grpc-web")));
        assertFalse(Grpc.is(headers("content-type", "application/json")));
        assertFalse(Grpc.is(headers()));
    }

    @Test
    void grpcTimeoutIsParsedStrictly() {
        assertEquals(TimeUnit.MILLISECONDS.toNanos(200), Grpc.timeoutNanos(headers("grpc-timeout", "200m")));
        assertEquals(TimeUnit.HOURS.toNanos(2), Grpc.timeoutNanos(headers("grpc-timeout", "2H")));
        assertEquals(TimeUnit.MINUTES.toNanos(1), Grpc.timeoutNanos(headers("grpc-timeout", "1M")));
        assertEquals(3, Grpc.timeoutNanos(headers("grpc-timeout", "3n")));
        assertEquals(99_999_999_000L, Grpc.timeoutNanos(headers("grpc-timeout", "99999999u")));
        for (String bad : new String[] {"", "m", "1x", "-1S", "1.5S", "123456789S", " 1S", "1s", "1S "}) {
            assertEquals(-1, Grpc.timeoutNanos(headers("grpc-timeout", bad)), bad);
        }
        assertEquals(-1, Grpc.timeoutNanos(headers()));
        assertEquals(-1, Grpc.deadlineOf(headers("grpc-timeout", "1S")), "not a gRPC call");
        assertEquals(TimeUnit.SECONDS.toNanos(1),
                Grpc.deadlineOf(headers("grpc-timeout", "1S", "content-type", "application/grpc")));
    }

    @Test
    void theProxysAnswersAreTrailersOnlyWithAGrpcStatus() {
        FullHttpResponse unavailable = Grpc.answer(HttpResponseStatus.BAD_GATEWAY, "node n1 closed the connection");
        assertEquals(200, unavailable.status().code());
        assertEquals("14", unavailable.headers().get("grpc-status"));
        assertEquals("502 node n1 closed the connection", unavailable.headers().get("grpc-message"));
        assertEquals("application/grpc", unavailable.headers().get("content-type"));
        assertFalse(unavailable.content().isReadable());
        assertEquals(Grpc.DEADLINE_EXCEEDED, Grpc.statusFor(504));
        assertEquals(Grpc.DEADLINE_EXCEEDED, Grpc.statusFor(408));
        assertEquals(Grpc.UNAVAILABLE, Grpc.statusFor(503));
        assertEquals(12, Grpc.statusFor(404));
        assertEquals("caf%C3%A9 100%25", Grpc.percentEncoded("café 100%"));
    }
}
