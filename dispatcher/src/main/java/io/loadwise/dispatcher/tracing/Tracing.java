package io.loadwise.dispatcher.tracing;

import io.loadwise.dispatcher.config.TracingConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide tracing (issue 33, item 3): the OpenTelemetry SDK's tracer while {@code tracing} is configured,
 * {@code null} otherwise, so that the request path tests one volatile field and makes no span and reads no clock
 * when tracing is off. {@code loadwise run} starts it once from the configuration, before any listener.
 *
 * <p>Sampling is parent-based: a request whose {@code traceparent} is sampled is sampled, one that is not is not,
 * and a new trace is sampled with {@code sampleRatio} (by its trace id). Ended spans go to a
 * {@link BatchSpanProcessor} with a bounded queue ({@value #QUEUE} spans): the event loop only offers a span to
 * it, never waits, and a full queue drops the span. The exporter posts batches over OTLP/HTTP (protobuf) with
 * the JDK's HttpClient on the processor's own thread; a batch it could not deliver (collector unreachable,
 * refusing, too slow) is counted in {@link #spansFailed()} and forgotten, and a span that finds the queue full in
 * {@link #spansDropped()}, so an unreachable collector costs counters, not memory.
 */
public final class Tracing {

    /** Spans waiting for export at most; more are dropped. */
    public static final int QUEUE = 2048;
    static final int BATCH = 512;
    static final Duration EXPORT_TIMEOUT = Duration.ofSeconds(10);

    private static final LongAdder EXPORTED = new LongAdder();
    private static final LongAdder FAILED = new LongAdder();
    private static final LongAdder DROPPED = new LongAdder();
    private static volatile Tracer tracer;
    private static volatile TracingConfig running;
    private static SdkTracerProvider provider;

    private Tracing() {
    }

    /** The tracer, or {@code null} when tracing is off. */
    public static Tracer tracer() {
        return tracer;
    }

    /** Starts exporting as {@code config} says; {@code null} stops tracing. Replaces what ran before. */
    public static synchronized void start(TracingConfig config) {
        stop();
        if (config == null) {
            return;
        }
        OtlpHttpSpanExporter otlp = OtlpHttpSpanExporter.builder()
                .setEndpoint(config.tracesUrl())
                .setTimeout(EXPORT_TIMEOUT)
                .build();
        BatchSpanProcessor batches = BatchSpanProcessor.builder(new CountingExporter(otlp, EXPORTED, FAILED))
                .setMaxQueueSize(QUEUE)
                .setMaxExportBatchSize(BATCH)
                .setScheduleDelay(Duration.ofSeconds(1))
                .setExporterTimeout(EXPORT_TIMEOUT.plusSeconds(1))
                .setMeterProvider(new DroppedSpans(DROPPED))
                .build();
        provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(
                        Attributes.of(AttributeKey.stringKey("service.name"), "loadwise"))))
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(config.sampleRatioOrDefault())))
                .addSpanProcessor(batches)
                .build();
        tracer = provider.get("io.loadwise.dispatcher");
        running = config;
    }

    /** What tracing runs with, or {@code null} when it is off. */
    public static TracingConfig running() {
        return running;
    }

    /** Stops tracing: what is queued is exported within a few seconds, then the exporter closes. */
    public static synchronized void stop() {
        tracer = null;
        running = null;
        if (provider != null) {
            provider.shutdown().join(5, TimeUnit.SECONDS);
            provider = null;
        }
    }

    /** Exports what has ended so far, waiting up to {@code timeout} (tests, shutdown). */
    public static synchronized void flush(Duration timeout) {
        if (provider != null) {
            provider.forceFlush().join(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Spans the collector accepted since start. */
    public static long spansExported() {
        return EXPORTED.sum();
    }

    /** Spans in batches that could not be delivered (collector unreachable, refusing or too slow), since start. */
    public static long spansFailed() {
        return FAILED.sum();
    }

    /** Spans dropped at once because {@value #QUEUE} were already waiting for export (a slow or absent collector). */
    public static long spansDropped() {
        return DROPPED.sum();
    }
}
