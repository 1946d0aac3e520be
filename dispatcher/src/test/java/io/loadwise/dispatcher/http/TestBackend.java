package io.loadwise.dispatcher.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP node on a loopback port: answers {@code 200} with its name as body and in {@code X-Node},
 * after an optional delay, or never ({@link #hang}). Counts accepted connections and requests and keeps
 * the headers of every request it received.
 */
final class TestBackend implements AutoCloseable {

    private final String name;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final ChannelGroup children = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger accepts = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    final ConcurrentLinkedQueue<io.netty.handler.codec.http.HttpHeaders> received = new ConcurrentLinkedQueue<>();
    private final Channel server;
    volatile long delayMillis;
    volatile boolean hang;
    /** The status {@code /health} answers (the health checks' path); every other path answers 200. */
    volatile int healthStatus = 200;
    /** Extra headers on every response. */
    volatile Map<String, String> responseHeaders = Map.of();

    TestBackend(String name) {
        this.name = name;
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepts.incrementAndGet();
                        children.add(ch);
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new Responder());
                    }
                }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    }

    String address() {
        InetSocketAddress local = (InetSocketAddress) server.localAddress();
        return "127.0.0.1:" + local.getPort();
    }

    String name() {
        return name;
    }

    int accepts() {
        return accepts.get();
    }

    int requests() {
        return requests.get();
    }

    /** Simulates a crash: stops listening and drops every open connection. */
    void kill() {
        server.close().syncUninterruptibly();
        children.close().syncUninterruptibly();
    }

    @Override
    public void close() {
        kill();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Responder extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            requests.incrementAndGet();
            received.add(request.headers().copy());
            if (hang) {
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request) && !request.uri().startsWith("/bye");
            String body = request.uri().startsWith("/echo-body")
                    ? request.content().toString(StandardCharsets.UTF_8) : name;
            HttpResponseStatus status = request.uri().startsWith("/health")
                    ? HttpResponseStatus.valueOf(healthStatus) : HttpResponseStatus.OK;
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
            response.headers().set("X-Node", name).setInt(HttpHeaderNames.CONTENT_LENGTH, body.length());
            responseHeaders.forEach(response.headers()::add);
            if (!keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, "close");
            }
            Runnable send = () -> {
                if (keepAlive) {
                    ctx.writeAndFlush(response);
                } else {
                    ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
                }
            };
            if (request.uri().startsWith("/slow-body")) { // the head at once, the body 2 s later: a busy connection
                HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
                head.headers().set(response.headers());
                ctx.writeAndFlush(head);
                ctx.executor().schedule(() -> ctx.writeAndFlush(new DefaultLastHttpContent(response.content())),
                        2, TimeUnit.SECONDS);
                return;
            }
            long delay = delayMillis;
            if (delay > 0) {
                ctx.executor().schedule(send, delay, TimeUnit.MILLISECONDS);
            } else {
                send.run();
            }
        }
    }
}
