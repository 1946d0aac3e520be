package io.loadwise.node;

import io.loadwise.cli.Cli;
import io.loadwise.cli.HelpOption;
import io.loadwise.cli.UsageException;
import io.loadwise.node.process.ParentWatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Runs the shared trade database, an H2 TCP server, in this JVM:
 * {@code java -cp loadwise-node-launcher.jar io.loadwise.node.DatabaseMain --port 9092 --data-dir db}.
 * Prints {@link #READY_MARKER} with the bound port once it accepts connections; stops on SIGTERM.
 */
public final class DatabaseMain {

    /** Printed on standard output once the server listens: {@code LOADWISE_DB_READY port=9092}. */
    public static final String READY_MARKER = "LOADWISE_DB_READY";
    /** The database name in JDBC URLs: {@code jdbc:h2:tcp://host:port/trade}. */
    public static final String DATABASE_NAME = "trade";
    /** What the command line's body returns to say: go on and start. */
    private static final int START = -1;

    private DatabaseMain() {
    }

    /** The command line, which picocli fills in. */
    @Command(name = "DatabaseMain", description = "Runs the shared trade database, an H2 TCP server on 127.0.0.1, and prints "
            + READY_MARKER + " port=N once it accepts connections; stops on SIGTERM.")
    static final class Arguments {
        @Option(names = "--data-dir", paramLabel = "PATH", required = true, description = "where the database files go")
        Path dataDir;

        @Option(names = "--port", paramLabel = "N", description = "TCP port, 0 for any free port (default 9092)")
        int port = 9092;

        @Option(names = "--exit-with-parent", description = "exit when standard input reaches end of file")
        boolean exitWithParent;

        @Mixin
        HelpOption help;

        void check() {
            if (port < 0 || port > 65_535) {
                throw new UsageException("--port must be between 0 and 65535, got " + port);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Arguments arguments = new Arguments();
        int code = Cli.execute(Cli.configure(new CommandLine(arguments)), args, System.out, System.err, chosen -> {
            arguments.check();
            return START;
        });
        if (code != START) { // --help answered, or a usage error printed
            System.exit(code);
            return;
        }
        int port = arguments.port;
        Path dataDir = arguments.dataDir;
        boolean exitWithParent = arguments.exitWithParent;
        // Read by H2 once, when its classes load: listen on loopback only.
        System.setProperty("h2.bindAddress", "127.0.0.1");
        org.h2.tools.Server server = start(port, Files.createDirectories(dataDir));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            stopped.countDown();
        }, "database-shutdown"));
        if (exitWithParent) {
            ParentWatch.exitAtEndOf(System.in);
        }
        System.out.println(READY_MARKER + " port=" + server.getPort());
        System.out.flush();
        stopped.await();
    }

    private static org.h2.tools.Server start(int port, Path dataDir) throws SQLException {
        return org.h2.tools.Server.createTcpServer("-tcpPort", Integer.toString(port), "-ifNotExists",
                "-baseDir", dataDir.toAbsolutePath().toString()).start();
    }
}
