package io.loadwise.dispatcher.cli;

import io.loadwise.dispatcher.config.AdminToken;
import io.loadwise.dispatcher.config.AgentSettings;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.ConfigValidator;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import io.loadwise.policy.PolicyRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What {@code validate} checks and {@code run} checks before it starts: the same, so that they agree. */
final class ConfigCheck {

    private ConfigCheck() {
    }

    /**
     * Loads and validates {@code file} and resolves the admin token and checks the agent secret with {@code env}; adds every problem to
     * {@code errors}.
     *
     * @return the configuration, or {@code null} when it could not be read at all
     */
    static LoadwiseConfig load(Path file, Map<String, String> env, List<String> errors) {
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
        try {
            AgentSettings.secretFromEnv(env);
        } catch (ConfigValidationException e) {
            errors.addAll(e.errors());
        }
        return config;
    }
}
