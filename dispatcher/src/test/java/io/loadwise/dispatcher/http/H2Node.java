package io.loadwise.dispatcher.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted HTTP/2 node in clear text (prior knowledge), Netty's frame codec: answers each stream when its
 * request ended, by path. {@code /}: 200 {@code ok}. {@code /trailers}: a body and trailers echoing the request's
 * {@code x-t} trailer. {@code /no-status}: a gRPC response whose trailers lack {@code grpc-status}.
 * {@code /reset}: RST_STREAM at once. {@code /huge-trailers}: trailers of {@code hugeBytes}. {@code /slow}: never answered. {@code /goaway}: a GOAWAY
 * naming this stream as the last, then 200 {@code ok}. Counts connections and the most streams open at
 * once on one connection.
 */
final class H2Node implements AutoCloseable {

    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger streams = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final int hugeBytes;

    /** @param maxStreams the SETTINGS_MAX_CONCURRENT_STREAMS it announces */
    H2Node(long maxStreams, int hugeBytes) throws InterruptedException {
        this.hugeBytes = hugeBytes;
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forServer()
                                .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(maxStreams))
                                .build());
                        ch.pipeline().addLast(new Http2MultiplexHandler(new ChannelInitializer<Channel>() {
                            @Override
                            protected void initChannel(Channel stream) {
                                stream.pipeline().addLast(new Answer());
                            }
                        }));
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    String address() {
        return "127.0.0.1:" + ((java.net.InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Answer extends ChannelInboundHandlerAdapter {
        private String path;
        private CharSequence trailer;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            streams.incrementAndGet();
            maxConcurrent.accumulateAndGet(open.incrementAndGet(), Math::max);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            open.decrementAndGet();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            boolean end = false;
            if (msg instanceof Http2HeadersFrame headers) {
                if (path == null) {
                    path = headers.headers().path().toString();
                    if (path.equals("/reset")) {
                        ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.INTERNAL_ERROR));
                        return;
                    }
                    if (path.equals("/goaway")) { // graceful: this stream is still answered, no new one is taken
                        ctx.channel().parent().writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR));
                    }
                } else {
                    trailer = headers.headers().get("x-t");
                }
                end = headers.isEndStream();
            } else if (msg instanceof Http2DataFrame data) {
                end = data.isEndStream();
            }
            ReferenceCountUtil.release(msg);
            if (end) {
                answer(ctx);
            }
        }

        private void answer(ChannelHandlerContext ctx) {
            Http2Headers head = new DefaultHttp2Headers().status("200");
            if (path.equals("/slow")) {
                return; // never answered
            }
            switch (path.startsWith("/no-status") ? "/no-status" : path) {
                case "/trailers" -> {
                    ctx.write(new DefaultHttp2HeadersFrame(head.set("content-type", "text/plain")));
                    ctx.write(new DefaultHttp2DataFrame(bytes("body\n")));
                    ctx.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers()
                            .set("x-echo-trailer", trailer == null ? "none" : trailer), true));
                }
                case "/no-status" -> {
                    ctx.write(new DefaultHttp2HeadersFrame(head.set("content-type", "application/grpc")));
                    ByteBuf message = Unpooled.buffer().writeByte(0).writeInt(2).writeBytes(bytes("hi"));
                    ctx.write(new DefaultHttp2DataFrame(message));
                    ctx.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().set("x-other", "1"),
                            true));
                }
                case "/huge-trailers" -> {
                    ctx.write(new DefaultHttp2HeadersFrame(head));
                    ctx.write(new DefaultHttp2DataFrame(bytes("body\n")));
                    Http2Headers trailers = new DefaultHttp2Headers();
                    for (int i = 0; i * 1000 < hugeBytes; i++) {
                        trailers.set("x-huge-" + i, "v".repeat(1000));
                    }
                    ctx.writeAndFlush(new DefaultHttp2HeadersFrame(trailers, true));
                }
                default -> {
                    ctx.write(new DefaultHttp2HeadersFrame(head));
                    ctx.writeAndFlush(new DefaultHttp2DataFrame(bytes("ok\n"), true));
                }
            }
        }
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }
}
