package io.loadwise.console.store;

/**
 * One time series of a store.
 *
 * @param metric the seed's metric name, as used in URLs and Prometheus labels (e.g. {@code JVM_HEAP_USED%})
 * @param dsName the rrd4j data source name (at most 20 characters), see {@link DsNames}
 * @param unit {@code ms}, {@code %}, {@code MB}, {@code req/s} …, for axis labels
 */
public record Series(String metric, String dsName, SeriesGroup group, String unit, String description) {

    static Series of(String metric, SeriesGroup group, String unit, String description) {
        return new Series(metric, DsNames.of(metric), group, unit, description);
    }
}
