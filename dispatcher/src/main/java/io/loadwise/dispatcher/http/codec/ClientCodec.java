package io.loadwise.dispatcher.http.codec;

import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;

/**
 * The client side's HTTP/1.1 codec: the strict {@link RequestDecoder} and a response encoder that knows
 * which responses answer a HEAD (their body is never written, whatever their headers announce).
 *
 * <p>It also does, in the same handler, two things that would otherwise each be a pipeline handler every
 * message crosses (on the hot path each hop costs more than the work it does):
 * <ul>
 *   <li>counting the bytes on the wire ({@code wireCounts}: bytes read before decoding, bytes written after
 *       encoding), when nothing sits between it and the socket (no TLS);</li>
 *   <li>the drain of hot reload ({@link Drains}): once told to drain, the response to the last request the
 *       connection received carries {@code Connection: close} and the connection closes after it. Requests
 *       received and not answered yet are the methods waiting for their final response.</li>
 * </ul>
 * State is confined to the channel's event loop.
 */
public final class ClientCodec extends CombinedChannelDuplexHandler<RequestDecoder, HttpResponseEncoder> {

    /** The open connections of a listener that can be told to drain; see {@link #startDraining()}. */
    public interface Drains {
        /** The codec joined a connection's pipeline; returns whether the listener drains already. */
        boolean opened(ClientCodec codec);

        /** The connection closed, left HTTP/1.1 or became a tunnel: a drain no longer concerns it. */
        void closed(ClientCodec codec);
    }

    private final Queue<HttpMethod> methods = new ArrayDeque<>(4);
    /** Bytes on the wire of this connection; {@code null}: counted by a meter closer to the socket. */
    private final TrafficCounters wireCounts;
    /** {@code null}: the connection is not drained by a reload (tests, HTTP/2 streams). */
    private final Drains drains;
    private Channel channel;
    private boolean draining;
    /** The response being written is an interim one (1xx): its end completes no request. */
    private boolean informational;
    private boolean closeAfterResponse;

    public ClientCodec(int maxHeadBytes) {
        this(maxHeadBytes, null, null);
    }

    /**
     * @param wireCounts where the bytes read and written go; {@code null} when another handler counts them
     * @param drains the listener's connections, for hot reload; {@code null}: none
     */
    public ClientCodec(int maxHeadBytes, TrafficCounters wireCounts, Drains drains) {
        this.wireCounts = wireCounts;
        this.drains = drains;
        init(new RequestDecoder(maxHeadBytes, methods), new ResponseEncoder());
    }

    public RequestDecoder requestDecoder() {
        return inboundHandler();
    }

    /** The counters this codec adds the wire bytes to; {@code null} if it does not count them. */
    public TrafficCounters wireCounts() {
        return wireCounts;
    }

    /** Closes the connection after the response to the last request it received; on its event loop. */
    public void startDraining() {
        draining = true;
    }

    /** The channel this codec serves; {@code null} before it joined a pipeline. */
    public Channel channel() {
        return channel;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        channel = ctx.channel();
        if (drains != null && drains.opened(this)) {
            startDraining();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        if (drains != null) {
            drains.closed(this);
        }
        super.handlerRemoved(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (drains != null) {
            drains.closed(this);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (wireCounts != null && msg instanceof ByteBuf bytes) {
            wireCounts.bytesIn(bytes.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    /** Pairs each final response with the method of the request it answers, in order; counts and drains. */
    private final class ResponseEncoder extends HttpResponseEncoder {

        /** Fields the proxy kept go out as the peer sent them ({@link FieldLines}). */
        @Override
        protected void encodeHeaders(HttpHeaders headers, ByteBuf buf) {
            FieldLines.encode(headers, buf);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            if (msg instanceof HttpResponse response) {
                informational = response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
                if (response.status().code() == HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
                    if (drains != null) {
                        drains.closed(ClientCodec.this); // a tunnel runs until either side closes it
                    }
                } else if (!informational && draining && methods.size() <= 1) {
                    // methods not polled yet: this response's request and any received after it
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                    closeAfterResponse = true;
                }
            }
            if (closeAfterResponse && msg instanceof LastHttpContent && !informational) {
                ChannelPromise written = promise.isVoid() ? ctx.newPromise() : promise;
                super.write(ctx, msg, written);
                written.addListener(ChannelFutureListener.CLOSE);
                return;
            }
            super.write(ctx, msg, promise);
        }

        @Override
        protected void encode(ChannelHandlerContext ctx, Object msg, List<Object> out) throws Exception {
            int first = out.size();
            super.encode(ctx, msg, out);
            if (wireCounts != null) {
                wireCounts.bytesOut(encodedBytes(out, first));
            }
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpResponse msg) {
            if (msg.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                return super.isContentAlwaysEmpty(msg);
            }
            HttpMethod method = methods.poll();
            return HttpMethod.HEAD.equals(method) || super.isContentAlwaysEmpty(msg);
        }
    }

    /** The bytes of the buffers an encoder added to {@code out} from index {@code first} on. */
    static long encodedBytes(List<Object> out, int first) {
        long bytes = 0;
        for (int i = first, n = out.size(); i < n; i++) {
            if (out.get(i) instanceof ByteBuf buf) {
                bytes += buf.readableBytes();
            }
        }
        return bytes;
    }
}
