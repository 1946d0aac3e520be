package io.loadwise.dispatcher.config;

import java.util.Map;

/** The effective bearer token of the admin API: {@code LOADWISE_ADMIN_TOKEN} wins over {@code admin.token}. */
public final class AdminToken {

    public static final String ENV = "LOADWISE_ADMIN_TOKEN";

    private AdminToken() {
    }

    /**
     * @param env the process environment (a map so tests can pass their own)
     * @throws ConfigValidationException when neither is set; there is deliberately no default token
     */
    public static String resolve(AdminConfig admin, Map<String, String> env) throws ConfigValidationException {
        String fromEnv = env.get(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.strip();
        }
        String fromFile = admin == null ? null : admin.token();
        if (fromFile != null && !fromFile.isBlank()) {
            return fromFile.strip();
        }
        throw new ConfigValidationException("admin.token: missing; set admin.token in the configuration file or the "
                + ENV + " environment variable (there is no default token)");
    }
}
