package io.loadwise.node;

/**
 * A node's capacity knobs, the columns of the seed's Table 9: JVM heap ({@code -Xmx}), HTTP worker
 * threads (Tomcat {@code maxThreads}), HTTP request queue ({@code maxQueueSize}) and JDBC pool size
 * ({@code maxTotal} of the container's DataSource).
 */
public record NodeCapacity(int heapMb, int httpThreads, int acceptQueue, int jdbcPool) {

    /** Table 9's full-capacity node: 512 MB, 12 threads, queue 12, 10 connections. */
    public static final NodeCapacity BASELINE = new NodeCapacity(512, 12, 12, 10);

    public NodeCapacity {
        requireAtLeast("heapMb", heapMb, 32);
        requireAtLeast("httpThreads", httpThreads, 1);
        requireAtLeast("acceptQueue", acceptQueue, 1);
        requireAtLeast("jdbcPool", jdbcPool, 1);
    }

    public NodeCapacity withHeapMb(int value) {
        return new NodeCapacity(value, httpThreads, acceptQueue, jdbcPool);
    }

    public NodeCapacity withHttpThreads(int value) {
        return new NodeCapacity(heapMb, value, acceptQueue, jdbcPool);
    }

    public NodeCapacity withAcceptQueue(int value) {
        return new NodeCapacity(heapMb, httpThreads, value, jdbcPool);
    }

    public NodeCapacity withJdbcPool(int value) {
        return new NodeCapacity(heapMb, httpThreads, acceptQueue, value);
    }

    private static void requireAtLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
    }
}
