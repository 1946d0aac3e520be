package io.loadwise.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import io.loadwise.dispatcher.cli.CliCommand;
import io.loadwise.dispatcher.cli.Main;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loadwise passwd} with the password on stdin (no terminal), as a script would run it. */
class PasswdCommandTest {

    @TempDir
    Path dir;
    private Path config;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void writeConfig() throws Exception {
        config = dir.resolve("loadwise.json");
        Files.writeString(config, """
                {"admin": {"token": "test-token-0123456789", "dataDir": "%s"}, "clusters": []}
                """.formatted(dir.resolve("data").toString().replace("\\", "\\\\")));
    }

    private int run(String stdin, String... args) {
        PasswdCommand command = new PasswdCommand(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), null);
        return Main.runCommand(command, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of());
    }

    private PasswordFile file() {
        return PasswordFile.inDataDir(dir.resolve("data"));
    }

    @Test
    void isFoundByTheDispatchersCommandLine() {
        boolean found = ServiceLoader.load(CliCommand.class).stream().anyMatch(p -> p.type() == PasswdCommand.class);
        assertTrue(found, "META-INF/services registers passwd");
    }

    @Test
    void twoMatchingLinesSetThePassword() throws Exception {
        assertEquals(0, run("new-password-1\nnew-password-1\n", "--config", config.toString()), err.toString());
        assertTrue(PasswordHasher.verify("new-password-1".toCharArray(), file().read()));
        assertTrue(out.toString().contains(file().path().toAbsolutePath().toString()), out.toString());
    }

    @Test
    void oneLineFromAPipeIsEnough() throws Exception {
        assertEquals(0, run("piped-password\n", "--config", config.toString()), err.toString());
        assertTrue(PasswordHasher.verify("piped-password".toCharArray(), file().read()));
    }

    @Test
    void differentLinesChangeNothing() {
        assertEquals(1, run("first-password\nsecond-password\n", "--config", config.toString()));
        assertTrue(err.toString().contains("differ"), err.toString());
        assertFalse(file().exists());
    }

    @Test
    void shortPasswordIsRefused() {
        assertEquals(1, run("short\nshort\n", "--config", config.toString()));
        assertTrue(err.toString().contains("at least 8"), err.toString());
        assertFalse(file().exists());
    }

    @Test
    void missingConfigIsAUsageError() {
        assertEquals(2, run("whatever-pass\n"));
        assertTrue(err.toString().contains("--config"), err.toString());
        assertEquals(1, run("whatever-pass\n", "--config", dir.resolve("missing.json").toString()));
    }

    @Test
    void missingConfigNamesTheOptionAndPointsToTheHelp() {
        assertEquals(2, run("whatever-pass\n"));
        assertEquals("loadwise passwd: --config FILE is required; see loadwise passwd --help\n", err.toString());
    }

    @Test
    void helpDescribesTheCommandAndStartsNothing() {
        assertEquals(0, run("", "--help"));
        String help = out.toString();
        assertTrue(help.startsWith("Usage: loadwise passwd [-h] -c=FILE\n\nSet the admin console password.\n"), help);
        assertTrue(help.contains("-c, --config=FILE") && help.contains("admin.dataDir") && help.contains("stdin"), help);
        assertFalse(file().exists());
    }
}
