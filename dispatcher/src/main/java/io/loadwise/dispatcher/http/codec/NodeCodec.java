package io.loadwise.dispatcher.http.codec;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The node side's HTTP/1.1 codec: the strict {@link ResponseDecoder} and Netty's request encoder. A node
 * connection carries one request at a time, so the decoder is told directly whether the request was a
 * HEAD, and can say whether bytes are left over after a response: a node that sends more than one
 * response per request must not have the extra bytes handed to the next request on the connection.
 *
 * <p>It also counts the node's bytes (read: the node's bytes out, written after encoding: its bytes in), so
 * that no separate meter handler sits on the hot path. Node TLS, when configured, sits before it in the
 * pipeline, so these are the clear-text bytes, as the node's meter always counted them.
 */
public final class NodeCodec extends CombinedChannelDuplexHandler<ResponseDecoder, HttpRequestEncoder> {

    private static final byte[] SPACE_HTTP_1_1_CRLF = " HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

    private final TrafficCounters nodeCounts;

    public NodeCodec(int maxHeadBytes) {
        this(maxHeadBytes, null);
    }

    /** @param nodeCounts the node's counters the bytes go to; {@code null}: not counted here */
    public NodeCodec(int maxHeadBytes, TrafficCounters nodeCounts) {
        this.nodeCounts = nodeCounts;
        init(new ResponseDecoder(maxHeadBytes), new CountingRequestEncoder());
    }

    /** The counters this codec adds the node's bytes to; {@code null} if it does not count them. */
    public TrafficCounters nodeCounts() {
        return nodeCounts;
    }

    /** The next response answers a HEAD request (or not). */
    public void expectResponseTo(boolean head) {
        inboundHandler().expectResponseTo(head);
    }

    /** Whether the decoder holds bytes it has not turned into messages yet. */
    public boolean hasLeftoverBytes() {
        return inboundHandler().leftover() > 0;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (nodeCounts != null && msg instanceof ByteBuf bytes) {
            nodeCounts.bytesOut(bytes.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    private final class CountingRequestEncoder extends HttpRequestEncoder {

        /**
         * An origin-form target read by the strict decoder is written as the client's bytes (Netty writes
         * a String target char by char as UTF-8); any other target, or version, goes Netty's way.
         */
        @Override
        protected void encodeInitialLine(ByteBuf buf, HttpRequest request) throws Exception {
            byte[] target = request instanceof ProxiedRequest proxied ? proxied.targetAsReceived() : null;
            if (target == null || target.length == 0 || target[0] != '/'
                    || request.protocolVersion() != HttpVersion.HTTP_1_1) {
                super.encodeInitialLine(buf, request);
                return;
            }
            ByteBufUtil.copy(request.method().asciiName(), buf);
            buf.writeByte(' ');
            buf.writeBytes(target);
            buf.writeBytes(SPACE_HTTP_1_1_CRLF);
        }

        /** Fields the proxy kept go out as the peer sent them ({@link FieldLines}). */
        @Override
        protected void encodeHeaders(HttpHeaders headers, ByteBuf buf) {
            FieldLines.encode(headers, buf);
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
            int first = out.size();
            super.encode(ctx, msg, out);
            if (nodeCounts != null) {
                nodeCounts.bytesIn(ClientCodec.encodedBytes(out, first));
            }
        }
    }
}
