package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;
import org.junit.jupiter.api.Test;

/** {@link NodeStream} on an embedded channel: what it fixes in the converted stream, both ways, with no leak. */
class NodeStreamTest {

    @Test
    void anInformationalResponseBecomesAHeadAndAnEmptyEnd() {
        NodeStream stream = new NodeStream();
        EmbeddedChannel channel = new EmbeddedChannel(stream);
        FullHttpResponse cont = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE);
        cont.headers().set("x-http2-stream-id", "3");
        channel.writeInbound(cont);
        HttpResponse head = channel.readInbound();
        assertFalse(head instanceof LastHttpContent);
        assertEquals(100, head.status().code());
        assertNull(head.headers().get("x-http2-stream-id"));
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, channel.readInbound());
        assertEquals(0, cont.refCnt());
        assertFalse(stream.ended());
        assertFalse(channel.finish());
    }

    @Test
    void aTrailersOnlyResponseStaysWholeAndEndsTheStreamWithTheRequest() {
        NodeStream stream = new NodeStream();
        EmbeddedChannel channel = new EmbeddedChannel(stream);
        channel.writeOutbound(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/s/M"));
        channel.writeOutbound(new DefaultLastHttpContent(Unpooled.copiedBuffer(new byte[] {1, 2})));
        FullHttpResponse only = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        only.headers().set("grpc-status", "5").set("x-http2-stream-id", "3");
        channel.writeInbound(only);
        FullHttpResponse relayed = channel.readInbound();
        assertSame(only, relayed);
        assertNull(relayed.headers().get("x-http2-stream-id"));
        assertTrue(stream.ended(), "request and response both ended");
        relayed.release();
        channel.releaseOutbound();
        assertFalse(channel.finish());
    }

    @Test
    void aGrpcRequestGetsTeTrailersBackAndOtherRequestsDoNot() {
        EmbeddedChannel channel = new EmbeddedChannel(new NodeStream());
        HttpRequest grpc = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/s/M");
        grpc.headers().set("content-type", "application/grpc+proto");
        channel.writeOutbound(grpc);
        HttpRequest plain = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/x");
        plain.headers().set("content-type", "application/grpc-web");
        channel.writeOutbound(plain);
        HttpRequest first = channel.readOutbound();
        assertEquals("trailers", first.headers().get("te"));
        HttpRequest second = channel.readOutbound();
        assertNull(second.headers().get("te"), "grpc-web is not gRPC over HTTP/2");
        channel.releaseOutbound();
        assertFalse(channel.finish());
    }

    @Test
    void aNodesRefusedStreamIsToldApartAndTrailersLoseTheStreamId() {
        NodeStream stream = new NodeStream();
        EmbeddedChannel channel = new EmbeddedChannel(stream);
        channel.pipeline().fireUserEventTriggered(new DefaultHttp2ResetFrame(Http2Error.INTERNAL_ERROR));
        assertFalse(stream.refused(), "INTERNAL_ERROR: the node may have acted on it");
        channel.pipeline().fireUserEventTriggered(new DefaultHttp2ResetFrame(Http2Error.REFUSED_STREAM));
        assertTrue(stream.refused(), "REFUSED_STREAM: never processed");
        channel.writeInbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        LastHttpContent last = new DefaultLastHttpContent(Unpooled.copiedBuffer(new byte[] {1}));
        last.trailingHeaders().set("grpc-status", "0");
        channel.writeInbound(last);
        assertTrue(channel.readInbound() instanceof HttpResponse);
        LastHttpContent relayed = channel.readInbound();
        assertEquals("0", relayed.trailingHeaders().get("grpc-status"));
        relayed.release();
        assertFalse(channel.finish());
    }
}
