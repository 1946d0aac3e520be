package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * How the dispatcher talks to a cluster's node agents: {@code "agent": {"secret": "…"}}.
 *
 * <p>The secret is the one the agents were given ({@code loadwise.agent.secret}); the node monitor sends
 * it on every poll as {@value #SECRET_HEADER}. {@value #SECRET_ENV} overrides it for every cluster. It is
 * kept in the configuration file but never printed: {@link #toString()} hides it, and the admin API shows
 * {@value #HIDDEN} in its place.
 *
 * @param secret the agents' shared secret, or {@code null} for agents whose endpoints are open
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentSettings(String secret) {

    /** Overrides every cluster's {@code agent.secret}, as {@code LOADWISE_ADMIN_TOKEN} does {@code admin.token}. */
    public static final String SECRET_ENV = "LOADWISE_AGENT_SECRET";
    /** The header the node agent reads the secret from (the agent's {@code MetricsEndpoint.SECRET_HEADER}). */
    public static final String SECRET_HEADER = "X-Loadwise-Secret";
    /**
     * What the admin API shows in place of a secret. Sent back unchanged in a {@code PUT}, it keeps the
     * secret in force; as a new secret it is refused, so a masked copy can never become the secret.
     */
    public static final String HIDDEN = "(hidden)";
    /** A secret is sent in a header on every poll; a longer one is a mistake (a pasted file), not a key. */
    public static final int MAX_SECRET_LENGTH = 1024;

    /** The canonical constructor is the one JSON uses (a one-field record is otherwise ambiguous to Jackson). */
    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    public AgentSettings {
    }

    /** Never the secret itself: configurations end up in logs and exception messages. */
    @Override
    public String toString() {
        return "AgentSettings[secret=" + (secret == null ? "none" : HIDDEN) + "]";
    }

    /** This cluster's configured secret, or {@code null}. */
    public static String secretOf(ClusterConfig cluster) {
        return cluster.agent() == null ? null : cluster.agent().secret();
    }

    /**
     * Why {@code secret} cannot be sent as it is, or {@code null} when it can. The message never repeats
     * the secret, so it can be shown and logged.
     */
    public static String problem(String secret) {
        if (secret.isBlank()) {
            return "blank; leave the secret out when the agents have none";
        }
        if (secret.length() > MAX_SECRET_LENGTH) {
            return "too long (" + secret.length() + " characters, at most " + MAX_SECRET_LENGTH + ")";
        }
        if (secret.equals(HIDDEN)) {
            return "'" + HIDDEN + "' is what the API shows in place of a secret, not a secret; give the real one";
        }
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                // The agent compares bytes of an HTTP header value: only visible ASCII arrives unchanged.
                return "character " + (i + 1) + " is not allowed: a secret is sent in an HTTP header, so it may "
                        + "hold only visible ASCII characters (letters, digits, punctuation; no spaces or control "
                        + "characters)";
            }
        }
        return null;
    }

    /**
     * {@value #SECRET_ENV} from {@code env}, stripped, or {@code null} when it is unset or blank.
     *
     * @throws ConfigValidationException when it is set but cannot be sent ({@link #problem})
     */
    public static String secretFromEnv(Map<String, String> env) throws ConfigValidationException {
        String value = env.get(SECRET_ENV);
        if (value == null || value.isBlank()) {
            return null;
        }
        String secret = value.strip(); // `export X=$(cat file)` style values end in a newline
        String problem = problem(secret);
        if (problem != null) {
            throw new ConfigValidationException(SECRET_ENV + ": " + problem);
        }
        return secret;
    }
}
