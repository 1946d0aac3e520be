package io.loadwise.dispatcher.config;

import java.util.Map;

/** The effective bearer token of the admin API: {@code LOADWISE_ADMIN_TOKEN} wins over {@code admin.token}. */
public final class AdminToken {

    public static final String ENV = "LOADWISE_ADMIN_TOKEN";
    /** Shorter tokens are refused: a short secret can be guessed over the network. */
    public static final int MIN_LENGTH = 16;

    private AdminToken() {
    }

    /**
     * @param env the process environment (a map so tests can pass their own)
     * @throws ConfigValidationException when neither is set (there is deliberately no default token) or when
     *     {@value #ENV} is shorter than {@value #MIN_LENGTH} characters; a short {@code admin.token} is
     *     {@link ConfigValidator}'s to report
     */
    public static String resolve(AdminConfig admin, Map<String, String> env) throws ConfigValidationException {
        String fromEnv = env.get(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            String token = fromEnv.strip();
            String problem = problem(token);
            if (problem != null) {
                throw new ConfigValidationException(ENV + ": " + problem);
            }
            return token;
        }
        String fromFile = admin == null ? null : admin.token();
        if (fromFile != null && !fromFile.isBlank()) {
            return fromFile.strip();
        }
        throw new ConfigValidationException("admin.token: missing; set admin.token in the configuration file or the "
                + ENV + " environment variable (there is no default token)");
    }

    /** Why {@code token} (already stripped) is refused, or {@code null} when it is long enough. */
    public static String problem(String token) {
        if (token.length() >= MIN_LENGTH) {
            return null;
        }
        return "too short (" + token.length() + " characters); an admin token needs at least " + MIN_LENGTH
                + " characters, for example the output of `openssl rand -hex 24`";
    }
}
