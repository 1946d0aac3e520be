package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.net.ClientAddress;
import io.loadwise.dispatcher.metrics.TrafficCounters;
import io.loadwise.dispatcher.http.codec.BadMessage;
import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.loadwise.dispatcher.http.codec.RequestDecoder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Ticker;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: runs each request head through the route and filter stages ({@link RouteStage},
 * {@link HttpFilters}) and feeds the requests, one at a time, to its {@link Exchange}; queues what a
 * pipelining client sends meanwhile; pauses reading while anything waits.
 *
 * <p>One timer per connection enforces every deadline: between requests the idle timeout (QoS-01: no
 * request in progress and nothing received for it) and the header timeout (a head must be whole within
 * it of its first byte, so a client trickling a head cannot hold the connection), and during an exchange
 * the exchange's own ({@link Exchange#checkDeadlines}). The timer re-arms itself for the next deadline
 * when it fires, so a busy keep-alive connection schedules about one task per timeout period.
 */
final class FrontendHandler extends ChannelInboundHandlerAdapter implements ClientConnection {

    private static final Logger log = LoggerFactory.getLogger(FrontendHandler.class);

    private final HttpListener listener;
    /** The listener's: connection events and the answers given here. */
    private final TrafficCounters counters;
    private final RequestDecoder decoder;
    private final ArrayDeque<Object> queued = new ArrayDeque<>(4);
    private final long idleNanos;
    private final long headerTimeoutNanos;
    private final Runnable deadlineCheck = this::checkDeadlines;

    private Channel client;
    /** The relay stage of the request being served or last served; null before a first forwarded request. */
    private Exchange exchange;
    /** An exchange per cluster this connection's requests went to (few: bounded by the configuration). */
    private final java.util.Map<HttpProxyServer, Exchange> exchanges = new java.util.IdentityHashMap<>(2);
    private ForwardingHeaders forwarding;
    private RequestSource source;
    private HttpAccessLog accessLog;
    private String clientIp;
    private int paused;
    private boolean closing;
    private boolean reading;
    /** Last read batch or exchange end; idleness (QoS-01) is measured from it. */
    private long lastActivityNanos;
    private ScheduledFuture<?> timer;
    /** When {@link #timer} fires. */
    private long timerDueNanos;
    private Ticker ticker;

