package io.loadwise.sim.cli;

import java.io.PrintStream;
import java.util.Arrays;

/** Entry point of {@code loadwise-simulator.jar}: {@code simulate ...} or {@code capacity ...}. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        String usage = "Usage: loadwise-simulator.jar (simulate|capacity) [options]; add --help for the options";
        if (args.length == 0) {
            err.println(usage);
            return 2;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "simulate":
                return SimulateCommand.run(rest, out, err);
            case "capacity":
                return CapacityCommand.run(rest, out, err);
            case "--help":
            case "help":
                out.println(usage);
                return 0;
            default:
                err.println("unknown command '" + args[0] + "'. " + usage);
                return 2;
        }
    }
}
