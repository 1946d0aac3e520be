package io.loadwise.bench.sweep;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's 1, 5 and 15 minute load averages (the first three fields of {@code /proc/loadavg}),
 * recorded before and after every run so that a reader can see which runs shared the machine.
 * NaN where the system does not publish them (not Linux).
 */
public record LoadAverage(double one, double five, double fifteen) {

    public static final Path PROC = Path.of("/proc/loadavg");
    public static final LoadAverage UNKNOWN = new LoadAverage(Double.NaN, Double.NaN, Double.NaN);

    /** Reads {@code file} (in the format of /proc/loadavg); {@link #UNKNOWN} when it is absent or unreadable. */
    public static LoadAverage read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.US_ASCII));
        } catch (IOException | IllegalArgumentException e) {
            return UNKNOWN;
        }
    }

    /** "0.52 0.58 0.59 1/467 12345" → 0.52, 0.58, 0.59. */
    static LoadAverage parse(String text) {
        String[] fields = text.trim().split("\\s+");
        if (fields.length < 3) {
            throw new IllegalArgumentException("not a load average: '" + text + "'");
        }
        return new LoadAverage(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]),
                Double.parseDouble(fields[2]));
    }

    /** "0.52,0.58,0.59" for a CSV ("" fields when unknown). */
    public String csv() {
        return field(one) + "," + field(five) + "," + field(fifteen);
    }

    private static String field(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v);
    }
}
