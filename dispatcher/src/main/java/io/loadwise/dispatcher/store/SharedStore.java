package io.loadwise.dispatcher.store;

import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.StoreConfig;
import io.loadwise.dispatcher.control.ReplicaInfo;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One replica's connection to the etcd configuration centre: the {@link EtcdConfigSource} its dispatcher reads
 * and writes, the watch that applies other replicas' changes, and its {@link ReplicaRegistry} entry.
 */
public final class SharedStore implements AutoCloseable {

    private final EtcdConfigSource source;
    private final EtcdClient etcd;
    private final StoreConfig settings;
    private ReplicaRegistry registry;

    public SharedStore(StoreConfig settings, ConfigStore localFile) {
        this.settings = settings;
        this.etcd = new EtcdClient(settings.endpointsOrEmpty());
        this.source = new EtcdConfigSource(etcd, settings.prefix(), localFile);
    }

    public EtcdConfigSource source() {
        return source;
    }

    /**
     * Follows etcd for {@code dispatcher} (applying what other replicas write) and registers it as a replica.
     *
     * @param replicaId {@code --replica-id}, or {@code null} for host name and admin port
     * @param adminPort the port the admin API bound, 0 when it does not run
     */
    public void attach(ReplicaHost dispatcher, String replicaId, int adminPort, String version) {
        source.watch(dispatcher::applyShared);
        String host = dispatcher.config().admin() == null || dispatcher.config().admin().listen() == null
                ? "127.0.0.1" : dispatcher.config().admin().listen().replaceAll(":[0-9]+$", "");
        String id = replicaId != null ? replicaId : hostName() + ":" + adminPort;
        List<String> listen = new ArrayList<>();
        for (Map.Entry<String, InetSocketAddress> bound : dispatcher.listening().entrySet()) {
            listen.add(bound.getKey() + "=" + bound.getValue().getHostString() + ":" + bound.getValue().getPort());
        }
        ReplicaInfo self = new ReplicaInfo(id, "http://" + host + ":" + adminPort, listen, version,
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        registry = new ReplicaRegistry(etcd, settings.prefix(), settings.leaseTtlSecondsOrDefault(), self);
        registry.start();
        dispatcher.setReplica(id, registry::list);
    }

    /** The registry entry (tests simulate a crash with {@link ReplicaRegistry#abandon}). */
    ReplicaRegistry registry() {
        return registry;
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

    @Override
    public void close() {
        source.close();
        if (registry != null) {
            registry.close();
        }
    }
}
