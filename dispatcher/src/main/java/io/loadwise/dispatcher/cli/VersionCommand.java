package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code loadwise version}, the same as {@code loadwise --version}; hidden, kept for old scripts. */
@Command(name = "version", hidden = true, description = "Print the version.")
final class VersionCommand implements CliCommand {

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        out.println("loadwise " + Main.version());
        return Main.OK;
    }
}
