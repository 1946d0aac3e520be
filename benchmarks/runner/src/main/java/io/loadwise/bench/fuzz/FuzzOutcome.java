package io.loadwise.bench.fuzz;

import java.nio.file.Path;
import java.util.List;

/**
 * How one target's run ended.
 *
 * @param last libFuzzer's last status line; {@code null} when fuzzing never started
 * @param findings the inputs libFuzzer wrote (crash-, timeout-, ...), copied into the results
 * @param problem why the run failed without a finding (a build error, the overall time limit); else null
 */
public record FuzzOutcome(FuzzTarget target, FuzzStatus last, List<Path> findings, String problem) {

    public boolean passed() {
        return findings.isEmpty() && problem == null;
    }

    /** For the summary table: passed, N finding(s), or the problem. */
    public String verdict() {
        if (!findings.isEmpty()) {
            return findings.size() + (findings.size() == 1 ? " finding" : " findings");
        }
        return problem == null ? "passed" : "error: " + problem;
    }
}
