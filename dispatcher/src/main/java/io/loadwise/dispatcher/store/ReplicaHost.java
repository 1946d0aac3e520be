package io.loadwise.dispatcher.store;

import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What {@link SharedStore#attach} needs of the dispatcher it makes a replica: owned here so that {@code store}
 * does not reach up into {@code runtime} (the runtime's {@code Dispatcher} implements it).
 */
public interface ReplicaHost {

    /** The configuration in force (the admin address the replica is announced with). */
    LoadwiseConfig config();

    /** Applies a configuration another replica wrote; throws when it is invalid (then nothing changed). */
    void applyShared(LoadwiseConfig next) throws ConfigValidationException;

    /** Cluster name to the address its listener bound, in configuration order, of the clusters listening. */
    Map<String, InetSocketAddress> listening();

    /** Makes the host one replica: its id, and where its list of live replicas comes from. */
    void setReplica(String id, Supplier<List<ReplicaInfo>> lister);
}
