package io.loadwise.dispatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The stage split's numbers (issue 30), kept: no class of the dispatcher over 400 lines, the exchange at most
 * 350, and the client connection's interface at most 8 methods. A class that grows past them is split by
 * concern, not by raising the numbers.
 */
class SourceSizeTest {

    private static final Path MAIN = Path.of("src", "main", "java", "io", "loadwise", "dispatcher");

    @Test
    void noSourceFileOver400Lines() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            List<String> big = files.filter(p -> p.toString().endsWith(".java")).filter(p -> lines(p) > 400)
                    .map(p -> MAIN.relativize(p) + " " + lines(p)).toList();
            assertEquals(List.of(), big);
        }
    }

    @Test
    void theExchangeOnlyRelays() throws IOException {
        Path exchange = MAIN.resolve("http/Exchange.java");
        assertTrue(lines(exchange) <= 350, "Exchange.java has " + lines(exchange) + " lines");
        long fields = Files.readAllLines(exchange).stream()
                .filter(l -> l.matches("    (?! )(private |protected |public )?(static )?(final )?[A-Za-z<>\\[\\], ]+ [a-zA-Z_]+( = .*)?;"))
                .count();
        assertTrue(fields <= 20, "Exchange.java has " + fields + " fields");
        long methods = Files.readAllLines(MAIN.resolve("http/ClientConnection.java")).stream()
                .filter(l -> l.matches("    (?! )[A-Za-z<>\\[\\]]+ [a-zA-Z]+\\(.*")).count();
        assertTrue(methods <= 8, "ClientConnection has " + methods + " methods");
    }

    private static long lines(Path p) {
        try {
            return Files.readAllLines(p).size();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
