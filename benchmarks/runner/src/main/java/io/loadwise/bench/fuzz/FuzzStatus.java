package io.loadwise.bench.fuzz;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One libFuzzer status line, e.g. {@code #1048576 pulse  cov: 286 ft: 1062 corp: 225/20Kb exec/s: 8192 rss: 584Mb}:
 * inputs run so far, code edges covered, features, corpus entries and inputs per second.
 */
public record FuzzStatus(String event, long runs, int coverage, int features, int corpus, int execPerSecond) {

    private static final Pattern LINE = Pattern.compile(
            "#(\\d+)\\s+(\\w+)\\s+cov: (\\d+) ft: (\\d+) corp: (\\d+)/\\S+(?: lim: \\d+)? exec/s: (\\d+).*");

    /** The status in {@code line}, or {@code null} when it is not a libFuzzer status line. */
    public static FuzzStatus parse(String line) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            return null;
        }
        return new FuzzStatus(m.group(2), Long.parseLong(m.group(1)), Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)));
    }

    /** For a progress line: {@code 1048576 inputs, 8192/s, coverage 286, corpus 225}. */
    public String describe() {
        return runs + " inputs, " + execPerSecond + "/s, coverage " + coverage + ", corpus " + corpus;
    }
}
