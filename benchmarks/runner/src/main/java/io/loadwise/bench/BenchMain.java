package io.loadwise.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** {@code loadwise bench sweep|calibrate|overhead|fuzz ...}: the benchmark runner's entry point. */
public final class BenchMain {

    static final String USAGE = """
            Usage: loadwise bench <command> [options]
              sweep       seed 001's evaluation: 5 capacity scenarios x 12 policy rows with real JMeter
              calibrate   check (and choose) the node capacities so the scenarios bite on this machine
              overhead    proxy overhead (wrk), policy selection cost and agent filter cost (JMH)
              fuzz        every Jazzer fuzz target for longer than mvn verify does (--minutes N)
            Run "loadwise bench <command> --help" for a command's options. Results: benchmarks/results/.
            """;

    private BenchMain() {
    }

    public static void main(String[] args) {
        // Ctrl-C or SIGTERM mid-cell: stop the dispatcher and JMeter too (the nodes watch their stdin anyway)
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants()
                .forEach(ProcessHandle::destroy), "stop-children"));
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h")) {
            out.print(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        List<String> rest = args.subList(1, args.size());
        boolean help = rest.contains("--help") || rest.contains("-h");
        try {
            return switch (args.get(0)) {
                case "sweep" -> help ? usage(out, SweepCommand.USAGE) : SweepCommand.run(rest, out) == 0 ? 0 : 1;
                case "calibrate" -> help ? usage(out, CalibrateCommand.USAGE) : CalibrateCommand.run(rest, out);
                case "overhead" -> help ? usage(out, OverheadCommand.USAGE) : OverheadCommand.run(rest, out);
                case "fuzz" -> help ? usage(out, FuzzCommand.USAGE) : FuzzCommand.run(rest, out);
                default -> {
                    err.println("bench: unknown command '" + args.get(0) + "'");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (IllegalArgumentException e) {
            err.println("bench " + args.get(0) + ": " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("bench " + args.get(0) + " failed: " + e);
            return 1;
        }
    }

    private static int usage(PrintStream out, String text) {
        out.print(text);
        return 0;
    }
}
