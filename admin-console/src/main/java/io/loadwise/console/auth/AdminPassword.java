package io.loadwise.console.auth;

import java.io.IOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's single admin account. There is no default password: until {@code loadwise passwd} or
 * {@code LOADWISE_ADMIN_PASSWORD} (first start only) sets one, nobody can log in to the console; the REST
 * API still works with its bearer token.
 */
public final class AdminPassword {

    public static final String ENV_VARIABLE = "LOADWISE_ADMIN_PASSWORD";
    public static final int MIN_LENGTH = 8;
    public static final int MAX_LENGTH = 1024;
    private static final Logger log = LoggerFactory.getLogger(AdminPassword.class);

    private final PasswordFile file;
    private final PasswordHasher hasher;

    public AdminPassword(PasswordFile file, PasswordHasher hasher) {
        this.file = file;
        this.hasher = hasher;
    }

    public PasswordFile file() {
        return file;
    }

    public boolean isSet() {
        return file.exists();
    }

    /** Why a password is refused, or {@code null} when it is acceptable. */
    public static String problem(char[] password) {
        if (password == null || password.length < MIN_LENGTH) {
            return "the password must have at least " + MIN_LENGTH + " characters";
        }
        if (password.length > MAX_LENGTH) {
            return "the password must have at most " + MAX_LENGTH + " characters";
        }
        return null;
    }

    /**
     * Hashes and stores a new password.
     *
     * @throws IllegalArgumentException when {@link #problem} refuses it
     */
    public void set(char[] password) throws IOException {
        String problem = problem(password);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        file.write(hasher.hash(password));
    }

    /** False also when no password is set or the file is unreadable (logged). */
    public boolean verify(char[] password) {
        try {
            String stored = file.read();
            return stored != null && PasswordHasher.verify(password, stored);
        } catch (IOException | IllegalArgumentException e) {
            log.error("console login: cannot check the password in {}: {}", file.path(), e.getMessage());
            return false;
        }
    }

    /**
     * First start: when no password file exists yet and {@value #ENV_VARIABLE} is set, store it. An
     * existing file always wins, so a forgotten environment variable cannot reset a changed password.
     *
     * @return true when the variable was used
     */
    public boolean initialiseFrom(Map<String, String> env) throws IOException {
        String value = env.get(ENV_VARIABLE);
        if (value == null || value.isEmpty()) {
            return false;
        }
        if (isSet()) {
            log.info("{} ignored: the console password is already set in {}", ENV_VARIABLE, file.path());
            return false;
        }
        char[] password = value.toCharArray();
        try {
            set(password);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ENV_VARIABLE + ": " + e.getMessage(), e);
        } finally {
            PasswordHasher.wipe(password);
        }
        log.info("console password set from {} into {}", ENV_VARIABLE, file.path());
        return true;
    }
}
