package io.loadwise.node;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database plus a set of nodes, started together and stopped together: what {@code loadwise demo}
 * and the benchmarks run. If any part fails to start, the parts already started are stopped.
 *
 * <pre>{@code
 * try (NodeCluster cluster = NodeCluster.start(launcher, 9092,
 *         NodeSpec.table9(CapacityScenario.BASELINE, List.of(8081, 8082, 8083)), Duration.ofSeconds(90))) {
 *     // point the dispatcher at cluster.nodes()
 * }
 * }</pre>
 */
public final class NodeCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeCluster.class);

    private final DatabaseProcess database;
    private final List<NodeProcess> nodes;

    private NodeCluster(DatabaseProcess database, List<NodeProcess> nodes) {
        this.database = database;
        this.nodes = List.copyOf(nodes);
    }

    /** Starts the database, then all nodes in parallel, and waits until every node is healthy. */
    public static NodeCluster start(NodeLauncher launcher, int databasePort, List<NodeSpec> specs, Duration timeout)
            throws IOException, InterruptedException {
        DatabaseProcess database = launcher.startDatabase(databasePort, timeout);
        List<NodeProcess> started = new ArrayList<>();
        try {
            for (NodeSpec spec : specs) {
                started.add(launcher.startNode(spec, database.jdbcUrl()));
            }
            for (NodeProcess node : started) {
                node.awaitHealthy(timeout);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            new NodeCluster(database, started).close();
            throw e;
        }
        LOG.info("cluster up: database on port {}, nodes {}", database.port(), started.stream()
                .map(n -> n.name() + "@" + n.port()).toList());
        return new NodeCluster(database, started);
    }

    public DatabaseProcess database() {
        return database;
    }

    public List<NodeProcess> nodes() {
        return nodes;
    }

    /** Stops every node, then the database; nothing of the cluster runs afterwards. */
    @Override
    public void close() {
        nodes.forEach(NodeProcess::requestStop);
        for (NodeProcess node : nodes) {
            node.close();
        }
        database.close();
    }
}
