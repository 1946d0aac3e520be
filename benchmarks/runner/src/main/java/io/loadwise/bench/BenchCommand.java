package io.loadwise.bench;

import java.io.IOException;
import java.io.PrintStream;

/**
 * A sub-command of {@code loadwise bench}: a picocli {@code @Command} class whose {@code name} is the word
 * after {@code bench} and the first line of whose {@code description} is its line in {@code bench --help}.
 * picocli sets its {@code @Option} fields before {@link #call}; it declares {@code @Mixin HelpOption help}
 * last. A new sub-command is such a class plus one line in {@link BenchMain#commands()}.
 */
interface BenchCommand {

    /**
     * Does the command's work, printing its progress to {@code out}.
     *
     * @return {@link io.loadwise.cli.ExitCode#OK} or {@link io.loadwise.cli.ExitCode#FAILURE} (a cell, script or
     *     target failed)
     * @throws IllegalArgumentException when the options ask for something that cannot be done; the message
     *     names the option and is printed as a usage error (exit code 2)
     */
    int call(PrintStream out) throws IOException, InterruptedException;
}
