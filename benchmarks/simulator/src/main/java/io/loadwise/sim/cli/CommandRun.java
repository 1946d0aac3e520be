package io.loadwise.sim.cli;

import io.loadwise.cli.ExitCode;
import io.loadwise.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * How every simulator command runs once picocli has set its options: failures become one line on stderr
 * prefixed with the command's name and an exit code: 1 for I/O errors and failures, 2 (a usage error, printed
 * by {@link io.loadwise.cli.Cli}) when a policy, model or option refuses a value.
 */
final class CommandRun {

    /** A command's work, given where to print; returns the exit code. */
    interface Body {
        int call(PrintStream out) throws IOException, InterruptedException;
    }

    private CommandRun() {
    }

    static int run(CommandLine chosen, Body body, PrintStream out, PrintStream err) {
        String name = chosen.getCommandSpec().qualifiedName();
        try {
            return body.call(out);
        } catch (UsageException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            // the policy registry, a policy's options or a service-time model refusing what the options say
            throw new UsageException(e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            err.println(name + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return ExitCode.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(name + ": interrupted");
            return ExitCode.FAILURE;
        } catch (RuntimeException e) {
            // a policy or model that throws: say which, and do not hide the stack trace
            err.println(name + ": failed: " + e);
            e.printStackTrace(err);
            return ExitCode.FAILURE;
        }
    }
}
