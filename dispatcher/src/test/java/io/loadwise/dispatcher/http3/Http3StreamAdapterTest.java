package io.loadwise.dispatcher.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/3 stream adapter on an embedded channel (no QUIC needed): what the exchange reads of an h3 request, and
 * the frames its answer becomes. A malformed request never reaches the exchange, and the stream is closed.
 */
class Http3StreamAdapterTest {

    private final EmbeddedChannel channel = new EmbeddedChannel(
            new Http3StreamAdapter("listener test", new TrafficCounters(), new QuicStats()));

    private static Http3Headers head(String method, String path) {
        return new DefaultHttp3Headers(false).method(method).scheme("https").authority("shop.example").path(path);
    }

    private void fin() {
        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
    }

    @Test
    void aHeadEndedByTheFinIsARequestWithoutBody() {
        channel.writeInbound(new DefaultHttp3HeadersFrame(head("GET", "/a?b=c").add("accept", "text/plain")
                .add("cookie", "x=1").add("cookie", "y=2")));
        assertNull(channel.readInbound(), "held until the stream says whether a body follows");
        fin();
        ProxiedRequest request = channel.readInbound();
        assertEquals("/a?b=c", request.uri());
        assertEquals("shop.example", request.headers().get("host"));
        assertEquals("x=1; y=2", request.headers().get("cookie"));
        assertEquals(0, request.bodyLength());
        assertInstanceOf(LastHttpContent.class, channel.readInbound());
        assertTrue(channel.isOpen());
    }

    @Test
    void aBodyWithContentLengthPassesWhole() {
        channel.writeInbound(new DefaultHttp3HeadersFrame(head("POST", "/up").add("content-length", "5")));
        channel.writeInbound(new DefaultHttp3DataFrame(Unpooled.copiedBuffer("hel", StandardCharsets.US_ASCII)));
        channel.writeInbound(new DefaultHttp3DataFrame(Unpooled.copiedBuffer("lo", StandardCharsets.US_ASCII)));
        fin();
        ProxiedRequest request = channel.readInbound();
        assertEquals(5, request.bodyLength());
        HttpContent first = channel.readInbound();
        HttpContent second = channel.readInbound();
        assertEquals("hello", first.content().toString(StandardCharsets.US_ASCII)
                + second.content().toString(StandardCharsets.US_ASCII));
        first.release();
        second.release();
        assertInstanceOf(LastHttpContent.class, channel.readInbound());
    }

    @Test
    void trailersOfAChunkedBodyComeWithTheLastContent() {
        channel.writeInbound(new DefaultHttp3HeadersFrame(head("POST", "/t")));
        channel.writeInbound(new DefaultHttp3DataFrame(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII)));
        channel.writeInbound(new DefaultHttp3HeadersFrame(new DefaultHttp3Headers().add("checksum", "abc")));
        ProxiedRequest request = channel.readInbound();
        assertTrue(request.chunked());
        ((HttpContent) channel.readInbound()).release();
        assertNull(channel.readInbound(), "trailers wait for the FIN");
        fin();
        LastHttpContent last = channel.readInbound();
        assertEquals("abc", last.trailingHeaders().get("checksum"));
    }

    @Test
    void malformedHeadsNeverReachTheExchange() {
        for (Http3Headers bad : new Http3Headers[] {
            head("GET", "/").add("connection", "close"),
            head("GET", "/").add("Upper", "x"),
            head("GET", "/").add("x-bad", "a\r\nb"),
            head("GET", "http://elsewhere/"),
            new DefaultHttp3Headers().method("GET").scheme("https").authority("a"),
            head("GET", "/").add("host", "other.example"),
            head("POST", "/").add("content-length", "1").add("content-length", "2")}) {
            EmbeddedChannel stream = new EmbeddedChannel(
                    new Http3StreamAdapter("listener test", new TrafficCounters(), new QuicStats()));
            stream.writeInbound(new DefaultHttp3HeadersFrame(bad));
            stream.writeInbound(new DefaultHttp3DataFrame(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII)));
            stream.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
            assertFalse(stream.readInbound() instanceof ProxiedRequest, bad.toString());
            Object answer = stream.readOutbound();
            if (answer != null) { // 400 for a Host other than :authority; the others are reset
                assertEquals("400", ((Http3HeadersFrame) answer).headers().status().toString(), bad.toString());
                ((Http3DataFrame) stream.readOutbound()).release();
            } else {
                assertFalse(stream.isOpen(), "reset: " + bad);
            }
        }
    }

    @Test
    void dataBeyondContentLengthFailsTheRequest() {
        channel.writeInbound(new DefaultHttp3HeadersFrame(head("POST", "/up").add("content-length", "2")));
        channel.writeInbound(new DefaultHttp3DataFrame(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII)));
        ProxiedRequest request = channel.readInbound();
        assertEquals(2, request.bodyLength());
        LastHttpContent failed = channel.readInbound();
        assertTrue(failed.decoderResult().isFailure());
        assertFalse(channel.isOpen());
    }

    @Test
    void theAnswerBecomesHeadersAndDataWithoutConnectionFields() {
        DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer("hi", StandardCharsets.US_ASCII));
        response.headers().set("Content-Type", "text/plain").set("Connection", "keep-alive, x-hop")
                .set("X-Hop", "1").set("Keep-Alive", "timeout=5").set("Transfer-Encoding", "chunked");
        channel.writeOutbound(response);
        Http3HeadersFrame headers = channel.readOutbound();
        assertEquals("200", headers.headers().status().toString());
        assertEquals("text/plain", headers.headers().get("content-type").toString());
        for (String gone : new String[] {"connection", "x-hop", "keep-alive", "transfer-encoding"}) {
            assertNull(headers.headers().get(gone), gone);
        }
        Http3DataFrame data = channel.readOutbound();
        assertEquals("hi", data.content().toString(StandardCharsets.US_ASCII));
        data.release();
    }

    @Test
    void responseTrailersBecomeATrailingHeadersFrame() {
        channel.writeOutbound(new io.netty.handler.codec.http.DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.OK));
        channel.writeOutbound(new DefaultHttpContent(Unpooled.copiedBuffer("ab", StandardCharsets.US_ASCII)));
        LastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
        last.trailingHeaders().set("Grpc-Status", "0");
        channel.writeOutbound(last);
        assertEquals("200", ((Http3HeadersFrame) channel.readOutbound()).headers().status().toString());
        Http3DataFrame data = channel.readOutbound();
        assertEquals("ab", data.content().toString(StandardCharsets.US_ASCII));
        data.release();
        Http3HeadersFrame trailers = channel.readOutbound();
        assertEquals("0", trailers.headers().get("grpc-status").toString());
    }
}
