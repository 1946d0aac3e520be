package io.loadwise.console.auth;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Stores a console password hashed with few iterations, for tests that log in often. Verification reads
 * the iteration count from the file, so the login path is the production one, only cheaper.
 */
public final class TestPasswords {

    private TestPasswords() {
    }

    public static void set(Path dataDir, String password) throws IOException {
        new AdminPassword(PasswordFile.inDataDir(dataDir), new PasswordHasher(1_000)).set(password.toCharArray());
    }
}
