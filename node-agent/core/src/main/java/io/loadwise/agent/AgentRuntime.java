package io.loadwise.agent;

import io.loadwise.agent.http.HeaderGate;
import io.loadwise.agent.http.MetricsEndpoint;
import io.loadwise.agent.jmx.JmxAdapter;
import io.loadwise.agent.jmx.JmxAdapterChoice;
import io.loadwise.agent.jmx.JmxAdapters;
import io.loadwise.agent.jmx.JmxMappingParser;
import io.loadwise.agent.jmx.JmxMappingSource;
import io.loadwise.agent.jvm.JvmClassSource;
import io.loadwise.agent.jvm.JvmCompileSource;
import io.loadwise.agent.jvm.JvmGcSource;
import io.loadwise.agent.jvm.JvmHeapSource;
import io.loadwise.agent.jvm.JvmThreadSource;
import io.loadwise.agent.load.FilterLoadSource;
import io.loadwise.agent.load.RequestRecorder;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.agent.os.OsSources;
import io.loadwise.agent.sample.Sampler;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.OrcaLoadReport;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import javax.management.MBeanServer;

/**
 * One running agent: its sources, the sampler thread, the header gate and the endpoint. The servlet
 * flavours create one per web application when it starts and close it when it stops.
 */
public final class AgentRuntime implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AgentRuntime.class.getName());

    private final AgentConfig config;
    private final OsSources os;
    private final JmxMappingSource appServer;
    private final RequestRecorder requests;
    private final Sampler sampler;
    private final HeaderGate headerGate;
    private final MetricsEndpoint endpoint;

    private AgentRuntime(AgentConfig config, MBeanServer server, Path procRoot) {
        this.config = config;
        this.os = OsSources.select(config.osMode(), procRoot);
        if (os.fallbackReason() == null) {
            LOG.log(Level.INFO, "Loadwise agent: OS metrics from SIGAR");
        } else {
            LOG.log(config.osMode() == OsSources.Mode.SIGAR ? Level.WARNING : Level.INFO,
                    "Loadwise agent: OS metrics from pure Java ({0}) because {1}", os.name(), os.fallbackReason());
        }
        JmxAdapterChoice choice = adapterChoice(config);
        this.requests = new RequestRecorder();
        // the two refer to each other: the filter asks what the server maps, the server how long traffic has run
        JmxMappingSource[] appServerHolder = new JmxMappingSource[1];
        // one instance in both samples: it keeps the last-second window and the server's thread maximum
        FilterLoadSource filterLoad = new FilterLoadSource(requests, () -> System.nanoTime() / 1_000_000,
                config.capacity(), config.standIn(), Runtime.getRuntime().availableProcessors(),
                () -> appServerHolder[0].mapped());
        this.appServer = new JmxMappingSource(server, choice, null, true, filterLoad::trafficMillis);
        appServerHolder[0] = appServer;
        JmxMappingSource appServerFast = new JmxMappingSource(server, choice, OrcaLoadReport.CARRIED_METRICS, false);

        MetricSource heap = new JvmHeapSource(ManagementFactory.getMemoryMXBean(),
                ManagementFactory.getMemoryPoolMXBeans());
        // one instance in both samples: it measures the time in collections since the previous sample of either kind
        MetricSource gc = new JvmGcSource(ManagementFactory.getGarbageCollectorMXBeans(),
                ManagementFactory.getMemoryPoolMXBeans(),
                config.fastIntervalMillis() > 0 ? config.fastIntervalMillis() : config.fullIntervalMillis());
        List<MetricSource> fast = new ArrayList<>(os.fast());
        fast.add(heap);
        fast.add(gc);
        fast.add(appServerFast);
        fast.add(filterLoad); // after the server's source: it fills in what that one did not report
        List<MetricSource> full = new ArrayList<>(os.fast());
        full.addAll(os.slow());
        full.add(heap);
        full.add(gc);
        full.add(new JvmCompileSource(ManagementFactory.getCompilationMXBean()));
        full.add(new JvmThreadSource(ManagementFactory.getThreadMXBean()));
        full.add(new JvmClassSource(ManagementFactory.getClassLoadingMXBean()));
        full.add(appServer);
        full.add(filterLoad);
        this.sampler = new Sampler(fast, full, this::sourceNames, System::currentTimeMillis, config.headerForm(),
                config.readingsTransform());
        this.headerGate = new HeaderGate(sampler, config.headerIntervalMillis());
        this.endpoint = new MetricsEndpoint(sampler, config.secret());
    }

    /** Builds an agent on the platform MBean server and {@code /proc} and starts sampling. */
    public static AgentRuntime start(AgentConfig config) {
        AgentRuntime runtime = create(config, ManagementFactory.getPlatformMBeanServer(), Path.of("/proc"));
        runtime.sampler.start(config.fullIntervalMillis(), config.fastIntervalMillis());
        LOG.log(Level.INFO, "Loadwise agent started: full sample every {0} ms, policy sample every {1} ms, "
                + "header at most every {2} ms, endpoints {3}", config.fullIntervalMillis(),
                config.fastIntervalMillis(), config.headerIntervalMillis(),
                config.secret() == null ? "open" : "protected by the shared secret");
        return runtime;
    }

    /** Builds an agent without starting the sampler thread (tests drive {@link #sampler()} directly). */
    public static AgentRuntime create(AgentConfig config, MBeanServer server, Path procRoot) {
        return new AgentRuntime(config, server, procRoot);
    }

    private static JmxAdapterChoice adapterChoice(AgentConfig config) {
        Properties operator = new Properties();
        Path file = config.jmxMappingsFile();
        if (file != null) {
            operator.putAll(AgentConfig.readFile(file, AgentConfig.JMX_MAPPINGS));
        }
        Properties inline = config.properties();
        for (String key : inline.stringPropertyNames()) {
            if (key.startsWith(JmxMappingParser.MAP_PREFIX) || key.startsWith(JmxMappingParser.ADAPTER_PREFIX)) {
                operator.setProperty(key, inline.getProperty(key));
            }
        }
        Set<String> removed = new HashSet<>();
        JmxAdapter overrides = JmxMappingParser.parse(operator,
                file == null ? "agent configuration" : file + " and agent configuration", removed);
        String adapter = config.jmxAdapter();
        return switch (adapter) {
            case "auto" -> new JmxAdapterChoice(JmxAdapters.builtIn(), true, overrides, removed);
            case "none" -> new JmxAdapterChoice(List.of(), true, overrides, removed);
            default -> new JmxAdapterChoice(List.of(JmxAdapters.builtIn(adapter)), false, overrides, removed);
        };
    }

    private Map<String, String> sourceNames() {
        Map<String, String> names = new LinkedHashMap<>();
        names.put(MetricGroup.OS.key(), os.name());
        names.put(MetricGroup.JVM.key(), "mxbean");
        names.put(MetricGroup.APP_SERVER.key(), appServer.sourceName());
        return names;
    }

    public AgentConfig config() {
        return config;
    }

    public Sampler sampler() {
        return sampler;
    }

    /** Where the servlet filter records each request it sees. */
    public RequestRecorder requests() {
        return requests;
    }

    public HeaderGate headerGate() {
        return headerGate;
    }

    public MetricsEndpoint endpoint() {
        return endpoint;
    }

    /** The application-server source (its {@code missing()} set tells what the server does not expose). */
    public JmxMappingSource appServerSource() {
        return appServer;
    }

    @Override
    public void close() {
        sampler.close();
        os.close();
        LOG.log(Level.INFO, "Loadwise agent stopped");
    }
}
