package io.loadwise.dispatcher.cli;

/**
 * Netty settings the dispatcher process runs with unless the operator sets them ({@code -Dname=value} or
 * {@code JAVA_OPTS}). They must be set before any Netty buffer class loads, so {@link Main} applies them
 * first.
 *
 * <ul>
 *   <li>{@code io.netty.allocator.type=pooled}: Netty 4.2 defaults to its adaptive allocator, built for
 *       many short-lived (virtual) threads. A proxy allocates on a few long-lived event loops, where the
 *       pooled allocator's thread-local caches serve each buffer without touching shared state: 5 % less
 *       CPU per proxied request in the overhead benchmark (docs/performance.md).
 *   <li>{@code io.netty.leakDetection.level=disabled}: the default (simple) level records a stack trace
 *       for one buffer in 128, 2 % of the CPU of a proxied request. The test suite runs at
 *       {@code paranoid}; an operator chasing a suspected leak sets {@code -Dio.netty.leakDetection.level=simple}.
 * </ul>
 */
final class NettyDefaults {

    static final String ALLOCATOR = "io.netty.allocator.type";
    static final String LEAK_DETECTION = "io.netty.leakDetection.level";

    private NettyDefaults() {
    }

    static void apply() {
        setUnlessGiven(ALLOCATOR, "pooled");
        setUnlessGiven(LEAK_DETECTION, "disabled");
    }

    private static void setUnlessGiven(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
