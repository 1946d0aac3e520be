package io.loadwise.dispatcher.monitor;

import io.loadwise.wire.MetricsJson;
import io.loadwise.wire.OrcaLoadReport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
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
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A real application node on loopback: answers every request with its name. Its agent path answers as
 * an installed agent would, as a server without one does (404), or with a page that is no metrics
 * document; its responses may piggyback a load report.
 */
final class AppNode implements AutoCloseable {

    /** What the node's agent path answers. */
    enum Agent { NONE, GARBAGE, METRICS }

    static final String AGENT_PATH = "/loadwise-agent/metrics";

    final String name;
    private final Agent agent;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final AtomicReference<Map<String, Double>> metrics = new AtomicReference<>(Map.of());
    private final AtomicReference<String> piggyback = new AtomicReference<>();
    private final AtomicInteger appRequests = new AtomicInteger();

    AppNode(String name, Agent agent) {
        this.name = name;
        this.agent = agent;
        this.server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 16), new Responder());
                    }
                }).bind("127.0.0.1", 0).syncUninterruptibly().channel();
    }

    /** What a {@link Agent#METRICS} agent reports. */
    AppNode metrics(Map<String, Double> values) {
        metrics.set(values);
        return this;
    }

    /** Adds this load report to every application response from now on. */
    AppNode piggyback(Map<String, Double> values) {
        piggyback.set(OrcaLoadReport.encodeText(values));
        return this;
    }

    String address() {
        return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
    }

    int appRequests() {
        return appRequests.get();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Responder extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            FullHttpResponse response;
            if (request.uri().equals(AGENT_PATH)) {
                response = switch (agent) {
                    case NONE -> respond(HttpResponseStatus.NOT_FOUND, "text/plain", "Not Found");
                    case GARBAGE -> respond(HttpResponseStatus.OK, "text/html", "<html><body>Welcome</body></html>");
                    case METRICS -> respond(HttpResponseStatus.OK, "application/json",
                            MetricsJson.encode(System.currentTimeMillis(), metrics.get(), Map.of()));
                };
            } else {
                appRequests.incrementAndGet();
                response = respond(HttpResponseStatus.OK, "text/plain", name);
                String report = piggyback.get();
                if (report != null) {
                    response.headers().set(OrcaLoadReport.HEADER_NAME, report);
                }
            }
            if (HttpUtil.isKeepAlive(request)) {
                ctx.writeAndFlush(response);
            } else {
                response.headers().set(HttpHeaderNames.CONNECTION, "close");
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        private static FullHttpResponse respond(HttpResponseStatus status, String type, String body) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(bytes));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            return response;
        }
    }
}
