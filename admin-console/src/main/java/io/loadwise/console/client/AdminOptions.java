package io.loadwise.console.client;

import io.loadwise.cli.UsageException;
import io.loadwise.dispatcher.config.AdminConfig;
import io.loadwise.dispatcher.config.AdminToken;
import io.loadwise.dispatcher.config.ConfigLoader;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where the admin API is and the token it wants: {@code --admin-url}, else {@code admin.listen} of
 * {@code --config}, else {@code http://127.0.0.1:8111}; the token from {@code LOADWISE_ADMIN_TOKEN}, else
 * {@code admin.token} of {@code --config}.
 */
public final class AdminOptions {

    @Option(names = "--admin-url", paramLabel = "URL",
            description = "the admin API, e.g. http://127.0.0.1:8111 (default: admin.listen of --config, else that)")
    URI adminUrl;

    @Option(names = {"--config", "-c"}, paramLabel = "FILE",
            description = "the dispatcher's configuration file, for admin.listen and admin.token")
    Path configFile;

    /** A client for the API, or a usage error naming what is missing. */
    AdminClient client(Map<String, String> env) {
        AdminConfig admin = null;
        if (configFile != null) {
            try {
                LoadwiseConfig config = ConfigLoader.load(configFile);
                admin = config.admin();
            } catch (ConfigValidationException e) {
                throw new UsageException("--config: " + String.join("; ", e.errors()));
            }
        }
        String token = env.get(AdminToken.ENV);
        if (token == null || token.isBlank()) {
            token = admin == null ? null : admin.token();
        }
        if (token == null || token.isBlank()) {
            throw new UsageException("no admin token: set " + AdminToken.ENV + " or give --config with admin.token");
        }
        URI url = adminUrl;
        if (url == null) {
            String listen = admin == null ? AdminConfig.DEFAULT_LISTEN : admin.listenOrDefault();
            url = URI.create("http://" + listen);
        }
        if (url.getScheme() == null || !url.getScheme().matches("https?") || url.getHost() == null) {
            throw new UsageException("--admin-url: '" + url + "' is not an http:// or https:// URL with a host");
        }
        return new AdminClient(url, token.strip());
    }
}
