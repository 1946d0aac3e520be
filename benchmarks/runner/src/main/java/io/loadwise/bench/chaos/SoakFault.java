package io.loadwise.bench.chaos;

/**
 * One fault the soak injected: its number, kind ({@code kill}, {@code reload}, {@code policy}, {@code etcd},
 * {@code slow}, {@code storm}), when (s since the load began), how long the injection and recovery took, whether
 * it went as planned and what happened, in words.
 */
record SoakFault(int number, String kind, double atSeconds, double tookSeconds, boolean ok, String outcome) {
}
