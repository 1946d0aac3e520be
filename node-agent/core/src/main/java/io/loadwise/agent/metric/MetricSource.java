package io.loadwise.agent.metric;

import io.loadwise.wire.MetricGroup;

/**
 * One source of metrics (mod_cluster style): it takes its MXBean, SIGAR facade or file location through
 * its constructor, and each call adds what it can measure right now. Sources run only on the sampler
 * thread, so they may keep state between calls (e.g. the previous CPU tick counters) without locking.
 */
public interface MetricSource {

    MetricGroup group();

    /**
     * Adds the current values to the sink. A source that cannot measure something leaves it out; it may
     * throw when its backing facility fails, and the sampler logs that once and keeps going.
     */
    void collect(MetricSink sink) throws Exception;
}
