package io.loadwise.node;

import io.loadwise.node.process.ChildJvm;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The shared trade database (an H2 TCP server) in its own JVM, started by
 * {@link NodeLauncher#startDatabase}; all nodes connect to {@link #jdbcUrl()}.
 */
public final class DatabaseProcess implements AutoCloseable {

    private final ChildJvm jvm;
    private final int port;

    DatabaseProcess(ChildJvm jvm, int port) {
        this.jvm = jvm;
        this.port = port;
    }

    public int port() {
        return port;
    }

    /** The URL for the nodes' {@code --db-url} (user {@code sa}, empty password). */
    public String jdbcUrl() {
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + DatabaseMain.DATABASE_NAME;
    }

    public long pid() {
        return jvm.pid();
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    public Path logFile() {
        return jvm.logFile();
    }

    public List<String> logTail(int lines) throws IOException {
        return jvm.logTail(lines);
    }

    /** Stops the database JVM (SIGTERM, a kill after 10 s); returns once it is gone. */
    @Override
    public void close() {
        jvm.close();
    }
}
