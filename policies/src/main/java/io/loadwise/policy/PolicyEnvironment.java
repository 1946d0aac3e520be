package io.loadwise.policy;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * What a picker may depend on besides its nodes: a random source, a clock and its options. Tests and
 * the simulator inject a seeded random source and a virtual clock.
 *
 * @param random thread-safe random source; production uses {@link ThreadLocalRandom}
 * @param nanoClock monotonic clock in nanoseconds
 * @param options validated policy options from the cluster configuration
 */
public record PolicyEnvironment(RandomGenerator random, LongSupplier nanoClock, PolicyOptions options) {

    private static final RandomGenerator THREAD_LOCAL = new RandomGenerator() {
        @Override
        public long nextLong() {
            return ThreadLocalRandom.current().nextLong();
        }

        @Override
        public int nextInt(int bound) {
            return ThreadLocalRandom.current().nextInt(bound);
        }

        @Override
        public double nextDouble() {
            return ThreadLocalRandom.current().nextDouble();
        }
    };

    /** Production environment: thread-local randomness, {@link System#nanoTime()}, no options. */
    public static PolicyEnvironment system() {
        return new PolicyEnvironment(THREAD_LOCAL, System::nanoTime, PolicyOptions.EMPTY);
    }

    /** Production environment with the given options. */
    public static PolicyEnvironment system(PolicyOptions options) {
        return new PolicyEnvironment(THREAD_LOCAL, System::nanoTime, options);
    }
}
