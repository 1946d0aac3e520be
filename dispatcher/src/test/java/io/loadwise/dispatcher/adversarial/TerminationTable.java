package io.loadwise.dispatcher.adversarial;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The termination states docs/operations.md documents: the first column of its "Termination states" table. */
final class TerminationTable {

    static final Path DOC = Path.of("../docs/operations.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z-]{2})` \\|");
    private static Set<String> states;

    private TerminationTable() {
    }

    static synchronized Set<String> documented() {
        if (states == null) {
            states = read();
        }
        return states;
    }

    private static Set<String> read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(DOC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> out = new LinkedHashSet<>();
        boolean inSection = false;
        for (String line : lines) {
            if (line.startsWith("#")) {
                inSection = line.contains("Termination states");
                continue;
            }
            Matcher m = ROW.matcher(line);
            if (inSection && m.find()) {
                out.add(m.group(1));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no termination state table in " + DOC.toAbsolutePath());
        }
        return Set.copyOf(out);
    }
}
