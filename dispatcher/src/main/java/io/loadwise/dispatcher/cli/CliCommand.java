package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.Map;

/**
 * A sub-command contributed by another module (the admin console's {@code passwd}, for instance), found
 * through {@link java.util.ServiceLoader} under
 * {@code META-INF/services/io.loadwise.dispatcher.cli.CliCommand}. Built-in commands win on a name clash.
 */
public interface CliCommand {

    /** The word after {@code loadwise}, e.g. {@code "passwd"}. */
    String name();

    /** One line for {@code --help}. */
    String summary();

    /**
     * @param args the arguments after the command name
     * @param env the process environment
     * @return the process exit code: 0 success, 1 failure, 2 usage error
     */
    int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env);
}
