package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The console reaches the dispatcher only through {@code io.loadwise.dispatcher.control} (views and
 * commands) and the value types of {@code config} and {@code metrics}: no source file of it names a
 * package that holds the dispatcher's live state, by import or by qualified name. Tests may: they drive
 * the dispatcher they start.
 */
class ControlBoundaryTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern LIVE_STATE = Pattern.compile(
            "io\\.loadwise\\.dispatcher\\.(?:cluster|monitor|http|net|tcp|runtime)\\b"
                    + "|io\\.loadwise\\.dispatcher\\.metrics\\.TrafficCounters\\b");

    @Test
    void noConsoleSourceNamesTheDispatchersLiveState() throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(SOURCES)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LIVE_STATE.matcher(lines.get(i));
                if (m.find()) {
                    found.add(SOURCES.relativize(file) + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        assertTrue(files.size() > 50, "read the console's sources, found " + files.size());
        assertEquals(List.of(), found, "use io.loadwise.dispatcher.control.ClusterControl's views instead");
    }
}
