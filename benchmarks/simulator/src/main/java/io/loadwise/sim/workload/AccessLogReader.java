package io.loadwise.sim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads an access log in Common or Combined Log Format (Apache/NCSA), plain or gzipped:
 * {@code host ident user [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 ["referer" "agent"]}.
 *
 * <p>Response size is the byte count ({@code -} = 0). A request is dynamic when its URL has a query
 * string or names a script ({@code /cgi-bin/}, {@code .cgi .pl .php .jsp .asp .aspx .do}). Requests
 * answered with status ≥ 400 are left out (seed 004 filtered its World Cup day the same way) and
 * counted. Records are ordered by timestamp (stable), then spread within their second.
 */
public final class AccessLogReader {

    private static final Pattern LINE = Pattern.compile(
            "^\\S+ \\S+ .+? \\[([^\\]]+)] \"([^\"]*)\" (\\d{3}) (\\d+|-)(?: .*)?$");
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);
    private static final Pattern SCRIPT =
            Pattern.compile(".*(/cgi-bin/|\\.(cgi|pl|php|jsp|asp|aspx|do)(\\W|$)).*", Pattern.CASE_INSENSITIVE);

    private AccessLogReader() {
    }

    public static LoadedTrace read(Path file) throws IOException {
        try (InputStream in = open(file)) {
            return read(in, file.toString());
        }
    }

    static InputStream open(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        return file.toString().endsWith(".gz") ? new GZIPInputStream(in, 1 << 16) : in;
    }

    public static LoadedTrace read(InputStream in, String name) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
        long[] seconds = new long[1024];
        long[] sizes = new long[1024];
        boolean[] dynamic = new boolean[1024];
        int n = 0;
        long malformed = 0;
        long excluded = 0;
        String firstMalformed = null;
        String line;
        long lineNo = 0;
        while ((line = reader.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            long epoch;
            if (!m.matches() || (epoch = parseTime(m.group(1))) == Long.MIN_VALUE) {
                malformed++;
                if (firstMalformed == null) {
                    firstMalformed = name + " line " + lineNo + ": not Common/Combined Log Format: "
                            + (line.length() > 120 ? line.substring(0, 120) + "…" : line);
                }
                continue;
            }
            if (Integer.parseInt(m.group(3)) >= 400) {
                excluded++;
                continue;
            }
            if (n == seconds.length) {
                seconds = Arrays.copyOf(seconds, n * 2);
                sizes = Arrays.copyOf(sizes, n * 2);
                dynamic = Arrays.copyOf(dynamic, n * 2);
            }
            seconds[n] = epoch;
            sizes[n] = "-".equals(m.group(4)) ? 0 : Long.parseLong(m.group(4));
            dynamic[n] = isDynamic(m.group(2));
            n++;
        }
        if (n == 0) {
            throw new IllegalArgumentException(name + ": no usable requests (" + malformed + " malformed lines, "
                    + excluded + " error responses)" + (firstMalformed == null ? "" : "; first problem: " + firstMalformed));
        }
        return new LoadedTrace(sortAndSpread(seconds, sizes, dynamic, n, "access log " + name),
                malformed, firstMalformed, excluded);
    }

    static boolean isDynamic(String requestLine) {
        String[] parts = requestLine.split(" ");
        String url = parts.length > 1 ? parts[1] : requestLine;
        return url.indexOf('?') >= 0 || SCRIPT.matcher(url).matches();
    }

    private static long parseTime(String text) {
        try {
            return OffsetDateTime.parse(text, TIME).toEpochSecond();
        } catch (DateTimeParseException e) {
            return Long.MIN_VALUE;
        }
    }

    /** Stable sort by second (logs merged from several servers are only roughly ordered), then spread. */
    static Trace sortAndSpread(long[] seconds, long[] sizes, boolean[] dynamic, int n, String description) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        final long[] keys = seconds;
        Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
        long[] sortedSeconds = new long[n];
        TraceBuilder builder = new TraceBuilder();
        for (int i = 0; i < n; i++) {
            int k = order[i];
            sortedSeconds[i] = seconds[k];
            builder.add(0, sizes[k], dynamic[k]);
        }
        SameSecondSpreader.spread(sortedSeconds, n, builder);
        return builder.build(description);
    }
}
