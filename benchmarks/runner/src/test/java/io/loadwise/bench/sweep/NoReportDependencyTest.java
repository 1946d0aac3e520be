package io.loadwise.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The report reads what the sweep wrote, so it depends on this package; this package must not depend on
 * the report, or the two form a cycle (the runner used to call SweepReport itself; it now gets a
 * {@link ResultsWriter}).
 */
class NoReportDependencyTest {

    @Test
    void noSweepSourceMentionsTheReportPackage() throws IOException {
        Path sources = Path.of("src/main/java/io/loadwise/bench/sweep");
        assertTrue(Files.isDirectory(sources), "run from the module folder: " + Path.of("").toAbsolutePath());
        List<String> offenders;
        try (Stream<Path> files = Files.list(sources)) {
            offenders = files.filter(f -> read(f).contains("io.loadwise.bench.report")).map(f -> f.getFileName().toString())
                    .toList();
        }
        assertEquals(List.of(), offenders);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
