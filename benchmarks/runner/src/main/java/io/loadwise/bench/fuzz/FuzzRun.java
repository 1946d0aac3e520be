package io.loadwise.bench.fuzz;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Fuzzes one target through Maven, exactly as {@code mvn verify} does but for longer: the parent pom's
 * surefire executions "fuzz-seeds" (each seed once, 10 s at most) and "fuzz" (JAZZER_FUZZ=1, a JVM of its
 * own, libFuzzer's 10 s per-input timeout), with
 * {@code jazzer.max_duration} raised and Jazzer's working directory (generated corpus, crashing inputs)
 * in {@code workDir}, which keeps the corpus from one run to the next. Maven's whole output goes to
 * {@code workDir/maven.log}; the progress lines, a status at most every {@link #PROGRESS_EVERY}, and every
 * line about a finding or an error, are printed and kept in the results.
 */
public final class FuzzRun {

    static final Duration PROGRESS_EVERY = Duration.ofSeconds(15);
    /** Beyond the fuzzing time: Maven's start, compiling the module and what it depends on, the seeds. */
    static final Duration OVERHEAD_ALLOWED = Duration.ofMinutes(15);
    /** libFuzzer's names for the inputs it writes: crash-, timeout-, oom-, leak-, slow-unit-. */
    private static final Pattern FINDING = Pattern.compile("(crash|timeout|oom|leak|slow-unit)-[0-9a-f]+");
    private static final Pattern REPORTED = Pattern.compile(
            "^(==|\\[ERROR]|ERROR:|Caused by:|.*Test unit written to|.*FuzzTestFinding|.*BUILD (SUCCESS|FAILURE)).*");

    private final FuzzTarget target;
    private final Path root;
    private final Path workDir;
    private final Duration duration;

    public FuzzRun(FuzzTarget target, Path root, Path workDir, Duration duration) {
        this.target = target;
        this.root = root;
        this.workDir = workDir;
        this.duration = duration;
    }

    /**
     * The Maven command line: compile the module (and what it needs), replay the target's seeds with a
     * time limit each (fuzz-seeds), then fuzz it (fuzz).
     */
    public List<String> command(String maven) {
        return List.of(maven, "-B", "-Dstyle.color=never", "-pl", target.module(), "-am", "test-compile",
                "surefire:test@fuzz-seeds", "surefire:test@fuzz", "-Dtest=" + target.simpleName(), "-Dsurefire.failIfNoSpecifiedTests=false",
                "-Dfuzz.skip=false", "-Djazzer.max_duration=" + duration.toSeconds() + "s",
                "-Dfuzz.workDir=" + workDir.toAbsolutePath());
    }

    /**
     * Runs the target, printing progress to {@code out} and copying what it reports and any finding into
     * {@code resultsDir}.
     */
    public FuzzOutcome run(String maven, PrintStream out, Path resultsDir) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        deleteFindings(); // earlier runs' findings are in earlier results already
        Path report = resultsDir.resolve(target.simpleName() + ".log");
        Files.createDirectories(resultsDir);
        Process mvn = new ProcessBuilder(command(maven)).directory(root.toFile()).redirectErrorStream(true).start();
        Progress progress = new Progress(out, report);
        Thread reader = new Thread(() -> progress.follow(mvn), "fuzz-output-" + target.simpleName());
        reader.setDaemon(true);
        reader.start();
        boolean finished = mvn.waitFor(duration.plus(OVERHEAD_ALLOWED).toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
            mvn.descendants().forEach(ProcessHandle::destroyForcibly);
            mvn.destroyForcibly();
            mvn.waitFor(30, TimeUnit.SECONDS);
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        List<Path> findings = copyFindings(resultsDir.resolve(target.simpleName()));
        String problem = null;
        if (!finished) {
            problem = "did not finish within " + duration.plus(OVERHEAD_ALLOWED).toMinutes() + " min";
        } else if (mvn.exitValue() != 0 && findings.isEmpty()) {
            problem = "Maven exited with " + mvn.exitValue() + " without a finding; see " + workDir.resolve("maven.log");
        } else if (progress.last() == null) {
            problem = "Jazzer never started fuzzing (is it a @FuzzTest?); see " + workDir.resolve("maven.log");
        }
        return new FuzzOutcome(target, progress.last(), findings, problem);
    }

    private void deleteFindings() throws IOException {
        for (Path file : findings(workDir)) {
            Files.delete(file);
        }
    }

    private List<Path> copyFindings(Path into) throws IOException {
        List<Path> copied = new ArrayList<>();
        for (Path file : findings(workDir)) {
            Files.createDirectories(into);
            copied.add(Files.copy(file, into.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING));
        }
        return copied;
    }

    private static List<Path> findings(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> FINDING.matcher(f.getFileName().toString()).matches()).sorted().toList();
        }
    }

    /** libFuzzer's events in plain words: INITED after the seeds, DONE at the end, the rest meanwhile. */
    private static String label(String event) {
        return switch (event) {
            case "INITED" -> "seeds read";
            case "DONE" -> "done";
            default -> "fuzzing";
        };
    }

    /** Reads Maven's output: all of it to maven.log, the progress and the problems to the terminal and report. */
    private final class Progress {

        private final PrintStream out;
        private final Path report;
        private volatile FuzzStatus last;
        private long nextPrint;

        Progress(PrintStream out, Path report) {
            this.out = out;
            this.report = report;
            this.nextPrint = System.nanoTime();
        }

        void follow(Process maven) {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(maven.getInputStream(),
                            StandardCharsets.UTF_8));
                    Writer log = Files.newBufferedWriter(workDir.resolve("maven.log"), StandardCharsets.UTF_8);
                    Writer kept = Files.newBufferedWriter(report, StandardCharsets.UTF_8)) {
                String line;
                while ((line = lines.readLine()) != null) {
                    log.write(line);
                    log.write('\n');
                    String shown = shown(line);
                    if (shown != null) {
                        out.println("fuzz: " + target.simpleName() + ": " + shown);
                        kept.write(shown);
                        kept.write('\n');
                        kept.flush();
                    }
                }
            } catch (IOException e) {
                out.println("fuzz: " + target.simpleName() + ": lost Maven's output: " + e.getMessage());
            }
        }

        /** The text to show for a line of output, or {@code null} to keep it in maven.log only. */
        private String shown(String line) {
            FuzzStatus status = FuzzStatus.parse(line);
            if (status != null) {
                last = status;
                long now = System.nanoTime();
                boolean milestone = status.event().equals("INITED") || status.event().equals("DONE");
                if (!milestone && now - nextPrint < 0) {
                    return null;
                }
                nextPrint = now + PROGRESS_EVERY.toNanos();
                return label(status.event()) + ": " + status.describe();
            }
            return REPORTED.matcher(line).matches() ? line : null;
        }

        FuzzStatus last() {
            return last;
        }
    }
}
