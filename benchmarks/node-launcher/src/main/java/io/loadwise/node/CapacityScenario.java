package io.loadwise.node;

/**
 * The five experiments of the seed's Table 9 on a three-node cluster (VCN1..3): VCN1 and VCN2 run at
 * {@link NodeCapacity#BASELINE}; VCN3 gets half of one resource, or of all three in {@link #COMBINED}.
 * The accept queue stays 12 everywhere, as in the table.
 */
public enum CapacityScenario {
    BASELINE,
    HEAP,
    HTTP_THREADS,
    JDBC,
    COMBINED;

    /** The number of nodes the table describes. */
    public static final int NODES = 3;

    /** The capacity of node {@code index} (0-based: 0 is VCN1). */
    public NodeCapacity capacity(int index) {
        if (index < 0 || index >= NODES) {
            throw new IllegalArgumentException("Table 9 has nodes 0.." + (NODES - 1) + ", got " + index);
        }
        NodeCapacity full = NodeCapacity.BASELINE;
        if (index < NODES - 1) {
            return full;
        }
        return switch (this) {
            case BASELINE -> full;
            case HEAP -> full.withHeapMb(full.heapMb() / 2);
            case HTTP_THREADS -> full.withHttpThreads(full.httpThreads() / 2);
            case JDBC -> full.withJdbcPool(full.jdbcPool() / 2);
            case COMBINED -> full.withHeapMb(full.heapMb() / 2).withHttpThreads(full.httpThreads() / 2)
                    .withJdbcPool(full.jdbcPool() / 2);
        };
    }
}
