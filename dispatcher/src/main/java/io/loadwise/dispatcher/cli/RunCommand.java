package io.loadwise.dispatcher.cli;

import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import io.loadwise.dispatcher.config.AdminToken;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.http.RequestIds;
import io.loadwise.dispatcher.tracing.Tracing;
import io.loadwise.dispatcher.jmx.JmxExport;
import io.loadwise.dispatcher.logging.LoggingSetup;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.net.TransportKind;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ListenerFactory;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.dispatcher.store.ConfigSource;
import io.loadwise.dispatcher.store.FileConfigSource;
import io.loadwise.dispatcher.store.SharedStore;
import io.loadwise.policy.PolicyRegistry;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code loadwise run --config FILE}: starts the dispatcher and returns only after it has stopped. */
@Command(name = "run",
        description = {"Start the dispatcher: one listener per cluster, the admin console when it is built in.",
            "On SIGTERM or Ctrl-C it stops accepting, lets requests in flight finish for up to shutdownGraceMs,",
            "then exits 0; a second signal exits at once (143). SIGHUP re-reads FILE and applies the changes",
            "(docs/operations.md)."},
        footer = {"Environment: LOADWISE_ADMIN_TOKEN, the bearer token of the admin API, overrides admin.token in FILE.",
            "Example: loadwise run --config loadwise.json --log-level debug --worker-threads 2 --transport io_uring",
            "Exit codes: 0 stopped cleanly, 1 invalid configuration or startup failure, 2 usage error,",
            "143 stopped at once by a second SIGTERM."})
final class RunCommand implements CliCommand {

    @Option(names = {"--config", "-c"}, paramLabel = "FILE", required = true,
            description = "the configuration file (docs/configuration.md)")
    Path config;

    @Option(names = "--log-level", paramLabel = "LEVEL", converter = LogLevel.class, completionCandidates = LogLevel.class,
            description = "trace, debug, info, warn, error or off; overrides logging.level in FILE")
    String logLevel;

    @Option(names = "--worker-threads", paramLabel = "N",
            description = {"event-loop threads for all connections, 1.." + ConfigValidator.MAX_WORKER_THREADS + ";",
                "overrides workerThreads in FILE (default: one per core)"})
    Integer workerThreads;

    @Option(names = "--transport", paramLabel = "KIND", converter = TransportOption.class,
            completionCandidates = TransportOption.class,
            description = {"event-loop I/O: auto, io_uring, epoll or nio; overrides transport in FILE",
                "(default auto: epoll when available, else nio); one that cannot run here fails the start"})
    TransportKind transport;

    @Option(names = "--replica-id", paramLabel = "ID",
            description = "this replica's id in the etcd registry (config.store etcd); default host name:admin port")
    String replicaId;

    @Mixin
    HelpOption help;

    /** How listeners are made: the production ones; a test wraps them to watch when the first one listens. */
    ListenerFactory listeners = new ModeListenerFactory();

    /** The SIGHUP handler {@link #start} installed (before anything listened), or {@code null}. */
    ReloadSignal reloadSignal;

    /** A running dispatcher, the event loops it runs on and its etcd connection, if any; closing stops all. */
    record Started(Dispatcher dispatcher, Transport transport, SharedStore shared, SystemdNotify systemd,
            JmxExport jmx) implements AutoCloseable {
        @Override
        public void close() {
            if (jmx != null) {
                jmx.close();
            }
            if (shared != null) {
                shared.close();
            }
            dispatcher.close();
            transport.close();
            systemd.close();
        }
    }

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        checkWorkerThreads();
        List<String> errors = new ArrayList<>();
        LoadwiseConfig loaded = ConfigCheck.load(config, env, errors);
        if (!errors.isEmpty()) {
            errors.forEach(e -> err.println(config + ": " + e));
            err.println("loadwise run: not started, the configuration is invalid");
            return Main.INVALID;
        }
        LoggingSetup.apply(loaded.logging(), logLevel);
        RequestIds.enable(loaded.logging() == null || loaded.logging().requestIdOrDefault());
        Tracing.start(loaded.tracing()); // null: off, no span is made
        Logger log = LoggerFactory.getLogger(Main.class);
        log.info("loadwise {} starting with {}", Main.version(), config.toAbsolutePath());
        HeapReturn.apply();
        Started started;
        try {
            started = start(loaded, env);
        } catch (Exception e) {
            log.error("loadwise could not start: {}", e.getMessage(), e);
            err.println("loadwise run: " + e.getMessage());
            return Main.INVALID;
        }
        GracefulShutdown shutdown = new GracefulShutdown(started, loaded.shutdownGraceMsOrDefault());
        shutdown.install();
        started.systemd().ready();
        log.info("loadwise running with {} clusters; stop with Ctrl-C or SIGTERM", started.dispatcher().clusters().size());
        try {
            shutdown.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Tracing.stop(); // exports what is queued, a few seconds at most
        return Main.OK;
    }

