package io.loadwise.dispatcher.http2;

import io.loadwise.dispatcher.config.Http2Config;
import io.loadwise.dispatcher.http.Http2Support;
import io.loadwise.dispatcher.http.HttpListener;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.concurrent.GlobalEventExecutor;

/**
 * HTTP/2 on one listener: turns a client connection into an HTTP/2 connection whose streams are each
 * served as one HTTP/1.1 exchange to a node, through the listener's own {@code FrontendHandler}, so
 * pools, policies, affinity, header rewriting and counters are the same as for HTTP/1.1.
 *
 * <p>Protections, each with its case in the adversarial suite:
 * <ul>
 *   <li>{@code SETTINGS_MAX_CONCURRENT_STREAMS} ({@code maxConcurrentStreams}, default 100) and
 *       {@code SETTINGS_MAX_HEADER_LIST_SIZE}: a header block larger than that, however compressed
 *       (an HPACK bomb) or however split into CONTINUATION frames, is refused while it is decoded;</li>
 *   <li>rapid reset (CVE-2023-44487): more than {@link #MAX_RESETS} RST_STREAM frames in
 *       {@link #RESET_WINDOW_SECONDS} s end the connection with GOAWAY ENHANCE_YOUR_CALM;</li>
 *   <li>SETTINGS and PING floods: {@link ControlFrameGuard}; answers the peer does not read are capped
 *       by the codec's queue of control frames;</li>
 *   <li>empty DATA frames (CVE-2019-9518): at most {@link #MAX_EMPTY_DATA_FRAMES} in a row.</li>
 * </ul>
 * Flow control: a stream's window is returned to the client only as its bytes go to the node, so a
 * slow node slows that stream's upload; a client that does not read makes its stream unwritable, which
 * stops reading from the node.
 */
public final class Http2Frontend implements Http2Support {

    public static final int MAX_RESETS = 200;
    public static final int RESET_WINDOW_SECONDS = 30;
    public static final int MAX_EMPTY_DATA_FRAMES = 2;
    public static final int MAX_QUEUED_CONTROL_FRAMES = 1_000;
    /** Per stream, as RFC 9113's default; the connection's window is larger so one slow stream stalls no other. */
    public static final int STREAM_WINDOW = 65_535;
    public static final int CONNECTION_WINDOW = 1024 * 1024;
    /** How long streams may finish after a GOAWAY at shutdown. */
    public static final long GRACEFUL_SHUTDOWN_MS = 5_000;

    /** The name of the handler that batches the connection's flushes, just before the frame codec. */
    private static final String FLUSH = "h2-flush";

    /**
     * Bytes a connection may hold back before a flush goes through at once: one TLS record's worth of plain text,
     * so that small responses share records and system calls while a large one leaves as soon as it is written.
     */
    private static final int FLUSH_THRESHOLD_BYTES = 16 * 1024;

    private final HttpListener listener;
    private final int maxConcurrentStreams;
    private final int maxHeaderListSize;
    private final boolean secure;
    /** Clear text, HTTP/2 only: the first bytes go to the codec, which closes a connection without the preface. */
    private final boolean priorKnowledgeOnly;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    public Http2Frontend(HttpListener listener, Http2Config config, int maxHeaderBytes, boolean secure) {
        this.listener = listener;
        this.maxConcurrentStreams = config.maxConcurrentStreamsOrDefault();
        this.maxHeaderListSize = config.maxHeaderListSize() != null ? config.maxHeaderListSize() : maxHeaderBytes;
        this.secure = secure;
        this.priorKnowledgeOnly = !secure && config.priorKnowledgeOnlyOrDefault();
    }

    /** Adds the detectors of HTTP/2 (ALPN h2, the connection preface, and on clear text Upgrade: h2c). */
    @Override
    public void addDetectors(ChannelPipeline pipeline) {
        pipeline.addBefore(HttpListener.CODEC, "h2-detect", new PrefaceDetector(this, priorKnowledgeOnly));
        if (!secure && !priorKnowledgeOnly) {
            pipeline.addAfter(HttpListener.CODEC, "h2c-upgrade", new H2cUpgrade(this));
        }
    }

