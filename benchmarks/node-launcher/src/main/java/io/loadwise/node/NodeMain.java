package io.loadwise.node;

import io.loadwise.cli.Cli;
import io.loadwise.cli.ExitCode;
import io.loadwise.node.process.ParentWatch;
import io.loadwise.node.tomcat.TradeNodeServer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.apache.catalina.LifecycleException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one node in this JVM: {@code java -Xmx512m -jar loadwise-node-launcher.jar --name VCN1 --port 8081
 * --threads 12 --accept-queue 12 --jdbc-pool 10 --db-url jdbc:h2:tcp://127.0.0.1:9092/trade}. Once the
 * node serves, it prints {@link #READY_MARKER} with the bound port; it stops on SIGTERM/SIGINT.
 */
public final class NodeMain {

    /** Printed on standard output once the node serves: {@code LOADWISE_NODE_READY port=8081 route=VCN1}. */
    public static final String READY_MARKER = "LOADWISE_NODE_READY";
    static final String WAR_NAME = "loadwise-trade-app.war";
    private static final Logger LOG = LoggerFactory.getLogger(NodeMain.class);

    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        NodeArguments arguments = new NodeArguments();
        List<NodeOptions> parsed = new ArrayList<>(1);
        int code = Cli.execute(arguments.commandLine(), args, System.out, System.err, chosen -> {
            parsed.add(arguments.toOptions());
            return ExitCode.OK;
        });
        if (parsed.isEmpty()) { // --help answered, or a usage error printed
            System.exit(code);
            return;
        }
        NodeOptions options = parsed.get(0);
        Path war = options.war() != null ? options.war() : defaultWar();
        boolean temporaryWorkDir = options.workDir() == null;
        Path workDir = temporaryWorkDir
                ? Files.createTempDirectory("loadwise-node-" + options.name() + "-")
                : Files.createDirectories(options.workDir());
        TradeNodeServer server;
        try {
            server = TradeNodeServer.start(options, war, workDir);
        } catch (IOException | LifecycleException e) {
            LOG.error("node {} failed to start", options.name(), e);
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("node {} stopping", options.name());
            server.close();
            if (temporaryWorkDir) {
                deleteTree(workDir);
            }
            stopped.countDown();
        }, "node-shutdown"));
        if (options.exitWithParent()) {
            ParentWatch.exitAtEndOf(System.in);
        }
        GcPressure.startIfAsked();
        System.out.println(READY_MARKER + " port=" + server.port() + " route=" + options.name());
        System.out.flush();
        stopped.await();
    }

    /** The WAR beside the launcher jar, or beside target/classes when run from a build tree. */
    static Path defaultWar() throws URISyntaxException {
        Path code = Path.of(NodeMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return code.toAbsolutePath().getParent().resolve(WAR_NAME);
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete the temporary work directory {}", root, e);
        }
    }
}
