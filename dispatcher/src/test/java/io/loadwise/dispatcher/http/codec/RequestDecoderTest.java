package io.loadwise.dispatcher.http.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The strict request decoder on its own: what it reads, and the exact status of what it refuses. */
class RequestDecoderTest {

    private final ArrayDeque<HttpMethod> methods = new ArrayDeque<>();
    private final EmbeddedChannel channel = new EmbeddedChannel(new RequestDecoder(1024, methods));

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private void feed(String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
    }

    private List<Object> drain() {
        List<Object> out = new ArrayList<>();
        Object msg;
        while ((msg = channel.readInbound()) != null) {
            out.add(msg);
        }
        return out;
    }

    /** The status of the refusal the decoder emitted for {@code text}, or 0 when it accepted everything. */
    private int refusal(String text) {
        feed(text);
        int status = 0;
        for (Object msg : drain()) {
            if (msg instanceof HttpRequest r && r.decoderResult().isFailure()
                    || msg instanceof LastHttpContent c && c.decoderResult().isFailure()) {
                Throwable cause = ((io.netty.handler.codec.DecoderResultProvider) msg).decoderResult().cause();
                status = ((BadMessage) cause).status().code();
            }
            ReferenceCountUtil.release(msg);
        }
        return status;
    }

    static Stream<Arguments> refused() {
        String host = "Host: x\r\n";
        return Stream.of(
                Arguments.of("TE chunked, identity", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked, identity\r\n\r\n", 400),
                Arguments.of("two TE headers", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                Arguments.of("TE and CL", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400),
                Arguments.of("TE identity", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: identity\r\n\r\n", 400),
                Arguments.of("TE xchunked", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: xchunked\r\n\r\n", 400),
                Arguments.of("TE gzip, chunked", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501),
                Arguments.of("TE chunked, chunked", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked, chunked\r\n\r\n", 400),
                Arguments.of("TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                Arguments.of("space before colon", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding : chunked\r\n\r\n", 400),
                Arguments.of("CL differs", "POST / HTTP/1.1\r\n" + host + "Content-Length: 5\r\nContent-Length: 6\r\n\r\n", 400),
                Arguments.of("CL list differs", "POST / HTTP/1.1\r\n" + host + "Content-Length: 5, 6\r\n\r\n", 400),
                Arguments.of("CL sign", "POST / HTTP/1.1\r\n" + host + "Content-Length: +5\r\n\r\n", 400),
                Arguments.of("CL negative", "POST / HTTP/1.1\r\n" + host + "Content-Length: -1\r\n\r\n", 400),
                Arguments.of("CL hex", "POST / HTTP/1.1\r\n" + host + "Content-Length: 0x5\r\n\r\n", 400),
                Arguments.of("CL overflow", "POST / HTTP/1.1\r\n" + host + "Content-Length: 99999999999999999999\r\n\r\n", 400),
                Arguments.of("CL empty", "POST / HTTP/1.1\r\n" + host + "Content-Length:\r\n\r\n", 400),
                Arguments.of("no Host", "GET / HTTP/1.1\r\n\r\n", 400),
                Arguments.of("two Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                Arguments.of("Host with space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
                Arguments.of("Host with comma", "GET / HTTP/1.1\r\nHost: a,b\r\n\r\n", 400),
                Arguments.of("CTL in target", "GET /a\u0001b HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("DEL in target", "GET /a\u007fb HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("non-ASCII in target", "GET /caf\u00e9 HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("HTTP/1.2", "GET / HTTP/1.2\r\n" + host + "\r\n", 505),
                Arguments.of("HTTP/2.0", "GET / HTTP/2.0\r\n" + host + "\r\n", 505),
                Arguments.of("HTTP/0.9", "GET / HTTP/0.9\r\n" + host + "\r\n", 505),
                Arguments.of("lower-case version", "GET / http/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("version suffix", "GET / HTTP/1.1x\r\n" + host + "\r\n", 400),
                Arguments.of("no version", "GET /\r\n" + host + "\r\n", 400),
                Arguments.of("CONNECT", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405),
                Arguments.of("obs-fold", "GET / HTTP/1.1\r\n" + host + "X-A: 1\r\n  folded\r\n\r\n", 400),
                Arguments.of("bad name", "GET / HTTP/1.1\r\n" + host + "X(y): 1\r\n\r\n", 400),
                Arguments.of("NUL in value", "GET / HTTP/1.1\r\n" + host + "X-A: a\u0000b\r\n\r\n", 400),
                Arguments.of("bare CR in value", "GET / HTTP/1.1\r\n" + host + "X-A: a\rb\r\n\r\n", 400),
                Arguments.of("no colon", "GET / HTTP/1.1\r\n" + host + "X-A\r\n\r\n", 400),
                Arguments.of("request line too long", "GET /" + "a".repeat(1100) + " HTTP/1.1\r\n" + host + "\r\n", 414),
                Arguments.of("head too large", "GET / HTTP/1.1\r\n" + host + "X-A: " + "a".repeat(1100) + "\r\n\r\n", 431),
                Arguments.of("too many lines", "GET / HTTP/1.1\r\n" + host + "X: 1\r\n".repeat(101) + "\r\n", 431),
                Arguments.of("chunk size overflow", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n"
                        + "100000005\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("huge chunk size", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n"
                        + "ffffffffffffffffff\r\n", 400),
                Arguments.of("non-hex chunk size", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n"
                        + "5g\r\nhello\r\n", 400),
                Arguments.of("chunk longer than size", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n"
                        + "3\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("bare CR in chunk extension", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n"
                        + "5;a=b\rc\r\nhello\r\n0\r\n\r\n", 400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWithTheExactStatus(String name, String request, int status) {
        assertEquals(status, refusal(request));
    }

    @Test
    void afterARefusalNothingElseIsRead() {
        feed("GET / HTTP/1.1\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n");
        List<Object> out = drain();
        assertEquals(1, out.size(), "only the refusal: " + out);
        assertTrue(((HttpRequest) out.get(0)).decoderResult().isFailure());
        ReferenceCountUtil.release(out.get(0));
    }

    @Test
    void repeatedEqualContentLengthsBecomeOne() {
        feed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\nContent-Length: 5\r\n\r\nhello");
        List<Object> out = drain();
        ProxiedRequest request = (ProxiedRequest) out.get(0);
        assertEquals(5, request.bodyLength());
        assertEquals(List.of("5"), request.headers().getAll("content-length"));
        LastHttpContent body = (LastHttpContent) out.get(1);
        assertEquals("hello", body.content().toString(StandardCharsets.US_ASCII));
        out.forEach(ReferenceCountUtil::release);
    }

    /** A Content-Length body has no trailer section: its end shares one empty field map, none is made per message. */
    @Test
    void aContentLengthBodyEndsWithoutATrailerMap() {
        feed("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhel");
        feed("lo");
        List<Object> out = drain();
        LastHttpContent last = (LastHttpContent) out.get(out.size() - 1);
        assertEquals("lo", last.content().toString(StandardCharsets.US_ASCII));
        assertTrue(last.trailingHeaders().isEmpty());
        assertSame(EmptyHttpHeaders.INSTANCE, last.trailingHeaders());
        out.forEach(ReferenceCountUtil::release);
    }

    @Test
    void chunkedBodyIsDeChunkedWithExtensionsDroppedAndTrailersKept() {
        feed("POST /up HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n000006\r\n world\r\n0\r\nX-Sum: 42\r\n\r\n");
        List<Object> out = drain();
        ProxiedRequest request = (ProxiedRequest) out.get(0);
        assertTrue(request.chunked());
        assertEquals("chunked", request.headers().get("transfer-encoding"));
        StringBuilder body = new StringBuilder();
        for (Object msg : out.subList(1, out.size())) {
            body.append(((HttpContent) msg).content().toString(StandardCharsets.US_ASCII));
        }
        assertEquals("hello world", body.toString());
        LastHttpContent last = (LastHttpContent) out.get(out.size() - 1);
        assertEquals("42", last.trailingHeaders().get("x-sum"));
        out.forEach(ReferenceCountUtil::release);
    }

    @Test
    void aHeadSentByteByByteIsReadOnceWhole() {
        String request = "GET /slow HTTP/1.1\r\nHost: x\r\nX-Long: " + "v".repeat(500) + "\r\n\r\n";
        for (int i = 0; i < request.length(); i++) {
            feed(request.substring(i, i + 1));
            if (i < request.length() - 1) {
                assertNull(channel.readInbound(), "nothing before the head ends");
                assertTrue(((RequestDecoder) channel.pipeline().first()).headStartNanos() != 0);
            }
        }
        HttpRequest head = channel.readInbound();
        assertEquals("/slow", head.uri());
        assertInstanceOf(LastHttpContent.class, channel.readInbound());
        assertEquals(0, ((RequestDecoder) channel.pipeline().first()).headStartNanos(), "no head in progress");
    }

    @Test
    void bareLineFeedsAreAcceptedAndPipelinedRequestsComeInOrder() {
        feed("GET /1 HTTP/1.1\nHost: x\n\nHEAD /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.0\r\n\r\n");
        List<Object> out = drain();
        assertEquals(6, out.size());
        assertEquals("/1", ((HttpRequest) out.get(0)).uri());
        assertEquals("/2", ((HttpRequest) out.get(2)).uri());
        assertEquals("/3", ((HttpRequest) out.get(4)).uri());
        assertEquals(List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.GET), new ArrayList<>(methods));
    }

    @Test
    void bytesAfterAnUpgradeRequestWaitForTheSwitch() {
        feed("GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\u0081\u0005hello");
        List<Object> out = drain();
        assertEquals(2, out.size(), "head and empty body only");
        assertTrue(((ProxiedRequest) out.get(0)).upgrade());
        channel.pipeline().removeFirst();
        ByteBuf passedOn = channel.readInbound();
        assertEquals(7, passedOn.readableBytes(), "the new protocol's bytes, untouched");
        passedOn.release();
    }

    @Test
    void anHttp10RequestNeedsNoHost() {
        feed("GET / HTTP/1.0\r\n\r\n");
        List<Object> out = drain();
        assertFalse(((HttpRequest) out.get(0)).decoderResult().isFailure());
        out.forEach(ReferenceCountUtil::release);
    }
}
