package io.loadwise.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadwise.bench.sweep.SweepSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Picks a sweep's folder: the newest {@code <date>-<name>} folder whose {@code sweep.json} has the same
 * settings (so a later run resumes it), otherwise a new {@code <today>-<name>} (with a suffix if taken).
 */
final class ResultsFolder {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultsFolder() {
    }

    static Path choose(Path resultsRoot, SweepSettings settings, LocalDate today) throws IOException {
        if (Files.isDirectory(resultsRoot)) {
            List<Path> candidates;
            try (Stream<Path> dirs = Files.list(resultsRoot)) {
                candidates = dirs.filter(d -> d.getFileName().toString().matches("\\d{4}-\\d{2}-\\d{2}-"
                        + java.util.regex.Pattern.quote(settings.name()) + "(-\\d+)?"))
                        .sorted(Comparator.comparing(Path::toString).reversed()).toList();
            }
            for (Path dir : candidates) {
                Path manifest = dir.resolve("sweep.json");
                if (Files.isRegularFile(manifest)
                        && JSON.readValue(manifest.toFile(), SweepSettings.class).equals(settings)) {
                    return dir;
                }
            }
        }
        Path dir = resultsRoot.resolve(today + "-" + settings.name());
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(today + "-" + settings.name() + "-" + i);
        }
        return dir;
    }
}
