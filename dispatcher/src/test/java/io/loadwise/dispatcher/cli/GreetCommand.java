package io.loadwise.dispatcher.cli;

import java.io.PrintStream;
import java.util.Map;

/** A contributed sub-command, as the admin console contributes {@code passwd}. */
public final class GreetCommand implements CliCommand {

    @Override
    public String name() {
        return "greet";
    }

    @Override
    public String summary() {
        return "Say hello (test extension).";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        out.println("hello " + String.join(" ", args));
        return args.length == 0 ? Main.USAGE : Main.OK;
    }
}
