package io.loadwise.dispatcher;

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
 * Which way the request path's packages depend, read from the sources (by import or qualified name):
 * {@code http2} builds on {@code http}, never the reverse, and node acquisition, shared by L7 and L4, knows
 * neither of them nor {@code tcp}.
 */
class StageBoundariesTest {

    private static final Path SOURCES = Path.of("src/main/java/io/loadwise/dispatcher");

    @Test
    void httpNamesNothingOfHttp2() throws IOException {
        assertEquals(List.of(), namings("http", Pattern.compile("io\\.loadwise\\.dispatcher\\.http2\\b")),
                "give http an interface that http2 implements (as Http2Support) instead");
    }

    @Test
    void acquisitionNamesNeitherProtocol() throws IOException {
        assertEquals(List.of(), namings("acquire",
                Pattern.compile("io\\.loadwise\\.dispatcher\\.(?:http|http2|tcp)\\b")),
                "a NodeConnector or NodeChooser of the protocol's own instead");
    }

    /** Lines of the sources under {@code folder} (its subpackages too) that name {@code forbidden}. */
    private static List<String> namings(String folder, Pattern forbidden) throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(SOURCES.resolve(folder))) {
            files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(files.size() > 3, "read the sources of " + folder + ", found " + files.size());
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = forbidden.matcher(lines.get(i));
                if (m.find()) {
                    found.add(SOURCES.relativize(file) + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        return found;
    }
}