    /** Starts the event loops and the dispatcher on them; on failure closes what it started and throws. */
    Started start(LoadwiseConfig loaded, Map<String, String> env) throws Exception {
        int threads = workerThreads(loaded);
        LoggerFactory.getLogger(Main.class).info("worker threads: {} ({})", threads, workerThreadsSource(loaded));
        TransportKind requested = transport(loaded);
        TransportKind kind = requested.resolve(); // before anything is started: one it cannot run is not started
        LoggerFactory.getLogger(Main.class).info("transport: {} ({})", kind.id(), transportSource(loaded, requested));
        PolicyRegistry policies = PolicyRegistry.load();
        ConfigStore file = new ConfigStore(config);
        SharedStore shared = null;
        ConfigSource source = new FileConfigSource(file);
        LoadwiseConfig effective = loaded;
        if (loaded.config() != null && loaded.config().etcd()) {
            shared = new SharedStore(loaded.config(), file);
            source = shared.source();
            effective = shared.source().read(); // the clusters from etcd; invalid or unreachable: not started
            new ConfigValidator(policies).check(effective);
            LoggerFactory.getLogger(Main.class).info("configuration: {} clusters, {} listeners and {} rate limits"
                    + " from {}", effective.clustersOrEmpty().size(), effective.listenersOrEmpty().size(),
                    effective.rateLimitsOrEmpty().size(), source.describe());
        }
        // Before anything listens: from the moment a port answers, a SIGHUP must reload, not end the JVM (129).
        reloadSignal = ReloadSignal.install();
        Transport transport = new Transport(threads, kind);
        Dispatcher dispatcher = new Dispatcher(effective, policies, transport, listeners, source);
        try {
            dispatcher.start(AdminToken.resolve(loaded.admin(), env), true);
        } catch (Exception e) {
            transport.close(); // the dispatcher closed itself
            throw e;
        }
        if (shared != null) {
            int adminPort = dispatcher.controlPlane() == null ? 0 : dispatcher.controlPlane().port();
            shared.attach(dispatcher, replicaId, adminPort, Main.version());
        }
        JmxExport jmx = JmxExport.wanted(System.getProperties())
                ? JmxExport.start(ManagementFactory.getPlatformMBeanServer(), dispatcher, Main.version(),
                        dispatcher::inFlight, true)
                : null;
        SystemdNotify systemd = SystemdNotify.fromEnvironment(env);
        reloadSignal.ready(dispatcher, systemd);
        return new Started(dispatcher, transport, shared, systemd, jmx);
    }

    /** {@code --worker-threads}, else {@code workerThreads} of the file, else one per core. */
    int workerThreads(LoadwiseConfig loaded) {
        if (workerThreads != null) {
            return workerThreads;
        }
        return loaded.workerThreads() != null ? loaded.workerThreads() : Transport.defaultWorkerThreads();
    }

    private String workerThreadsSource(LoadwiseConfig loaded) {
        if (workerThreads != null) {
            return "--worker-threads";
        }
        return loaded.workerThreads() != null ? "workerThreads in " + config.getFileName()
                : "one per core; set workerThreads or --worker-threads to change";
    }

    /** {@code --transport}, else {@code transport} of the file, else auto. */
    TransportKind transport(LoadwiseConfig loaded) {
        if (transport != null) {
            return transport;
        }
        return loaded.transport() != null ? TransportKind.byId(loaded.transport()) : TransportKind.AUTO;
    }

    private String transportSource(LoadwiseConfig loaded, TransportKind requested) {
        String from = transport != null ? "--transport"
                : loaded.transport() != null ? "transport in " + config.getFileName() : null;
        if (requested != TransportKind.AUTO) {
            return from;
        }
        String auto = System.getProperty(TransportKind.DEFAULT_PROPERTY) != null
                ? "auto: -D" + TransportKind.DEFAULT_PROPERTY : "auto: epoll when available, else nio";
        return from == null ? auto + "; set transport or --transport to change" : auto + ", from " + from;
    }

    private void checkWorkerThreads() {
        if (workerThreads != null && (workerThreads < 1 || workerThreads > ConfigValidator.MAX_WORKER_THREADS)) {
            throw new UsageException("--worker-threads " + workerThreads + " out of range 1.."
                    + ConfigValidator.MAX_WORKER_THREADS);
        }
    }

    /** {@code --transport}: one of {@link TransportKind#ids()}; also the completion candidates. */
    static final class TransportOption implements ITypeConverter<TransportKind>, Iterable<String> {
        @Override
        public TransportKind convert(String value) {
            TransportKind kind = TransportKind.byId(value);
            if (kind == null) {
                throw new TypeConversionException("'" + value + "' unknown, expected one of "
                        + String.join(", ", TransportKind.ids()));
            }
            return kind;
        }

        @Override
        public Iterator<String> iterator() {
            return TransportKind.ids().iterator();
        }
    }

    /** {@code --log-level}: one of {@link ConfigValidator#LOG_LEVELS}, any case; also the completion candidates. */
    static final class LogLevel implements ITypeConverter<String>, Iterable<String> {
        /** In the order of verbosity, for the message and for completion. */
        private static final List<String> LEVELS = List.of("trace", "debug", "info", "warn", "error", "off");

        @Override
        public String convert(String value) {
            String level = value.toLowerCase(Locale.ROOT);
            if (!ConfigValidator.LOG_LEVELS.contains(level)) {
                throw new TypeConversionException("'" + level + "' unknown, expected one of " + String.join(", ", LEVELS));
            }
            return level;
        }

        @Override
        public Iterator<String> iterator() {
            return LEVELS.iterator();
        }
    }
}
