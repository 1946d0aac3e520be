package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.Map;

/**
 * A sub-command of {@code loadwise}: the built-in ones, and those another module contributes (the admin
 * console's {@code passwd}, for instance) through {@link java.util.ServiceLoader} under
 * {@code META-INF/services/io.loadwise.dispatcher.cli.CliCommand}.
 *
 * <p>An implementation is a picocli {@code @Command} class: its {@code name} is the word after
 * {@code loadwise}, the first line of its {@code description} is its line in {@code loadwise --help}, and
 * picocli sets its {@code @Option} fields before {@link #run}. {@code -h, --help} is added when the class has
 * none. Built-in commands win on a name clash; a contributed command replaces the launcher's placeholder of
 * the same name ({@code passwd}).
 */
public interface CliCommand {

    /**
     * Does the command's work, once its options are set.
     *
     * @param env the process environment
     * @return the process exit code: 0 success, 1 failure, 2 usage error (or throw
     *     {@link io.loadwise.cli.UsageException}, which prints the message as a usage error)
     */
    int run(PrintStream out, PrintStream err, Map<String, String> env);
}
