package io.loadwise.node.provision;

/**
 * Brings one application-server node up with a scenario's capacity settings and takes it down again.
 * Implementations: GlassFish 7 through asadmin ({@code io.loadwise.node.glassfish.GlassFishProvisioner});
 * the embedded-Tomcat launcher is the default elsewhere.
 *
 * <p>One provisioner instance manages one node. {@link #stop()} must leave no process behind, also
 * after a failed {@link #start}, and may be called more than once.
 */
public interface NodeProvisioner extends AutoCloseable {

    /** Short name of the server kind, e.g. "glassfish". */
    String kind();

    /**
     * Creates, configures and starts the node and deploys the spec's web application; returns once the
     * application is deployed.
     *
     * @throws ProvisioningException when any step fails; what the server said is in the message
     * @throws IllegalStateException when this provisioner already runs a node
     */
    RunningNode start(NodeSpec spec) throws ProvisioningException;

    /** Stops the node and removes any process it left; a no-op when nothing runs. */
    void stop();

    @Override
    default void close() {
        stop();
    }
}
