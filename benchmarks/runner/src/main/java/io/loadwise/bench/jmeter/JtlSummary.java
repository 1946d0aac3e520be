package io.loadwise.bench.jmeter;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What JMeter's own results file (CSV JTL with a header line) says about a run: samples, failed samples
 * ({@code success=false}, as JMeter decided them), throughput, and elapsed-time mean and percentiles.
 *
 * @param samples        sample lines
 * @param failed         samples with {@code success=false}
 * @param firstStartMs   earliest sample start (epoch ms)
 * @param lastEndMs      latest sample end (epoch ms)
 * @param meanMs         mean elapsed time
 * @param p50Ms          median elapsed time
 * @param p90Ms          90th percentile
 * @param p99Ms          99th percentile
 * @param maxMs          longest sample
 * @param failuresByCode failed samples per response code (or exception message class)
 */
public record JtlSummary(long samples, long failed, long firstStartMs, long lastEndMs, double meanMs, long p50Ms,
        long p90Ms, long p99Ms, long maxMs, Map<String, Long> failuresByCode) {

    /** Seconds from the first sample's start to the last sample's end. */
    public double durationSeconds() {
        return samples == 0 ? 0 : Math.max(1, lastEndMs - firstStartMs) / 1000.0;
    }

    /** Samples per second over {@link #durationSeconds()}, as JMeter's summary reports it. */
    public double throughput() {
        return samples == 0 ? 0 : samples / durationSeconds();
    }

    /** Successful samples per second: the seed's "completed HTTP requests per second". */
    public double completedPerSecond() {
        return samples == 0 ? 0 : (samples - failed) / durationSeconds();
    }

    public double failedPercent() {
        return samples == 0 ? 0 : failed * 100.0 / samples;
    }

    /** Reads a CSV JTL; fails on a file without the columns this needs. */
    public static JtlSummary read(Path jtl) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                throw new IOException(jtl + " is empty: not a JMeter CSV results file");
            }
            List<String> columns = CsvLine.split(header);
            int timeStamp = column(columns, "timeStamp", jtl);
            int elapsed = column(columns, "elapsed", jtl);
            int success = column(columns, "success", jtl);
            int code = column(columns, "responseCode", jtl);
            long[] times = new long[1024];
            int count = 0;
            long failed = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            double sum = 0;
            Map<String, Long> failures = new TreeMap<>();
            String line;
            int lineNumber = 1;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                while (quotes(line) % 2 == 1) { // a quoted field with a line break goes on
                    String more = in.readLine();
                    if (more == null) {
                        throw new IOException(jtl + " line " + lineNumber + ": unterminated quoted field");
                    }
                    line = line + "\n" + more;
                    lineNumber++;
                }
                if (line.isBlank()) {
                    continue;
                }
                List<String> fields = CsvLine.split(line);
                if (fields.size() < columns.size()) {
                    throw new IOException(jtl + " line " + lineNumber + ": " + fields.size() + " fields, the header has "
                            + columns.size());
                }
                long start = Long.parseLong(fields.get(timeStamp));
                long took = Long.parseLong(fields.get(elapsed));
                if (count == times.length) {
                    times = Arrays.copyOf(times, count * 2);
                }
                times[count++] = took;
                sum += took;
                first = Math.min(first, start);
                last = Math.max(last, start + took);
                if (!Boolean.parseBoolean(fields.get(success))) {
                    failed++;
                    failures.merge(fields.get(code), 1L, Long::sum);
                }
            }
            if (count == 0) {
                return new JtlSummary(0, 0, 0, 0, 0, 0, 0, 0, 0, Map.of());
            }
            long[] sorted = Arrays.copyOf(times, count);
            Arrays.sort(sorted);
            return new JtlSummary(count, failed, first, last, sum / count, percentile(sorted, 50),
                    percentile(sorted, 90), percentile(sorted, 99), sorted[count - 1], Map.copyOf(failures));
        } catch (NumberFormatException e) {
            throw new IOException(jtl + ": not a JMeter CSV results file (" + e.getMessage() + ")", e);
        }
    }

    private static int quotes(String line) {
        int n = 0;
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '"') {
                n++;
            }
        }
        return n;
    }

    /** Nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static int column(List<String> columns, String name, Path jtl) throws IOException {
        int index = columns.indexOf(name);
        if (index < 0) {
            throw new IOException(jtl + ": no '" + name + "' column in the header " + columns
                    + " (save the JTL as CSV with field names)");
        }
        return index;
    }
}
