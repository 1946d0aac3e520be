package io.loadwise.dispatcher.net;

import io.loadwise.dispatcher.net.ProxyProtocolStats.Refusal;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of a listener with {@code proxyProtocol}. From a trusted source it puts Netty's
 * {@link HAProxyMessageDecoder} in front of itself and holds {@code channelActive} back from the rest of the
 * pipeline until a header of an accepted version has arrived (in as many reads as it takes, before the
 * deadline); the header's source becomes {@link ClientAddress#PROXIED}. UNKNOWN (v1) and LOCAL (v2) keep the
 * TCP peer. From any other source it watches the first bytes: a PROXY signature is a spoof and closes the
 * connection; anything else passes through untouched. Every refusal is counted and logged at a bounded rate.
 */
public final class ProxyHeaderHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ProxyHeaderHandler.class);

    private final String listener;
    private final ProxyProtocolSettings settings;
    private final ProxyProtocolStats stats;
    private final LogThrottle throttle;
    private final PerClientConnections perClient; // null: no per-client limit

    private boolean trusted;
    private boolean activeHeld;
    private boolean done;
    private boolean refused; // closed by this handler: nothing more reaches the pipeline
    private ByteBuf first; // untrusted source: bytes seen so far, until they are known not to be a signature
    private Future<?> deadline;

    /** {@code throttle} is shared by the listener's connections; it is used under its own lock. */
    public ProxyHeaderHandler(String listener, ProxyProtocolSettings settings, ProxyProtocolStats stats,
            Object throttle) {
        this(listener, settings, stats, throttle, null);
    }

    /** With {@code perClient}, the header's client is counted against {@code maxConnectionsPerClient}. */
    public ProxyHeaderHandler(String listener, ProxyProtocolSettings settings, ProxyProtocolStats stats,
            Object throttle, PerClientConnections perClient) {
        this.perClient = perClient;
        this.listener = listener;
        this.settings = settings;
        this.stats = stats;
        this.throttle = (LogThrottle) throttle;
    }

    /** A throttle to share between the handlers of one listener. */
    public static Object newThrottle() {
        return new LogThrottle();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
    }

    private void start(ChannelHandlerContext ctx) {
        if (deadline != null || done || activeHeld) {
            return;
        }
        SocketAddress peer = ctx.channel().remoteAddress();
        trusted = peer instanceof InetSocketAddress inet && inet.getAddress() != null
                && AddressBlock.anyContains(settings.trustedSources(), inet.getAddress());
        if (!trusted) {
            ctx.fireChannelActive();
            return;
        }
        activeHeld = true;
        ctx.pipeline().addBefore(ctx.name(), null, new HAProxyMessageDecoder(settings.maxTlvBytes()));
        deadline = ctx.executor().schedule(() -> {
            if (!done) {
                refuse(ctx, Refusal.TIMEOUT, "no PROXY header within " + settings.headerTimeoutMs() + " ms");
            }
        }, settings.headerTimeoutMs(), TimeUnit.MILLISECONDS);
        if (!ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (refused) {
            ReferenceCountUtil.release(msg);
        } else if (done) {
            ctx.fireChannelRead(msg);
        } else if (msg instanceof HAProxyMessage header) {
            try {
                apply(ctx, header);
            } finally {
                header.release();
            }
        } else if (!trusted && msg instanceof ByteBuf bytes) {
            watch(ctx, bytes);
        } else {
            ReferenceCountUtil.release(msg);
            refuse(ctx, Refusal.INVALID, "unexpected " + msg.getClass().getSimpleName() + " before the header");
        }
    }

    private void apply(ChannelHandlerContext ctx, HAProxyMessage header) {
        boolean v2 = header.protocolVersion() == HAProxyProtocolVersion.V2;
        if (!settings.accept().allows(v2)) {
            refuse(ctx, Refusal.INVALID, "PROXY " + (v2 ? "v2" : "v1") + " header where " + settings.accept()
                    + " is accepted");
            return;
        }
        SocketAddress client = proxied(header);
        if (client != null) {
            ctx.channel().attr(ClientAddress.PROXIED).set(client);
        }
        SocketAddress counted = client != null ? client : ctx.channel().remoteAddress();
        if (perClient != null && counted instanceof InetSocketAddress inet && inet.getAddress() != null
                && !perClient.admitProxied(ctx.channel(), inet.getAddress())) {
            done = true;
            refused = true;
            cleanUp();
            ctx.close(); // over maxConnectionsPerClient: counted there, as a connection refused at accept is
            return;
        }
        stats.accepted();
        finish(ctx);
        if (activeHeld) {
            activeHeld = false;
            ctx.fireChannelActive();
        }
    }

    /** The header's source, or null when it names none (v1 UNKNOWN, v2 LOCAL, a non-inet family). */
    static SocketAddress proxied(HAProxyMessage header) {
        if (header.command() == HAProxyCommand.LOCAL || header.sourceAddress() == null) {
            return null;
        }
        HAProxyProxiedProtocol p = header.proxiedProtocol();
        if (p.addressFamily() != HAProxyProxiedProtocol.AddressFamily.AF_IPv4
                && p.addressFamily() != HAProxyProxiedProtocol.AddressFamily.AF_IPv6) {
            return null;
        }
        try {
            // the decoder has checked the text is a literal address: no name lookup happens here
            return new InetSocketAddress(InetAddress.getByName(header.sourceAddress()), header.sourcePort());
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    private void watch(ChannelHandlerContext ctx, ByteBuf bytes) {
        if (first == null) {
            first = bytes;
        } else {
            first = ctx.alloc().compositeBuffer(2).addComponents(true, first, bytes);
        }
        int match = signatureMatch(first);
        if (match == MATCH) {
            refuse(ctx, Refusal.UNTRUSTED, "PROXY header from an untrusted source");
        } else if (match == NO_MATCH) {
            ByteBuf pass = first;
            first = null;
            finish(ctx);
            ctx.fireChannelRead(pass);
        } else if (match == PREFIX && !ctx.channel().config().isAutoRead()) {
            ctx.read(); // what follows decides; nothing downstream asks for it while the bytes are held
        }
    }

    private static final byte[] V1 = "PROXY ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] V2 = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    static final int NO_MATCH = 0;
    static final int PREFIX = 1;
    static final int MATCH = 2;

    /**
     * Whether the bytes start with a v1 or v2 signature ({@link #MATCH}), are a proper prefix of one
     * ({@link #PREFIX}: wait for more), or differ from both ({@link #NO_MATCH}: not a PROXY header). Decides on
     * the first differing byte, so a client that sends one byte and waits is not held.
     */
    static int signatureMatch(ByteBuf bytes) {
        int best = NO_MATCH;
        for (byte[] sig : new byte[][] {V1, V2}) {
            int n = Math.min(sig.length, bytes.readableBytes());
            int i = 0;
            while (i < n && bytes.getByte(bytes.readerIndex() + i) == sig[i]) {
                i++;
            }
            if (i == sig.length) {
                return MATCH;
            }
            if (i == n) {
                best = PREFIX;
            }
        }
        return best;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (activeHeld) {
            return; // the pipeline has not seen the connection start: it hears of no reads before the header
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!activeHeld) {
            ctx.fireChannelWritabilityChanged();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (refused) {
            log.debug("{}: after refusing {}: {}", listener, ctx.channel().remoteAddress(), cause.toString());
        } else if (done) {
            ctx.fireExceptionCaught(cause);
        } else {
            refuse(ctx, Refusal.INVALID, String.valueOf(cause.getMessage()));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if ((done && !refused) || !activeHeld) {
            ctx.fireChannelInactive();
        }
        // else: the pipeline never saw channelActive, so it is not told of the end either
        cleanUp();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cleanUp();
    }

    private void finish(ChannelHandlerContext ctx) {
        done = true;
        cleanUp();
        if (ctx.pipeline().context(this) != null) {
            ctx.pipeline().remove(this);
        }
    }

    private void cleanUp() {
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (first != null) {
            first.release();
            first = null;
        }
    }

    private void refuse(ChannelHandlerContext ctx, Refusal why, String detail) {
        if (done) {
            return;
        }
        done = true;
        refused = true;
        cleanUp();
        stats.refused(why);
        boolean logIt;
        long suppressed = 0;
        synchronized (throttle) {
            logIt = throttle.shouldLog(System.nanoTime());
            if (logIt) {
                suppressed = throttle.takeSuppressed();
            }
        }
        if (logIt) {
            log.warn("{}: closing {} ({}): {}{}", listener, ctx.channel().remoteAddress(), why, detail,
                    suppressed > 0 ? " (" + suppressed + " more since the last line)" : "");
        }
        ctx.close();
    }
}
