package io.loadwise.bench.provision;

import io.loadwise.node.NodeCapacity;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Brings up the database and the three nodes of one sweep cell, each with its capacity (heap, HTTP
 * worker threads, accept queue, JDBC pool), and deploys the web application. Implementations: embedded
 * Tomcat through the node launcher ({@link TomcatClusterProvisioner}, the default) and GlassFish 7
 * through asadmin ({@link GlassFishClusterProvisioner}).
 */
public interface ClusterProvisioner {

    /** "tomcat" or "glassfish". */
    String kind();

    /**
     * Starts a fresh database and the nodes VCN1..n with the given capacities under {@code workDir};
     * returns once every node serves its health page. Whatever was started is stopped if this fails.
     */
    ProvisionedCluster start(List<NodeCapacity> capacities, Path workDir, Duration timeout)
            throws IOException, InterruptedException;

    /** A running database and nodes; {@link #close()} stops them all and waits for them. */
    interface ProvisionedCluster extends AutoCloseable {

        List<BackendNode> nodes();

        /** The base URL of the application on a node, e.g. {@code http://127.0.0.1:8081/trade}. */
        String applicationUrl(BackendNode node);

        /**
         * The log a node's application writes to (embedded Tomcat: its node.log; GlassFish: its domain's server.log),
         * null when not known.
         */
        default java.nio.file.Path logFile(BackendNode node) {
            return null;
        }

        /** Log tails of the nodes, for a failed cell's report. */
        String diagnostics();

        @Override
        void close();
    }
}
