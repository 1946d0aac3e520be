package io.loadwise.bench.sweep;

import java.nio.file.Path;

/**
 * What JMeter runs and how a cell prepares the application: the plan, the request path through the
 * dispatcher, the database reset request sent to the first node (null for none), and the timing.
 *
 * @param plan        the .jmx test plan; it must read the properties host, port, path, threads,
 *                    rampStepSeconds and sustainSeconds
 * @param path        the sampled path, e.g. {@code /trade/scenario}
 * @param resetPath   path and query that reset the database on one node, e.g.
 *                    {@code /trade/config?action=buildDB&users=500&quotes=1000}; null for none
 * @param durations   the load's timing
 * @param perRequest  HTTP rows balance per request with cookie affinity instead of per connection
 * @param connectionTtlMs JMeter's keep-alive connection lifetime ({@code httpclient4.time_to_live}): a
 *                    thread reconnects, and so gets a new node selection, after this long
 */
public record Workload(Path plan, String path, String resetPath, Durations durations, boolean perRequest,
        int connectionTtlMs) {
}
