package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.metrics.LatencyHistogram;
import java.util.concurrent.atomic.LongAdder;

/** Requests one route took, by the status class they got: what the API and Prometheus show per route. */
public final class RouteCounter {

    /** The route's name, or {@code null}: what its spans name ({@code loadwise.route}). */
    private final String name;

    public RouteCounter(String name) {
        this.name = name;
    }

    public RouteCounter() {
        this(null);
    }

    public String name() {
        return name;
    }

    private final LongAdder[] byClass = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(),
        new LongAdder()};

    /** Head received → response complete, whatever answered. */
    private final LatencyHistogram duration = new LatencyHistogram();

    /**
     * Counts a request that got {@code status} (100-599; any other status counts as 5xx) and took
     * {@code nanos} from its head to the end of its answer.
     */
    public void answered(int status, long nanos) {
        int c = status / 100 - 1;
        byClass[c >= 0 && c < 5 ? c : 4].increment();
        duration.record(nanos);
    }

    /** The route's request durations so far. */
    public LatencyHistogram.Reading duration() {
        return duration.read();
    }

    /** Requests that got a status of class {@code hundreds} (1 to 5). */
    public long count(int hundreds) {
        return byClass[hundreds - 1].sum();
    }

    public long total() {
        long sum = 0;
        for (LongAdder a : byClass) {
            sum += a.sum();
        }
        return sum;
    }
}
