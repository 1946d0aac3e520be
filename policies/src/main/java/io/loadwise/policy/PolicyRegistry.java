package io.loadwise.policy;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The policies found on the class path through {@link ServiceLoader}: the built-in ones and any a third
 * party drops in as a JAR with a {@code META-INF/services/io.loadwise.policy.LoadBalancingPolicy} entry.
 */
public final class PolicyRegistry {

    private final Map<String, LoadBalancingPolicy> byId;

    private PolicyRegistry(Map<String, LoadBalancingPolicy> byId) {
        this.byId = Collections.unmodifiableMap(byId);
    }

    /** Loads every policy visible to this class's class loader. Duplicate ids are an error. */
    public static PolicyRegistry load() {
        return load(PolicyRegistry.class.getClassLoader());
    }

    public static PolicyRegistry load(ClassLoader loader) {
        Map<String, LoadBalancingPolicy> byId = new TreeMap<>();
        for (LoadBalancingPolicy policy : ServiceLoader.load(LoadBalancingPolicy.class, loader)) {
            LoadBalancingPolicy clash = byId.putIfAbsent(policy.id(), policy);
            if (clash != null) {
                throw new IllegalStateException("policy id '" + policy.id() + "' is registered twice: "
                        + clash.getClass().getName() + " and " + policy.getClass().getName());
            }
        }
        return new PolicyRegistry(byId);
    }

    /** The policy with this id; throws {@link UnknownPolicyException} listing the known ids otherwise. */
    public LoadBalancingPolicy get(String id) {
        LoadBalancingPolicy policy = byId.get(id);
        if (policy == null) {
            throw new UnknownPolicyException(id, byId.keySet());
        }
        return policy;
    }

    public boolean contains(String id) {
        return byId.containsKey(id);
    }

    /** Every policy by id, sorted. */
    public Map<String, LoadBalancingPolicy> all() {
        return byId;
    }
}
