package io.loadwise.dispatcher.tls;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP/1.1 node on a loopback port (optionally over TLS). It answers every request with a text
 * body: the method, the URI, then each header as {@code name: value}, lower-cased; {@code /size/N}
 * answers N bytes of {@code x} instead, and a request body is echoed after the headers. It keeps what it
 * received, so a test can check exactly what reached the node.
 */
public final class HeaderEchoNode implements AutoCloseable {

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    public final ConcurrentLinkedQueue<FullHttpRequest> received = new ConcurrentLinkedQueue<>();
    /** Connections accepted (a TLS one counts whether or not its handshake succeeds). */
    public final java.util.concurrent.atomic.AtomicInteger accepts = new java.util.concurrent.atomic.AtomicInteger();

    public HeaderEchoNode() {
        this(null);
    }

    public HeaderEchoNode(SslContext tls) {
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepts.incrementAndGet();
                        if (tls != null) {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Echo());
                    }
                }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    }

    public String address() {
        return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        FullHttpRequest request;
        while ((request = received.poll()) != null) {
            request.release();
        }
    }

    private final class Echo extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            received.add(request.retainedDuplicate());
            byte[] body;
            if (request.uri().startsWith("/size/")) {
                body = "x".repeat(Integer.parseInt(request.uri().substring(6))).getBytes(StandardCharsets.US_ASCII);
            } else {
                StringBuilder text = new StringBuilder(request.method() + " " + request.uri() + "\n");
                for (Map.Entry<String, String> header : request.headers()) {
                    text.append(header.getKey().toLowerCase()).append(": ").append(header.getValue()).append('\n');
                }
                text.append('\n').append(request.content().toString(StandardCharsets.UTF_8));
                body = text.toString().getBytes(StandardCharsets.UTF_8);
            }
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.wrappedBuffer(body));
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            ctx.writeAndFlush(response);
        }
    }
}
