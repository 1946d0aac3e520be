package io.loadwise.console.store;

/** How the metrics pages group series (seed 001 figures 29-34); the key is what the API shows. */
public enum SeriesGroup {
    /** Seed Table 2: the dispatcher's own figures. */
    DISPATCHER("dispatcher"),
    /** Seed Table 3 without the network subsystem. */
    OS("os"),
    /** Seed Table 3, {@code NET_TCP_*}. */
    OS_NETWORK("os-network"),
    /** Seed Table 5. */
    JVM("jvm"),
    /** Seed Table 4. */
    APPSERVER("appserver"),
    /** Seed Table 6: what the node monitor and the policy see of a node. */
    POLICY("policy");

    private final String key;

    SeriesGroup(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
