package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.Map;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code loadwise completion}: a bash completion script for every command and option of this program. */
@Command(name = "completion",
        description = {"Print a bash completion script for the commands and their options.",
            "Load it into the current shell with: source <(./loadwise completion)",
            "or install it: ./loadwise completion > /etc/bash_completion.d/loadwise"},
        footer = "The options of demo, bench, simulate and capacity belong to other programs and are not completed.")
final class CompletionCommand implements CliCommand {

    @Spec
    CommandSpec spec;

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        out.print(AutoComplete.bash("loadwise", spec.root().commandLine()));
        return Main.OK;
    }
}
