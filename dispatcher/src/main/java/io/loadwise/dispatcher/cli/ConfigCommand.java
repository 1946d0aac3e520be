package io.loadwise.dispatcher.cli;

import io.loadwise.cli.HelpOption;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.dispatcher.store.EtcdClient;
import io.loadwise.dispatcher.store.EtcdConfigSource;
import io.loadwise.policy.PolicyRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loadwise config push|pull}: moves the clusters, listeners and rate limits of a file into etcd or out. */
@Command(name = "config",
        description = {"Move the clusters, listeners and rate limits between a file and etcd (config.store etcd,",
                "docs/scale-out.md)."},
        subcommands = {ConfigCommand.Push.class, ConfigCommand.Pull.class},
        footer = {"Examples: loadwise config push --config site.json",
            "          loadwise config pull --config replica.json --output current.json"})
final class ConfigCommand {

    @Mixin
    HelpOption help;

    /** The etcd section of FILE, or an error naming what is missing. */
    static EtcdConfigSource etcdOf(Path file, LoadwiseConfig config) throws ConfigValidationException {
        if (config.config() == null || !config.config().etcd()) {
            throw new ConfigValidationException("config.store: not etcd; name the etcd endpoints and prefix in the"
                    + " file's config section, e.g. \"config\": {\"store\": \"etcd\", \"endpoints\":"
                    + " [\"http://127.0.0.1:2379\"], \"prefix\": \"/loadwise/prod\"}");
        }
        return new EtcdConfigSource(new EtcdClient(config.config().endpointsOrEmpty()), config.config().prefix(),
                new ConfigStore(file));
    }

    @Command(name = "push",
            description = {"Validate FILE and make its clusters, listeners and rate limits the ones in etcd, in one",
                "transaction: those not in FILE are deleted. Every replica applies the result within a second."},
            footer = {"Exit codes: 0 pushed, 1 invalid file or etcd unreachable, 2 usage error."})
    static final class Push implements CliCommand {

        @Option(names = {"--config", "-c"}, paramLabel = "FILE", required = true,
                description = "a configuration file with clusters and a config section naming etcd")
        Path config;

        @Mixin
        HelpOption help;

        @Override
        public int run(PrintStream out, PrintStream err, Map<String, String> env) {
            List<String> errors = new ArrayList<>();
            LoadwiseConfig loaded = ConfigCheck.load(config, env, errors);
            try {
                if (errors.isEmpty()) {
                    EtcdConfigSource etcd = etcdOf(config, loaded);
                    long revision = etcd.push(loaded);
                    out.println("pushed " + loaded.clustersOrEmpty().size() + " clusters, "
                            + loaded.listenersOrEmpty().size() + " listeners and " + loaded.rateLimitsOrEmpty().size()
                            + " rate limits to " + etcd.describe()
                            + " (revision " + revision + ")");
                    return Main.OK;
                }
            } catch (ConfigValidationException e) {
                errors.addAll(e.errors());
            } catch (IOException e) {
                errors.add("etcd: " + e.getMessage());
            }
            errors.forEach(e -> err.println(config + ": " + e));
            err.println("loadwise config push: nothing was pushed");
            return Main.INVALID;
        }
    }

    @Command(name = "pull",
            description = {"Print FILE with its clusters, listeners and rate limits replaced by those in etcd (or write",
                "it to --output)."},
            footer = {"Exit codes: 0 pulled, 1 etcd unreachable or its content invalid, 2 usage error."})
    static final class Pull implements CliCommand {

        @Option(names = {"--config", "-c"}, paramLabel = "FILE", required = true,
                description = "a configuration file whose config section names etcd")
        Path config;

        @Option(names = {"--output", "-o"}, paramLabel = "OUT", description = "write here (atomically) instead of stdout")
        Path output;

        @Mixin
        HelpOption help;

        @Override
        public int run(PrintStream out, PrintStream err, Map<String, String> env) {
            try {
                LoadwiseConfig pulled = etcdOf(config, ConfigLoader.load(config)).read();
                List<String> problems = new ConfigValidator(PolicyRegistry.load()).validate(pulled);
                problems.forEach(p -> err.println("etcd: " + p));
                if (output == null) {
                    out.print(ConfigLoader.toJson(pulled));
                } else {
                    new ConfigStore(output).write(pulled);
                    out.println("wrote " + pulled.clustersOrEmpty().size() + " clusters to " + output);
                }
                return problems.isEmpty() ? Main.OK : Main.INVALID;
            } catch (ConfigValidationException e) {
                e.errors().forEach(line -> err.println(config + ": " + line));
            } catch (IOException e) {
                err.println(output + ": " + e.getMessage());
            }
            err.println("loadwise config pull: nothing was pulled");
            return Main.INVALID;
        }
    }
}
