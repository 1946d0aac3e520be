package io.loadwise.dispatcher.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.http.codec.ClientCodec;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The drain of hot reload and the byte counting, both done by the client codec on its connection: after
 * {@link DrainingConnections#drain()} the response to the last request received closes the connection.
 */
class DrainingConnectionsTest {

    private final DrainingConnections connections = new DrainingConnections();
    private final TrafficCounters counters = new TrafficCounters();

    private EmbeddedChannel connection() {
        return new EmbeddedChannel(new ClientCodec(8192, counters, connections));
    }

    private static int requests(EmbeddedChannel channel, String text) {
        channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
        int heads = 0;
        Object msg;
        while ((msg = channel.readInbound()) != null) {
            if (msg instanceof HttpRequest) {
                heads++;
            }
            ReferenceCountUtil.release(msg);
        }
        return heads;
    }

    private static FullHttpResponse ok() {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer("hi", StandardCharsets.US_ASCII));
        response.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
        return response;
    }

    private static String written(EmbeddedChannel channel) {
        StringBuilder out = new StringBuilder();
        ByteBuf buf;
        while ((buf = channel.readOutbound()) != null) {
            out.append(buf.toString(StandardCharsets.ISO_8859_1));
            buf.release();
        }
        return out.toString();
    }

    @Test
    void anIdleConnectionClosesAfterItsNextResponse() {
        EmbeddedChannel channel = connection();
        assertEquals(1, connections.openConnections());
        connections.drain();
        channel.runPendingTasks();
        assertEquals(1, requests(channel, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        channel.writeAndFlush(ok());
        String response = written(channel);
        assertTrue(response.toLowerCase().contains("connection: close"), response);
        assertFalse(channel.isOpen());
        assertEquals(0, connections.openConnections());
    }

    @Test
    void pipelinedRequestsAreAllAnsweredAndOnlyTheLastResponseCloses() {
        EmbeddedChannel channel = connection();
        assertEquals(2, requests(channel, "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n"));
        connections.drain();
        channel.runPendingTasks();
        channel.writeAndFlush(ok());
        String first = written(channel);
        assertFalse(first.toLowerCase().contains("connection: close"), first);
        assertTrue(channel.isOpen());
        channel.writeAndFlush(ok());
        assertTrue(written(channel).toLowerCase().contains("connection: close"));
        assertFalse(channel.isOpen());
    }

    @Test
    void interimResponsesNeitherCloseNorCompleteTheRequest() {
        EmbeddedChannel channel = connection();
        connections.drain();
        channel.runPendingTasks();
        assertEquals(1, requests(channel, "PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n"));
        channel.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        assertTrue(channel.isOpen());
        assertFalse(written(channel).toLowerCase().contains("connection: close"));
        channel.writeAndFlush(ok());
        assertTrue(written(channel).toLowerCase().contains("connection: close"));
        assertFalse(channel.isOpen());
    }

    @Test
    void anUpgradedConnectionLeavesTheDrainAndAClosedOneIsForgotten() {
        EmbeddedChannel upgraded = connection();
        EmbeddedChannel closed = connection();
        assertEquals(2, connections.openConnections());
        assertEquals(1, requests(upgraded, "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"));
        DefaultHttpResponse switching = new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.SWITCHING_PROTOCOLS);
        switching.headers().set(HttpHeaderNames.CONNECTION, "Upgrade").set(HttpHeaderNames.UPGRADE, "echo");
        upgraded.write(switching);
        upgraded.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        written(upgraded);
        closed.close();
        assertEquals(0, connections.openConnections());
        connections.drain();
        upgraded.runPendingTasks();
        assertTrue(upgraded.isOpen());
    }

    @Test
    void theCodecCountsTheBytesOnTheWire() {
        EmbeddedChannel channel = connection();
        String request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        requests(channel, request);
        channel.writeAndFlush(ok());
        String response = written(channel);
        assertEquals(request.length(), counters.read().bytesIn());
        assertEquals(response.length(), counters.read().bytesOut());
    }
}