    /** A new frame codec with this listener's settings and limits. */
    Http2FrameCodec newCodec() {
        Http2Settings settings = Http2Settings.defaultSettings()
                .maxConcurrentStreams(maxConcurrentStreams)
                .maxHeaderListSize(maxHeaderListSize)
                .initialWindowSize(STREAM_WINDOW); // no ENABLE_PUSH: a server may not send it (RFC 9113 §6.5.2)
        Http2FrameCodec codec = Http2FrameCodecBuilder.forServer()
                .initialSettings(settings)
                .validateHeaders(true)
                .decoderEnforceMaxRstFramesPerWindow(MAX_RESETS, RESET_WINDOW_SECONDS)
                .decoderEnforceMaxConsecutiveEmptyDataFrames(MAX_EMPTY_DATA_FRAMES)
                .encoderEnforceMaxQueuedControlFrames(MAX_QUEUED_CONTROL_FRAMES)
                .gracefulShutdownTimeoutMillis(GRACEFUL_SHUTDOWN_MS)
                .build();
        // Netty applies our SETTINGS_MAX_CONCURRENT_STREAMS only once the client acknowledges it, so a
        // client that never sends the ACK could open streams without limit. Enforce it from the first
        // frame: a stream beyond it is refused with RST_STREAM REFUSED_STREAM, which a client may retry.
        codec.connection().remote().maxActiveStreams(maxConcurrentStreams);
        return codec;
    }

    /** The connection's flush batcher, which goes right before the frame codec on every way into HTTP/2. */
    private static ConnectionFlushBatcher newFlushBatcher() {
        return new ConnectionFlushBatcher(FLUSH_THRESHOLD_BYTES);
    }

    /** The handlers after the frame codec: flood guard, stream multiplexer, connection accounting. */
    ChannelHandler[] afterCodec() {
        return new ChannelHandler[] {
            new ControlFrameGuard(listener.name()),
            new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
                @Override
                protected void initChannel(Http2StreamChannel ch) {
                    ch.pipeline().addLast("h2-stream", new StreamAdapter(listener.name(), listener.counters()));
                    listener.addStreamStages(ch.pipeline()); // Alt-Svc when HTTP/3 is on, the frontend
                }
            }),
            new ConnectionEnd(listener.counters())};
    }

    /** Switches {@code channel} (no request served yet) from HTTP/1.1 to HTTP/2 with prior knowledge or ALPN. */
    void switchToHttp2(Channel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        listener.leaveHttp1(pipeline);
        if (pipeline.get("h2c-upgrade") != null) {
            pipeline.remove("h2c-upgrade");
        }
        Http2FrameCodec codec = newCodec();
        // the client preface (24 bytes) comes first on this path: prior knowledge, or right after ALPN; the
        // guard only reads inbound bytes, so it goes before the batcher, which must sit right before the codec
        pipeline.addLast("h2-stream-states", new StreamStateGuard(codec.connection(),
                Http2CodecUtil.connectionPrefaceBuf().readableBytes()));
        pipeline.addLast(FLUSH, newFlushBatcher());
        pipeline.addLast("h2-codec", codec);
        pipeline.addLast(afterCodec());
        connections.add(channel);
    }

    /** Called by the h2c upgrade: the HTTP/1.1 handlers leave, the upgrade codec adds the rest. */
    void upgraded(Channel channel) {
        listener.leaveHttp1(channel.pipeline());
        // the upgrade codec adds the frame codec right after the upgrader: this goes before both
        channel.pipeline().addBefore(H2cUpgrade.UPGRADER, FLUSH, newFlushBatcher());
        connections.add(channel);
    }

    /** Sends GOAWAY on every HTTP/2 connection; their streams may finish within {@link #GRACEFUL_SHUTDOWN_MS}. */
    @Override
    public void close() {
        connections.close();
    }
}
