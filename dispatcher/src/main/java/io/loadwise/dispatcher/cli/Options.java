package io.loadwise.dispatcher.cli;

import io.loadwise.dispatcher.config.ConfigValidator;
import java.nio.file.Path;
import java.util.Locale;

/** Options of {@code run} and {@code validate}: {@code --config FILE} and, for run, {@code --log-level}. */
record Options(Path config, String logLevel) {

    static Options parse(String[] args, boolean allowLogLevel) throws Main.UsageException {
        Path config = null;
        String level = null;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            String name = arg;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            switch (name) {
                case "--config", "-c" -> config = Path.of(value != null ? value : next(args, ++i, name));
                case "--log-level" -> {
                    if (!allowLogLevel) {
                        throw new Main.UsageException("--log-level applies to run only");
                    }
                    level = (value != null ? value : next(args, ++i, name)).toLowerCase(Locale.ROOT);
                    if (!ConfigValidator.LOG_LEVELS.contains(level)) {
                        throw new Main.UsageException("--log-level '" + level
                                + "' unknown, expected one of trace, debug, info, warn, error, off");
                    }
                }
                default -> throw new Main.UsageException("unknown option '" + arg + "'");
            }
        }
        if (config == null) {
            throw new Main.UsageException("--config FILE is required");
        }
        return new Options(config, level);
    }

    private static String next(String[] args, int i, String option) throws Main.UsageException {
        if (i >= args.length) {
            throw new Main.UsageException(option + " needs a value");
        }
        return args[i];
    }
}
