package io.loadwise.dispatcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.loadwise.cli.Cli;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.net.TransportKind;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import io.netty.util.concurrent.EventExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * {@code run}'s worker threads: {@code --worker-threads}, else {@code workerThreads} of the file, else one per core;
 * and its transport the same way: {@code --transport}, else {@code transport} of the file, else auto.
 */
class RunCommandTest {

    @TempDir
    Path dir;

    private Path config(String workerThreads) throws Exception {
        Path file = dir.resolve("loadwise.json");
        Files.writeString(file, ("{'admin':{'token':'test-token-0123456789'}," + workerThreads + "'clusters':["
                + "{'name':'a','mode':'tcp','listen':'127.0.0.1:0','policy':'test-round-robin',"
                + "'nodes':[{'name':'n1','address':'127.0.0.1:9001'}]}]}").replace('\'', '"'));
        return file;
    }

    /** {@code run ARGS} as the command line parses it, without starting anything. */
    private static RunCommand parsed(String... args) {
        RunCommand run = new RunCommand();
        Cli.configure(new CommandLine(run)).parseArgs(args);
        return run;
    }

    private static int eventLoops(Transport transport) {
        int count = 0;
        for (EventExecutor ignored : transport.workers()) {
            count++;
        }
        return count;
    }

    @Test
    void theCommandLineOverridesTheFileAndTheDispatcherRunsOnThatManyThreads() throws Exception {
        Path file = config("'workerThreads':2,");
        RunCommand run = parsed("--config", file.toString(), "--worker-threads", "3");
        LoadwiseConfig loaded = ConfigLoader.load(file);
        try (RunCommand.Started started = run.start(loaded, Map.of())) {
            assertEquals(3, started.transport().workerThreads());
            assertEquals(3, eventLoops(started.transport()));
            assertEquals(1, started.dispatcher().clusters().size(), "the dispatcher started on them");
        }
    }

    @Test
    void withoutTheOptionTheFileDecides() throws Exception {
        Path file = config("'workerThreads':2,");
        RunCommand run = parsed("--config", file.toString());
        try (RunCommand.Started started = run.start(ConfigLoader.load(file), Map.of())) {
            assertEquals(2, started.transport().workerThreads());
            assertEquals(2, eventLoops(started.transport()));
        }
    }

    @Test
    void withNeitherItIsOnePerCore() throws Exception {
        Path file = config("");
        RunCommand run = parsed("--config", file.toString());
        assertEquals(Runtime.getRuntime().availableProcessors(), run.workerThreads(ConfigLoader.load(file)));
    }

    @Test
    void theTransportOnTheCommandLineOverridesTheFileAndTheDispatcherRunsOnIt() throws Exception {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable here: " + IoUring.unavailabilityCause());
        Path file = config("'transport':'nio',");
        RunCommand run = parsed("--config", file.toString(), "--transport", "io_uring", "--worker-threads", "1");
        try (RunCommand.Started started = run.start(ConfigLoader.load(file), Map.of())) {
            assertEquals(TransportKind.IO_URING, started.transport().kind());
            assertEquals(1, started.dispatcher().clusters().size(), "the dispatcher started on it");
        }
    }

    @Test
    void withoutTheTransportOptionTheFileDecides() throws Exception {
        Path file = config("'transport':'nio',");
        RunCommand run = parsed("--config", file.toString(), "--worker-threads", "1");
        try (RunCommand.Started started = run.start(ConfigLoader.load(file), Map.of())) {
            assertEquals(TransportKind.NIO, started.transport().kind());
        }
    }

    @Test
    void withNeitherTheTransportIsAuto() throws Exception {
        Path file = config("");
        assertEquals(TransportKind.AUTO, parsed("--config", file.toString()).transport(ConfigLoader.load(file)));
    }

    @Test
    void autoLogsTheTransportItChose() throws Exception {
        assumeTrue(System.getProperty(TransportKind.DEFAULT_PROPERTY) == null, "this run sets auto's default");
        Logger logger = (Logger) LoggerFactory.getLogger(Main.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Level level = logger.getLevel();
        logged.start();
        logger.addAppender(logged);
        logger.setLevel(Level.INFO);
        Path file = config("");
        try (RunCommand.Started started = parsed("--config", file.toString(), "--worker-threads", "1")
                .start(ConfigLoader.load(file), Map.of())) {
            String chosen = Epoll.isAvailable() ? "epoll" : "nio";
            assertEquals(chosen, started.transport().kind().id());
            List<String> lines = logged.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.startsWith("transport: ")).toList();
            assertEquals(List.of("transport: " + chosen
                    + " (auto: epoll when available, else nio; set transport or --transport to change)"), lines);
        } finally {
            logger.detachAppender(logged);
            logger.setLevel(level);
        }
    }
}
