package io.loadwise.node.provision;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link NodeProvisioner} needs to bring one application-server node up: the seed's
 * capacity knobs (heap, HTTP worker threads, HTTP accept queue, JDBC pool size), the web application
 * and the jars the server itself must see (JDBC driver, logging binding), and the database behind the
 * container-managed {@code jdbc/TradeDB} DataSource.
 *
 * @param name         node name; also names the server's domain, so letters, digits, '-' and '_' only
 * @param port         HTTP port, or 0 to let the provisioner choose a free one
 * @param heapMb       maximum JVM heap ({@code -Xmx}) in MiB
 * @param workerThreads maximum HTTP worker threads
 * @param acceptQueue  maximum number of connections waiting for a worker thread
 * @param jdbcPool     maximum JDBC connections in the container's pool
 * @param warPath      the web application archive to deploy
 * @param contextPath  where to deploy it, e.g. "/trade"
 * @param extraLibs    jars for the server's common class path (visible to the container and all apps)
 * @param dbUrl        JDBC URL of the database behind jdbc/TradeDB
 * @param dbUser       database user
 * @param dbPassword   database password, may be empty
 */
public record NodeSpec(String name, int port, int heapMb, int workerThreads, int acceptQueue, int jdbcPool,
        Path warPath, String contextPath, List<Path> extraLibs, String dbUrl, String dbUser, String dbPassword) {

    /** The smallest heap a Jakarta EE server boots with at all. */
    public static final int MIN_HEAP_MB = 64;

    public NodeSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(warPath, "warPath");
        Objects.requireNonNull(contextPath, "contextPath");
        Objects.requireNonNull(dbUrl, "dbUrl");
        Objects.requireNonNull(dbUser, "dbUser");
        Objects.requireNonNull(dbPassword, "dbPassword");
        extraLibs = List.copyOf(Objects.requireNonNull(extraLibs, "extraLibs"));
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")) {
            throw new IllegalArgumentException("node name must be 1-64 letters, digits, '-' or '_' starting with a"
                    + " letter or digit, got '" + name + "'");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
        }
        requireAtLeast("heapMb", heapMb, MIN_HEAP_MB);
        requireAtLeast("workerThreads", workerThreads, 1);
        requireAtLeast("acceptQueue", acceptQueue, 1);
        requireAtLeast("jdbcPool", jdbcPool, 1);
        if (!contextPath.matches("/[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("contextPath must be '/' followed by one path segment, got '"
                    + contextPath + "'");
        }
        if (!dbUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("dbUrl must be a JDBC URL (jdbc:...), got '" + dbUrl + "'");
        }
        requireFile("warPath", warPath);
        for (Path lib : extraLibs) {
            requireFile("extraLibs entry", lib);
        }
    }

    private static void requireAtLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be at least " + min + ", got " + value);
        }
    }

    private static void requireFile(String field, Path path) {
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(field + " " + path + " is not a readable file");
        }
    }
}
