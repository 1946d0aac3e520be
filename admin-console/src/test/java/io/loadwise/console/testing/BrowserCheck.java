package io.loadwise.console.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Whether the browser tests can run. Without Debian's chromium and chromium-driver they fail, naming the
 * command that installs them: a plain {@code mvn -B verify} must never pass with the console untested
 * in a browser. Only an explicit {@code -Dloadwise.skipBrowserTests=true} skips them, and says so.
 */
public final class BrowserCheck {

    public static final String SKIP_PROPERTY = "loadwise.skipBrowserTests";

    private BrowserCheck() {
    }

    /** Returns when both executables are there; otherwise fails (or aborts, when a skip was asked for). */
    public static void requireChromium(String chromium, String chromedriver) {
        require(Path.of(chromium), Path.of(chromedriver), Boolean.getBoolean(SKIP_PROPERTY));
    }

    static void require(Path chromium, Path chromedriver, boolean skipAsked) {
        if (skipAsked) {
            String why = "browser tests skipped: -D" + SKIP_PROPERTY + "=true was given";
            System.err.println(why);
            Assumptions.abort(why);
        }
        List<String> missing = new ArrayList<>();
        for (Path executable : List.of(chromium, chromedriver)) {
            if (!Files.isExecutable(executable)) {
                missing.add(executable.toString());
            }
        }
        if (!missing.isEmpty()) {
            Assertions.fail("the browser tests need Debian's chromium and chromium-driver, and "
                    + String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are") + " missing. Install"
                    + " them with `./loadwise test` (it installs every package in .ci/test-packages, then runs"
                    + " mvn -B verify) or `.ci/install-deps chromium chromium-driver`; -D" + SKIP_PROPERTY
                    + "=true skips these tests explicitly.");
        }
    }
}
