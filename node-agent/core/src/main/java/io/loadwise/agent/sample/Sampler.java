package io.loadwise.agent.sample;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.wire.OrcaLoadReport;
import java.lang.System.Logger.Level;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The agent's only collecting thread (daemon, {@value #THREAD_NAME}). Every full interval it runs all
 * sources; every fast interval it runs only the policy sources and overlays their values on the last
 * full sample. Each run publishes a new {@link MetricsSnapshot} through a volatile field, so readers
 * (the filter, the endpoints) never block and never collect.
 *
 * <p>A source that throws is logged once (with its exception) and skipped from then on only for that
 * run; a source failing on every run would otherwise fill the log.
 */
public final class Sampler implements AutoCloseable {

    public static final String THREAD_NAME = "loadwise-agent-sampler";
    private static final System.Logger LOG = System.getLogger(Sampler.class.getName());

    private final List<MetricSource> fast;
    private final List<MetricSource> full;
    private final Supplier<Map<String, String>> sourceNames;
    private final LongSupplier clock;
    private final OrcaLoadReport.Form headerForm;
    private final UnaryOperator<Map<String, Double>> transform;
    private final Set<String> reportedFailures = new HashSet<>();
    private volatile MetricsSnapshot latest = MetricsSnapshot.EMPTY;
    private MetricsSnapshot lastFull = MetricsSnapshot.EMPTY;
    private ScheduledExecutorService executor;

    /**
     * @param fast the policy sources (also part of {@code full})
     * @param full every source
     * @param sourceNames the current source name per metric group, asked on every full run
     * @param clock epoch milliseconds
     */
    public Sampler(List<MetricSource> fast, List<MetricSource> full, Supplier<Map<String, String>> sourceNames,
                   LongSupplier clock) {
        this(fast, full, sourceNames, clock, OrcaLoadReport.Form.TEXT);
    }

    /** As above, with the form each snapshot pre-encodes its {@code endpoint-load-metrics} value in. */
    public Sampler(List<MetricSource> fast, List<MetricSource> full, Supplier<Map<String, String>> sourceNames,
                   LongSupplier clock, OrcaLoadReport.Form headerForm) {
        this(fast, full, sourceNames, clock, headerForm, UnaryOperator.identity());
    }

    /** As above, every run's readings passed through {@code transform} (AgentConfig#readingsTransform) before publication. */
    public Sampler(List<MetricSource> fast, List<MetricSource> full, Supplier<Map<String, String>> sourceNames,
                   LongSupplier clock, OrcaLoadReport.Form headerForm, UnaryOperator<Map<String, Double>> transform) {
        this.headerForm = headerForm;
        this.transform = transform;
        this.fast = List.copyOf(fast);
        this.full = List.copyOf(full);
        this.sourceNames = sourceNames;
        this.clock = clock;
    }

    /**
     * Starts the sampling thread: a full run at once and every {@code fullMillis}, a fast run every
     * {@code fastMillis} (0 disables fast runs).
     */
    public synchronized void start(long fullMillis, long fastMillis) {
        if (executor != null) {
            throw new IllegalStateException("sampler already started");
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, THREAD_NAME);
            t.setDaemon(true);
            return t;
        });
        executor.scheduleAtFixedRate(this::sampleFull, 0, fullMillis, TimeUnit.MILLISECONDS);
        if (fastMillis > 0) {
            executor.scheduleAtFixedRate(this::sampleFast, fastMillis, fastMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** The latest published sample; never null. */
    public MetricsSnapshot latest() {
        return latest;
    }

    /** Runs every source and publishes the result. Called on the sampler thread (or by tests). */
    public void sampleFull() {
        MetricSink sink = new MetricSink();
        run(full, sink);
        lastFull = new MetricsSnapshot(clock.getAsLong(), transform.apply(sink.values()), sourceNames.get(), headerForm);
        latest = lastFull;
    }

    /**
     * Runs the policy sources and publishes their values over the last full sample; a policy metric
     * that is missing in this run keeps its value from the last full sample (at most one full interval old).
     */
    public void sampleFast() {
        MetricSink sink = new MetricSink();
        run(fast, sink);
        Map<String, Double> merged = new LinkedHashMap<>(lastFull.metrics());
        merged.putAll(transform.apply(sink.values()));
        latest = new MetricsSnapshot(clock.getAsLong(), merged, lastFull.sources(), headerForm);
    }

    private void run(List<MetricSource> sources, MetricSink sink) {
        for (MetricSource source : sources) {
            try {
                source.collect(sink);
            } catch (Exception | LinkageError e) {
                String name = source.getClass().getSimpleName();
                if (reportedFailures.add(name)) {
                    LOG.log(Level.WARNING, "Loadwise agent: metric source " + name + " failed; its metrics are "
                            + "absent while it keeps failing (logged once)", e);
                }
            }
        }
    }

    @Override
    public synchronized void close() {
        if (executor != null) {
            executor.shutdownNow();
            try {
                // wait briefly so a container checking for leaked threads right after undeploy sees none
                executor.awaitTermination(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor = null;
        }
    }
}
