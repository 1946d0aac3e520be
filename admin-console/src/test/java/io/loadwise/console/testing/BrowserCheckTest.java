package io.loadwise.console.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A missing browser fails the browser tests with the install command; only an explicit skip skips them. */
class BrowserCheckTest {

    @TempDir
    Path dir;

    private Path file(String name, String permissions) throws Exception {
        Path file = Files.writeString(dir.resolve(name), "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @Test
    void aMissingBrowserFailsAndNamesTheInstallCommand() throws Exception {
        Path chromium = file("chromium", "rwx------");
        Path driver = dir.resolve("chromedriver");
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> BrowserCheck.require(chromium, driver, false));
        assertEquals("the browser tests need Debian's chromium and chromium-driver, and " + driver + " is missing."
                + " Install them with `./loadwise test` (it installs every package in .ci/test-packages, then runs"
                + " mvn -B verify) or `.ci/install-deps chromium chromium-driver`; -Dloadwise.skipBrowserTests=true"
                + " skips these tests explicitly.", e.getMessage());
    }

    @Test
    void aFileThatCannotRunCountsAsMissing() throws Exception {
        Path chromium = file("chromium", "rw-------");
        Path driver = file("chromedriver", "rw-------");
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> BrowserCheck.require(chromium, driver, false));
        assertEquals(true, e.getMessage().contains(chromium + " and " + driver + " are missing"), e.getMessage());
    }

    @Test
    void bothPresentPasses() throws Exception {
        BrowserCheck.require(file("chromium", "rwx------"), file("chromedriver", "rwx------"), false);
    }

    @Test
    void onlyAnExplicitSkipSkips() {
        assertThrows(TestAbortedException.class,
                () -> BrowserCheck.require(dir.resolve("none"), dir.resolve("none-either"), true));
    }
}
