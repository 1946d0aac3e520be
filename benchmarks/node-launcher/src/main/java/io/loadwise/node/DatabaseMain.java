package io.loadwise.node;

import io.loadwise.node.process.ParentWatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;

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

    private DatabaseMain() {
    }

    public static void main(String[] args) throws Exception {
        int port = 9092;
        Path dataDir = null;
        boolean exitWithParent = false;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--port" -> port = port(value(args, ++i, "--port"));
                    case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                    case "--exit-with-parent" -> exitWithParent = true;
                    default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
                }
            }
            if (dataDir == null) {
                throw new IllegalArgumentException("--data-dir is required");
            }
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: DatabaseMain --data-dir PATH [--port N (0 = any free port)] [--exit-with-parent]");
            System.exit(2);
            return;
        }
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

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("--port must be between 0 and 65535, got " + port);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port needs an integer, got '" + value + "'", e);
        }
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }
}
