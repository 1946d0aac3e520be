package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** A contributed sub-command, as the admin console contributes {@code passwd}; it declares no --help. */
@Command(name = "greet", description = "Say hello (test extension).")
public final class GreetCommand implements CliCommand {

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "who to greet")
    List<String> names = new ArrayList<>();

    @Override
    public int run(PrintStream out, PrintStream err, Map<String, String> env) {
        out.println("hello " + String.join(" ", names));
        return names.isEmpty() ? Main.USAGE : Main.OK;
    }
}
