package io.loadwise.dispatcher.control;

/**
 * One named rate limit as it runs: its key table and what this replica enforces of it.
 *
 * @param replicas the live replicas sharing the configuration; this one enforces {@code 1/replicas}
 * @param enforcedRequestsPerSecond {@code requestsPerSecond / replicas}
 * @param tableBytes the key table's memory, approximately
 * @param limited requests answered 429 so far
 */
public record RateLimitStatus(String name, String key, double requestsPerSecond, int burst, int replicas,
        double enforcedRequestsPerSecond, int keys, int maxKeys, long tableBytes, long limited) {
}
