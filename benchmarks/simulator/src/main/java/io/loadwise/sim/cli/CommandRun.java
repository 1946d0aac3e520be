package io.loadwise.sim.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/**
 * How every simulator command runs: parse the options, answer {@code --help}, run the body, and turn
 * failures into one line on stderr prefixed with the command's name and an exit code: 0 ok, 1 I/O error or
 * failure, 2 bad options.
 */
public final class CommandRun {

    /** The command's work, given its parsed options; returns the exit code. */
    public interface Body {
        int run(CommandLine options) throws IOException, InterruptedException;
    }

    private CommandRun() {
    }

    public static int run(String name, CommandLine.Spec spec, String usage, String[] args, PrintStream out,
            PrintStream err, Body body) {
        try {
            CommandLine options = CommandLine.parse(spec, args);
            if (options.has("help")) {
                out.print(usage);
                return 0;
            }
            return body.run(options);
        } catch (IllegalArgumentException e) {
            err.println(name + ": " + e.getMessage());
            return 2;
        } catch (IOException | UncheckedIOException e) {
            err.println(name + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(name + ": interrupted");
            return 1;
        } catch (RuntimeException e) {
            // a policy or model that throws: say which, and do not hide the stack trace
            err.println(name + ": failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }
}
