package io.loadwise.console.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code docs/metrics.md}'s Prometheus table names exactly the families {@code GET /metrics} can emit. */
class PrometheusDocTest {

    private static final Path DOC = Path.of(System.getProperty("user.dir")).resolve("../docs/metrics.md").normalize();
    private static final Pattern FAMILY = Pattern.compile("`(loadwise_[a-z_]+)`");

    @Test
    void theTableListsEveryEmittedFamilyAndNoOther() throws IOException {
        String doc = Files.readString(DOC);
        String section = doc.substring(doc.indexOf("## Prometheus"));
        Set<String> documented = new TreeSet<>();
        for (String line : section.split("\n")) {
            if (!line.startsWith("| `loadwise_")) {
                continue;
            }
            Matcher m = FAMILY.matcher(line.split("\\|")[1]); // the Family column only
            while (m.find()) {
                documented.add(m.group(1));
            }
        }
        assertEquals(new TreeSet<>(PrometheusMetrics.familyNames()), documented);
    }
}