    FrontendHandler(HttpListener listener, RequestDecoder decoder) {
        this.listener = listener;
        this.decoder = decoder;
        this.counters = listener.counters();
        this.idleNanos = listener.idleNanos();
        this.headerTimeoutNanos = listener.headerTimeoutNanos();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        client = ctx.channel();
        ticker = client.eventLoop().ticker();
        boolean trustedSource = false;
        // the PROXY header's source when a balancer sent one (ClientAddress), else the TCP peer
        SocketAddress peer = ClientAddress.of(client);
        if (peer instanceof InetSocketAddress remote) {
            clientIp = remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
            trustedSource = listener.trusts(remote.getAddress());
        } else {
            clientIp = String.valueOf(peer); // not a socket (tests): never trusted
        }
        forwarding = new ForwardingHeaders(clientIp, listener.secure(), trustedSource);
        source = new RequestSource(clientIp, trustedSource, listener.secure(), client);
        lastActivityNanos = ticker.nanoTime();
        accessLog = new HttpAccessLog(client, source, listener.logName(), lastActivityNanos);
        if (listener.home() != null) {
            exchange = exchangeFor(listener.home());
        }
        counters.connectionOpened();
        schedule(lastActivityNanos, lastActivityNanos + Math.min(idleNanos, headerTimeoutNanos));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = true;
        if (closing) {
            ReferenceCountUtil.release(msg);
        } else if (!queued.isEmpty() || (exchange != null && !exchange.accepts(msg))) {
            queued.addLast(msg);
            pause(PAUSE_QUEUE);
        } else {
            process(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reading = false;
        lastActivityNanos = ticker.nanoTime();
        if (exchange != null) {
            exchange.flushBackend();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (exchange != null) {
            exchange.onClientWritabilityChanged(client.isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * The connection's deadlines at this instant: the exchange's while one runs, otherwise the header
     * timeout of a head being received and the idle timeout. Re-arms itself for the next one.
     */
    private void checkDeadlines() {
        timer = null;
        if (closing || !client.isActive()) {
            return;
        }
        long now = ticker.nanoTime();
        long next = exchange == null ? now + TimeUnit.DAYS.toNanos(1) : exchange.checkDeadlines(now);
        if (closing || !client.isActive()) {
            return;
        }
        if (exchange == null || !exchange.active()) {
            long headStart = decoder.headStartNanos();
            if (headStart != 0 && queued.isEmpty()) {
                long due = headStart + headerTimeoutNanos;
                if (now - due >= 0) {
                    requestHeadTimedOut();
                    return;
                }
                next = due;
            }
            long idleDue = lastActivityNanos + idleNanos;
            if (queued.isEmpty() && now - idleDue >= 0) {
                log.debug("closing idle client connection {}", client);
                client.close();
                return;
            }
            next = Math.min(next, idleDue);
        }
        schedule(now, next);
    }

    private void requestHeadTimedOut() {
        long ms = TimeUnit.NANOSECONDS.toMillis(headerTimeoutNanos);
        log.info("{}: client {}: request head not complete within {} ms; closing", listener.name(), clientIp, ms);
        accessLog.answered(null, null, HttpResponseStatus.REQUEST_TIMEOUT.code(), Terminations.HEAD_TIMEOUT, counters);
        closeAfter(ErrorResponses.of(HttpResponseStatus.REQUEST_TIMEOUT,
                "request head not received within " + ms + " ms", true));
    }

    /** Makes sure the timer fires by {@code due}; an earlier timer stays. */
    @Override
    public void deadlineBy(long due) {
        if (timer == null || due - timerDueNanos < 0) {
            schedule(ticker.nanoTime(), due);
        }
    }

    private void schedule(long now, long due) {
        if (timer != null) {
            timer.cancel(false);
        }
        long delay = Math.max(due - now, TimeUnit.MILLISECONDS.toNanos(1));
        timerDueNanos = now + delay;
        timer = client.eventLoop().schedule(deadlineCheck, delay, TimeUnit.NANOSECONDS);
    }

    @Override
    public void exchangeEnded(long nanos) {
        lastActivityNanos = nanos;
        deadlineBy(nanos + Math.min(idleNanos, headerTimeoutNanos));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!closing && decoder.headStartNanos() != 0 && queued.isEmpty() && (exchange == null || !exchange.active())) {
            accessLog.answered(null, null, -1, Terminations.CLIENT_LEFT_IN_HEAD, counters); // left amid a head
        }
        closing = true;
        releaseQueued();
        cancelTimer();
        for (Exchange e : exchanges.values()) {
            e.onClientClosed();
        }
        counters.connectionClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("client connection {}: {}", ctx.channel(), cause.toString());
        ctx.close();
    }

    private void process(Object msg) {
        if (msg instanceof HttpRequest request) {
            if (request.decoderResult().isFailure() || !(request instanceof ProxiedRequest)) {
                reject(request);
            } else {
                routeAndFilter((ProxiedRequest) request);
            }
        } else if (msg instanceof HttpContent content) {
            if (exchange != null) {
                exchange.onRequestContent(content);
            } else {
                content.release(); // the body of a request answered here: read and dropped
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    /**
     * The route and filter stages of a request head, before the exchange (node acquisition, relay): a request
     * with no route, or that a filter answers, gets its answer here and no node sees it; its body, if any, is
     * then read and dropped by the idle exchange.
     */
    private void routeAndFilter(ProxiedRequest request) {
        RequestIds.ensure(request); // before any filter or node sees the head
        Route route = listener.routes().route(request, source);
        FullHttpResponse local = route == null ? null : route.filters().onRequest(request, source);
        if (local == null && route != null && route.target() != null) {
            exchange = exchangeFor(route.target());
            exchange.begin(request, route);
            return;
        }
        if (local == null) {
            local = ErrorResponses.of(HttpResponseStatus.NOT_FOUND, "no route", false);
        } else {
            route.filters().onResponseHead(request, local);
        }
        if (route != null && route.counters() != null) {
            route.counters().answered(local.status().code(), 0); // answered from the head, at once
        }
        RequestIds.answer(request, local);
        boolean close = !HttpUtil.isKeepAlive(request) || request.upgrade(); // an upgrade's next bytes are not HTTP
        if (close) {
            local.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        int status = local.status().code();
        accessLog.answered(request, route, status, Terminations.answered(route, status), counters);
        ReferenceCountUtil.release(request);
        answer(local, close);
    }

    /** Goes on with queued messages once the exchange can take them; called when an exchange ends. */
    @Override
    public void drain() {
        while (!queued.isEmpty() && !closing && (exchange == null || exchange.accepts(queued.peekFirst()))) {
            process(queued.pollFirst());
        }
        if (closing) {
            releaseQueued();
        }
        if (queued.isEmpty()) {
            resume(PAUSE_QUEUE);
        }
        if (!reading && exchange != null) {
            exchange.flushBackend(); // otherwise at the end of the client's read batch
        }
    }

    /** The codec refused the request head: malformed, ambiguous, over the limits, or a method we do not proxy. */
    private void reject(HttpRequest request) {
        Throwable cause = request.decoderResult().cause();
        ReferenceCountUtil.release(request);
        HttpResponseStatus rejection;
        String reason;
        if (cause instanceof BadMessage bad) {
            rejection = bad.status();
            reason = bad.reason();
        } else {
            rejection = ErrorResponses.statusForDecoderFailure(cause);
            reason = "malformed request";
        }
        log.debug("client {}: {} ({})", clientIp, rejection.code(), reason);
        accessLog.answered(null, null, rejection.code(), Terminations.BAD_HEAD, counters);
        FullHttpResponse response = ErrorResponses.of(rejection, reason, true);
        if (rejection == HttpResponseStatus.METHOD_NOT_ALLOWED) {
            response.headers().set(HttpHeaderNames.ALLOW, ErrorResponses.ALLOWED_METHODS);
        }
        closeAfter(response);
    }

    @Override
    public void answer(Object last, boolean close) {
        if (close) {
            closeAfter(last);
        } else {
            client.writeAndFlush(last, client.voidPromise());
            drain();
        }
    }

    /** Writes {@code last} (the final response, or an empty buffer) and closes the connection after it. */
    private void closeAfter(Object last) {
        closing = true;
        releaseQueued();
        client.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
    }

    /** Closes at once: a response was cut off, or the client is gone. */
    @Override
    public void abort() {
        closing = true;
        releaseQueued();
        client.close();
    }

    /**
     * The client connection is handed to an upgraded protocol: this handler is leaving the pipeline,
     * and a plain idle detector watches the tunnel's traffic in both directions instead.
     */
    @Override
    public void handOver() {
        closing = true;
        releaseQueued();
        cancelTimer();
        client.pipeline().addFirst("idle", new IdleStateHandler(0, 0, idleNanos, TimeUnit.NANOSECONDS));
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** The exchange for requests to {@code target}: made at its first request, then kept with the connection. */
    private Exchange exchangeFor(HttpProxyServer target) {
        Exchange e = exchanges.get(target);
        if (e == null) {
            e = new Exchange(target, this, client, forwarding, target.poolsFor(client.eventLoop()), accessLog);
            exchanges.put(target, e);
        }
        return e;
    }

    /** The connection's exchange, for tests that check its state. */
    Exchange exchangeForTests() {
        return exchange;
    }

    @Override
    public void pause(int reason) {
        int before = paused;
        paused |= reason;
        if (before == 0) {
            client.config().setAutoRead(false);
        }
    }

    @Override
    public void resume(int reasons) {
        if ((paused & reasons) == 0) {
            return;
        }
        paused &= ~reasons;
        if (paused == 0 && !closing) {
            client.config().setAutoRead(true);
        }
    }

    private void releaseQueued() {
        Object msg;
        while ((msg = queued.pollFirst()) != null) {
            ReferenceCountUtil.release(msg);
        }
    }
}
