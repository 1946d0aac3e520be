package io.loadwise.wire;

/** The seed's three metric tables; each group reports which source produced it. */
public enum MetricGroup {
    /** Seed table 3. */
    OS("os"),
    /** Seed table 4. */
    APP_SERVER("appserver"),
    /** Seed table 5. */
    JVM("jvm");

    private final String key;

    MetricGroup(String key) {
        this.key = key;
    }

    /** The group's key in the metrics document's {@code sources} object. */
    public String key() {
        return key;
    }
}
