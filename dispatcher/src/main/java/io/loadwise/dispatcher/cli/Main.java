package io.loadwise.dispatcher.cli;

import io.loadwise.dispatcher.config.AdminToken;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.logging.LoggingSetup;
import io.loadwise.dispatcher.net.Transport;
import io.loadwise.dispatcher.runtime.Dispatcher;
import io.loadwise.dispatcher.runtime.ModeListenerFactory;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@code loadwise} command line: {@code run}, {@code validate}, {@code --help}, {@code --version}. */
public final class Main {

    public static final int OK = 0;
    public static final int INVALID = 1;
    public static final int USAGE = 2;

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    Main(PrintStream out, PrintStream err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public static void main(String[] args) {
        int code = new Main(System.out, System.err, System.getenv()).execute(args);
        System.exit(code);
    }

    /** Runs one command and returns the process exit code; {@code run} returns only after shutdown. */
    int execute(String[] args) {
        if (args.length == 0 || isHelp(args[0])) {
            out.print(Help.text(ServiceLoader.load(CliCommand.class)));
            return args.length == 0 ? USAGE : OK;
        }
        try {
            switch (args[0]) {
                case "--version", "-V", "version" -> {
                    out.println("loadwise " + version());
                    return OK;
                }
                case "validate" -> {
                    return validate(Options.parse(args, false));
                }
                case "run" -> {
                    return run(Options.parse(args, true));
                }
                default -> {
                    return extension(args);
                }
            }
        } catch (UsageException e) {
            err.println("loadwise " + args[0] + ": " + e.getMessage() + "; see loadwise --help");
            return USAGE;
        }
    }

    /** A command another module contributes, or the launcher's, or an unknown one. */
    private int extension(String[] args) {
        for (CliCommand command : ServiceLoader.load(CliCommand.class)) {
            if (command.name().equals(args[0])) {
                return command.run(Arrays.copyOfRange(args, 1, args.length), out, err, env);
            }
        }
        if (Help.LAUNCHER_COMMANDS.contains(args[0])) {
            err.println("loadwise: '" + args[0] + "' is run by the ./loadwise launcher, not by this jar");
        } else {
            err.println("loadwise: unknown command '" + args[0] + "'; see loadwise --help");
        }
        return USAGE;
    }

    private int validate(Options options) {
        List<String> errors = new ArrayList<>();
        LoadwiseConfig config = check(options.config(), errors);
        if (!errors.isEmpty()) {
            errors.forEach(e -> err.println(options.config() + ": " + e));
            return INVALID;
        }
        out.println("config OK: " + config.clustersOrEmpty().size() + " clusters");
        return OK;
    }

    /** Loads, validates and checks the admin token; collects every problem. */
    private LoadwiseConfig check(Path file, List<String> errors) {
        LoadwiseConfig config;
        try {
            config = ConfigLoader.load(file);
        } catch (ConfigValidationException e) {
            errors.addAll(e.errors());
            return null;
        }
        errors.addAll(new ConfigValidator(PolicyRegistry.load()).validate(config));
        try {
            AdminToken.resolve(config.admin(), env);
        } catch (ConfigValidationException e) {
            errors.addAll(e.errors());
        }
        return config;
    }

    private int run(Options options) {
        List<String> errors = new ArrayList<>();
        LoadwiseConfig config = check(options.config(), errors);
        if (!errors.isEmpty()) {
            errors.forEach(e -> err.println(options.config() + ": " + e));
            err.println("loadwise run: not started, the configuration is invalid");
            return INVALID;
        }
        LoggingSetup.apply(config.logging(), options.logLevel());
        Logger log = LoggerFactory.getLogger(Main.class);
        log.info("loadwise {} starting with {}", version(), options.config().toAbsolutePath());
        Transport transport = new Transport(0);
        Dispatcher dispatcher = new Dispatcher(config, new ConfigStore(options.config()), PolicyRegistry.load(),
                transport, new ModeListenerFactory());
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            dispatcher.start(tokenOf(config), true);
        } catch (Exception e) {
            log.error("loadwise could not start: {}", e.getMessage(), e);
            err.println("loadwise run: " + e.getMessage());
            transport.close();
            return INVALID;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("shutting down");
            dispatcher.close();
            transport.close();
            log.info("stopped");
            stopped.countDown();
        }, "loadwise-shutdown"));
        log.info("loadwise running with {} clusters; stop with Ctrl-C or SIGTERM", dispatcher.clusters().size());
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return OK;
    }

    private String tokenOf(LoadwiseConfig config) throws ConfigValidationException {
        return AdminToken.resolve(config.admin(), env);
    }

    private static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h") || arg.equals("help");
    }

    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("/io/loadwise/dispatcher/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** A command line that does not parse. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }
}
