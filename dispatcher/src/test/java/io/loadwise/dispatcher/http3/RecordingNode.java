package io.loadwise.dispatcher.http3;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP/1.1 node that keeps every byte it reads (all connections, in arrival order) and answers each request
 * with {@code <method> <uri>\n<body>}, so a test can check what reached the node byte for byte. A request for
 * {@code /slow/<ms>} is answered that many milliseconds later (a request in flight for a while).
 */
final class RecordingNode implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final StringBuffer bytes = new StringBuffer();
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();

    RecordingNode() {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf buf = (ByteBuf) msg;
                                bytes.append(buf.toString(StandardCharsets.ISO_8859_1));
                                ctx.fireChannelRead(msg);
                            }
                        }, new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Answer());
                    }
                }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    }

    String address() {
        InetSocketAddress a = (InetSocketAddress) server.localAddress();
        return "127.0.0.1:" + a.getPort();
    }

    /** Everything read so far, as ISO-8859-1 text. */
    String received() {
        return bytes.toString();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            requests.incrementAndGet();
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            byte[] body = (request.method() + " " + request.uri() + "\n"
                    + request.content().toString(StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers().set("content-length", body.length).set("content-type", "text/plain")
                    .set("alt-svc", "h2=\":1\"").set("connection", "keep-alive");
            String uri = request.uri();
            long delayMs = uri.startsWith("/slow/") ? Long.parseLong(uri.substring("/slow/".length())) : 0;
            ctx.executor().schedule(() -> {
                inFlight.decrementAndGet();
                ctx.writeAndFlush(response);
            }, delayMs, java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }
}
