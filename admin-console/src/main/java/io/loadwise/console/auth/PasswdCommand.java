package io.loadwise.console.auth;

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

/**
 * {@code loadwise passwd --config FILE}: sets the console's admin password. Asks twice on the terminal
 * (without echo) or, when stdin is not a terminal, reads two lines from it (one line is enough when stdin
 * ends after it, for scripts: {@code echo "$PW" | loadwise passwd --config F}). The hash goes to
 * {@code <admin.dataDir>/admin-password}.
 */
public final class PasswdCommand implements CliCommand {

    private final InputStream stdin;
    private final Console console;

    /** For {@link java.util.ServiceLoader}. */
    public PasswdCommand() {
        this(System.in, System.console());
    }

    PasswdCommand(InputStream stdin, Console console) {
        this.stdin = stdin;
        this.console = console;
    }

    @Override
    public String name() {
        return "passwd";
    }

    @Override
    public String summary() {
        return "passwd --config FILE   set the admin console password (asked twice, or read from stdin)";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        Path configFile = null;
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("--config") || args[i].equals("-c")) && i + 1 < args.length) {
                configFile = Path.of(args[++i]);
            } else if (args[i].startsWith("--config=")) {
                configFile = Path.of(args[i].substring("--config=".length()));
            } else {
                err.println("loadwise passwd: unexpected argument '" + args[i] + "'; usage: loadwise passwd --config FILE");
                return 2;
            }
        }
        if (configFile == null) {
            err.println("loadwise passwd: --config FILE is required (the admin data directory comes from it)");
            return 2;
        }
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
