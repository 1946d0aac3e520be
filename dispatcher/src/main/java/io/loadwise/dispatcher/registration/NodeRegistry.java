package io.loadwise.dispatcher.registration;

import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.config.NodeConfig;
import io.loadwise.dispatcher.config.RegistrationConfig;
import io.loadwise.dispatcher.control.NodeRegistration;
import io.loadwise.dispatcher.control.RegistrationRefusedException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The nodes that registered themselves, per cluster, in memory only. The configuration in force plus these
 * ({@link #overlay}) is what the dispatcher runs; the file never sees them. Bounded: a cluster holds at most
 * {@code registration.maxNodes} registered nodes. Not thread-safe: the dispatcher calls it under its lock.
 */
public final class NodeRegistry {

    /** What a registration call changed. */
    public enum Outcome {
        /** A node the cluster did not have: the cluster is rebuilt with it. */
        ADDED,
        /** A registered node whose address, route or contexts changed: the cluster is rebuilt. */
        CHANGED,
        /** Only the heartbeat time moved. */
        RENEWED
    }

    private static final class Entry {
        NodeRegistration registration;
        long lastSeenNanos;
        /** Deregistered: draining until its requests in flight end; {@code Long.MIN_VALUE} when not leaving. */
        long leavingSinceNanos = Long.MIN_VALUE;

        Entry(NodeRegistration registration, long now) {
            this.registration = registration;
            this.lastSeenNanos = now;
        }

        boolean leaving() {
            return leavingSinceNanos != Long.MIN_VALUE;
        }
    }

    private final Map<String, Map<String, Entry>> byCluster = new LinkedHashMap<>();
    private final LongSupplier nanoClock;

    public NodeRegistry(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /**
     * Registers or renews {@code r} with {@code cluster} (its configuration in force).
     *
     * @throws RegistrationRefusedException 403 when the cluster takes no registrations or the address is not
     *     in its allowed networks, 400 for malformed fields, 409 when the name is a configured node's or the
     *     cluster is full
     */
    public Outcome register(ClusterConfig cluster, NodeRegistration r) {
        if (!cluster.registrationEnabled()) {
            throw new RegistrationRefusedException(403, "cluster '" + cluster.name() + "' takes no registrations "
                    + "(registration.enabled is not true)");
        }
        List<String> problems = RegistrationCheck.fields(r);
        if (!problems.isEmpty()) {
            throw new RegistrationRefusedException(400, "invalid registration", problems);
        }
        RegistrationConfig settings = cluster.registration();
        if (!RegistrationCheck.allowed(settings, r.address())) {
            throw new RegistrationRefusedException(403, "address " + r.address() + " is outside the allowed "
                    + "networks of cluster '" + cluster.name() + "' " + settings.allowedNetworksOrEmpty());
        }
        for (NodeConfig configured : cluster.nodesOrEmpty()) {
            if (configured.name().equals(r.name())) {
                throw new RegistrationRefusedException(409, "cluster '" + cluster.name() + "' has a configured "
                        + "node named '" + r.name() + "'; a registered node needs a name of its own");
            }
        }
        Map<String, Entry> nodes = byCluster.computeIfAbsent(cluster.name(), k -> new LinkedHashMap<>());
        long now = nanoClock.getAsLong();
        Entry entry = nodes.get(r.name());
        if (entry == null) {
            if (nodes.size() >= settings.maxNodesOrDefault()) {
                throw new RegistrationRefusedException(409, "cluster '" + cluster.name() + "' already holds "
                        + nodes.size() + " registered nodes, its registration.maxNodes");
            }
            nodes.put(r.name(), new Entry(r, now));
            return Outcome.ADDED;
        }
        entry.lastSeenNanos = now;
        boolean wasLeaving = entry.leaving();
        entry.leavingSinceNanos = Long.MIN_VALUE;
        if (!entry.registration.equals(r)) {
            entry.registration = r;
            return Outcome.CHANGED;
        }
        return wasLeaving ? Outcome.CHANGED : Outcome.RENEWED;
    }

    /**
     * Marks a registered node as leaving: it stays (draining) until {@link #removeLeft} takes it out.
     *
     * @return whether such a node is registered
     */
    public boolean leave(String cluster, String node) {
        Entry entry = byCluster.getOrDefault(cluster, Map.of()).get(node);
        if (entry == null) {
            return false;
        }
        if (!entry.leaving()) {
            entry.leavingSinceNanos = nanoClock.getAsLong();
        }
        return true;
    }

    /** The registered nodes of {@code cluster} now leaving (deregistered, draining). */
    public Set<String> leaving(String cluster) {
        Set<String> names = new java.util.LinkedHashSet<>();
        for (Map.Entry<String, Entry> e : byCluster.getOrDefault(cluster, Map.of()).entrySet()) {
            if (e.getValue().leaving()) {
                names.add(e.getKey());
            }
        }
        return names;
    }

    /** Names of the registered nodes of {@code cluster}. */
    public Set<String> names(String cluster) {
        return Set.copyOf(byCluster.getOrDefault(cluster, Map.of()).keySet());
    }

    /**
     * Removes what has to go: registrations whose last heartbeat is older than their cluster's TTL, leaving
     * nodes that {@code drained} says are idle or that have been leaving for a TTL, and the registrations of
     * clusters that are gone or no longer take registrations.
     *
     * @return whether anything was removed (the clusters must be rebuilt)
     */
    public boolean removeLeft(LoadwiseConfig config, Drained drained) {
        long now = nanoClock.getAsLong();
        boolean removed = false;
        Map<String, ClusterConfig> clusters = new LinkedHashMap<>();
        for (ClusterConfig c : config.clustersOrEmpty()) {
            clusters.put(c.name(), c);
        }
        for (Iterator<Map.Entry<String, Map<String, Entry>>> it = byCluster.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Map<String, Entry>> cluster = it.next();
            ClusterConfig c = clusters.get(cluster.getKey());
            if (c == null || !c.registrationEnabled()) {
                removed |= !cluster.getValue().isEmpty();
                it.remove();
                continue;
            }
            long ttl = c.registration().ttlMsOrDefault() * 1_000_000L;
            for (Iterator<Map.Entry<String, Entry>> nodes = cluster.getValue().entrySet().iterator(); nodes.hasNext();) {
                Map.Entry<String, Entry> node = nodes.next();
                Entry e = node.getValue();
                boolean expired = now - e.lastSeenNanos > ttl;
                boolean left = e.leaving() && (now - e.leavingSinceNanos > ttl
                        || drained.idle(cluster.getKey(), node.getKey()));
                if (expired || left) {
                    nodes.remove();
                    removed = true;
                }
            }
        }
        return removed;
    }

    /** Tells whether a leaving node has no request or connection in flight any more. */
    @FunctionalInterface
    public interface Drained {
        boolean idle(String cluster, String node);
    }

    /**
     * {@code config} with each cluster's registered nodes appended to its configured ones: what the dispatcher
     * runs. Clusters without registered nodes are the same objects.
     */
    public LoadwiseConfig overlay(LoadwiseConfig config) {
        if (byCluster.isEmpty()) {
            return config;
        }
        List<ClusterConfig> clusters = new ArrayList<>();
        for (ClusterConfig c : config.clustersOrEmpty()) {
            Map<String, Entry> registered = byCluster.get(c.name());
            if (registered == null || registered.isEmpty() || !c.registrationEnabled()) {
                clusters.add(c);
                continue;
            }
            List<NodeConfig> nodes = new ArrayList<>(c.nodesOrEmpty());
            Set<String> configured = new java.util.HashSet<>();
            for (NodeConfig n : nodes) {
                configured.add(n.name());
            }
            for (Entry e : registered.values()) {
                NodeRegistration r = e.registration;
                if (configured.contains(r.name())) {
                    continue; // a node of that name was configured since: the configuration wins
                }
                nodes.add(new NodeConfig(r.name(), r.address(), null, null, r.route(), null, null, null, r.contexts()));
            }
            clusters.add(c.toBuilder().nodes(nodes).build());
        }
        return config.withClusters(clusters);
    }
}
