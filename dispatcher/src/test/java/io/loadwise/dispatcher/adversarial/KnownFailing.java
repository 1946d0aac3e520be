package io.loadwise.dispatcher.adversarial;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * Temporary: cases that fail on this build until the fixes of issue 11 land, listed in
 * {@code adversarial/known-failing.txt} ({@code group/case  # why}). They are skipped with that reason,
 * unless {@code -Dadversarial.strict=true}, which runs every case as a real test. The list should only
 * shrink; when it is empty, this class and the file go.
 */
final class KnownFailing {

    static final String STRICT_PROPERTY = "adversarial.strict";
    private static final Map<String, String> LIST = load();

    private KnownFailing() {
    }

    static boolean strict() {
        return Boolean.getBoolean(STRICT_PROPERTY);
    }

    /** Skips the running case (a JUnit assumption) if it is listed and the run is not strict. */
    static void skipIfListed(String caseId) {
        String reason = LIST.get(caseId);
        Assumptions.assumeTrue(reason == null || strict(),
                () -> "skipped (known failing on this build): " + reason + "; run with -D" + STRICT_PROPERTY
                        + "=true to run it");
    }

    static Map<String, String> entries() {
        return LIST;
    }

    private static Map<String, String> load() {
        Map<String, String> list = new LinkedHashMap<>();
        InputStream in = KnownFailing.class.getResourceAsStream("/adversarial/known-failing.txt");
        if (in == null) {
            return list;
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                String entry = line.strip();
                if (entry.isEmpty() || entry.startsWith("#")) {
                    continue;
                }
                int hash = entry.indexOf('#');
                String id = (hash < 0 ? entry : entry.substring(0, hash)).strip();
                list.put(id, hash < 0 ? "no reason given" : entry.substring(hash + 1).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return list;
    }
}
