package io.loadwise.console.auth;

import io.loadwise.cli.HelpOption;
import io.loadwise.dispatcher.cli.CliCommand;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loadwise passwd --config FILE}: sets the console's admin password. Asks twice on the terminal
 * (without echo) or, when stdin is not a terminal, reads two lines from it (one line is enough when stdin
 * ends after it, for scripts: {@code echo "$PW" | loadwise passwd --config F}). The hash goes to
 * {@code <admin.dataDir>/admin-password}.
 */
@Command(name = "passwd",
        description = {"Set the admin console password.",
            "Asks twice on the terminal, without echo; without a terminal it reads two lines from stdin (one is "
                + "enough when stdin ends after it). The hash goes to <admin.dataDir>/admin-password; a running "
                + "dispatcher uses it at the next login."},
        footer = {"Example: echo \"$PW\" | loadwise passwd --config loadwise.json",
            "Exit codes: 0 password set, 1 unreadable configuration, mismatch or a password refused, 2 usage error."})
public final class PasswdCommand implements CliCommand {

    private final InputStream stdin;
    private final Console console;

    @Option(names = {"--config", "-c"}, paramLabel = "FILE", required = true,
            description = "the configuration file; admin.dataDir in it says where the password goes")
    Path configFile;

    @Mixin
    HelpOption help;

    /** For {@link java.util.ServiceLoader}. */
    public PasswdCommand() {
        this(System.in, System.console());
    }

    PasswdCommand(InputStream stdin, Console console) {
        this.stdin = stdin;
        this.console = console;
    }

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        LoadwiseConfig config;
        try {
            config = ConfigLoader.load(configFile);
        } catch (ConfigValidationException e) {
            for (String problem : e.errors()) {
                err.println(configFile + ": " + problem);
            }
            return 1;
        }
        AdminConfig admin = config.admin() == null ? new AdminConfig(null, null, null) : config.admin();
        AdminPassword password = new AdminPassword(
                PasswordFile.inDataDir(Path.of(admin.dataDirOrDefault())), new PasswordHasher());
        char[][] entered;
        try {
            entered = console != null ? fromTerminal() : fromStream();
        } catch (IOException e) {
            err.println("loadwise passwd: cannot read the password: " + e.getMessage());
            return 1;
        }
        try {
            if (entered == null) {
                err.println("loadwise passwd: no password given");
                return 1;
            }
            if (!Arrays.equals(entered[0], entered[1])) {
                err.println("loadwise passwd: the two passwords differ; nothing changed");
                return 1;
            }
            String problem = AdminPassword.problem(entered[0]);
            if (problem != null) {
                err.println("loadwise passwd: " + problem + "; nothing changed");
                return 1;
            }
            password.set(entered[0]);
        } catch (IOException e) {
            err.println("loadwise passwd: cannot write " + password.file().path() + ": " + e.getMessage());
            return 1;
        } finally {
            if (entered != null) {
                PasswordHasher.wipe(entered[0]);
                PasswordHasher.wipe(entered[1]);
            }
        }
        out.println("admin console password written to " + password.file().path().toAbsolutePath()
                + " (a running dispatcher uses it at the next login)");
        return 0;
    }

    private char[][] fromTerminal() {
        char[] first = console.readPassword("New admin console password: ");
        if (first == null) {
            return null;
        }
        char[] second = console.readPassword("Repeat it: ");
        return second == null ? null : new char[][] {first, second};
    }

    private char[][] fromStream() throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
        String first = reader.readLine();
        if (first == null) {
            return null;
        }
        String second = reader.readLine();
        return new char[][] {first.toCharArray(), (second == null ? first : second).toCharArray()};
    }
}
