package io.loadwise.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoginGuardTest {

    private static final String RIGHT = "s3cret-pass";

    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock();
    private AdminPassword password;
    private LoginGuard guard;

    @BeforeEach
    void setUp() {
        password = new AdminPassword(PasswordFile.inDataDir(dir.resolve("data")), new PasswordHasher(1_000));
        guard = new LoginGuard(password, clock);
    }

    private LoginGuard.Outcome attempt(String typed) {
        return guard.attempt(typed.toCharArray(), "127.0.0.1");
    }

    @Test
    void withoutAPasswordNobodyLogsIn() {
        assertFalse(password.isSet());
        assertInstanceOf(LoginGuard.Outcome.NoPassword.class, attempt(""));
        assertInstanceOf(LoginGuard.Outcome.NoPassword.class, attempt(RIGHT));
    }

    @Test
    void rightPasswordLogsInWrongOneCountsDown() throws IOException {
        password.set(RIGHT.toCharArray());
        assertEquals(new LoginGuard.Outcome.Wrong(4), attempt("nope"));
        assertEquals(new LoginGuard.Outcome.Wrong(3), attempt("nope again"));
        assertInstanceOf(LoginGuard.Outcome.Success.class, attempt(RIGHT));
        assertEquals(new LoginGuard.Outcome.Wrong(4), attempt("nope"), "a success resets the count");
    }

    @Test
    void fiveWrongPasswordsLockForFiveMinutesEvenAgainstTheRightOne() throws IOException {
        password.set(RIGHT.toCharArray());
        for (int i = 0; i < 4; i++) {
            assertInstanceOf(LoginGuard.Outcome.Wrong.class, attempt("guess" + i));
        }
        assertEquals(new LoginGuard.Outcome.Locked(Duration.ofMinutes(5)), attempt("guess4"));
        assertEquals(Duration.ofMinutes(5), guard.lockRemaining());

        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        LoginGuard.Outcome stillLocked = attempt(RIGHT);
        assertEquals(new LoginGuard.Outcome.Locked(Duration.ofSeconds(1)), stillLocked);

        clock.advance(Duration.ofSeconds(1));
        assertTrue(guard.lockRemaining().isZero());
        assertInstanceOf(LoginGuard.Outcome.Success.class, attempt(RIGHT));
    }

    @Test
    void afterTheLockTheCountStartsAfresh() throws IOException {
        password.set(RIGHT.toCharArray());
        for (int i = 0; i < 5; i++) {
            attempt("guess" + i);
        }
        clock.advance(LoginGuard.LOCK_TIME);
        assertEquals(new LoginGuard.Outcome.Wrong(4), attempt("guess again"));
    }

    @Test
    void passwordFileIsOwnerOnlyAndHoldsNoPlainText() throws IOException {
        password.set(RIGHT.toCharArray());
        Path file = password.file().path();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String stored = Files.readString(file);
        assertFalse(stored.contains(RIGHT));
        assertTrue(stored.startsWith("pbkdf2-sha256:"), stored);
        try (var leftovers = Files.list(file.getParent())) {
            assertEquals(1, leftovers.count(), "no temporary files left behind");
        }
    }

    @Test
    void shortPasswordsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> password.set("short".toCharArray()));
        assertTrue(e.getMessage().contains("at least 8"), e.getMessage());
        assertFalse(password.isSet());
    }

    @Test
    void environmentVariableSetsThePasswordOnlyOnFirstStart() throws IOException {
        assertFalse(password.initialiseFrom(Map.of()));
        assertTrue(password.initialiseFrom(Map.of(AdminPassword.ENV_VARIABLE, "from-the-env")));
        assertTrue(password.verify("from-the-env".toCharArray()));
        assertFalse(password.initialiseFrom(Map.of(AdminPassword.ENV_VARIABLE, "another-one")),
                "an existing password file wins");
        assertTrue(password.verify("from-the-env".toCharArray()));
    }

    @Test
    void tooShortEnvironmentPasswordIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> password.initialiseFrom(Map.of(AdminPassword.ENV_VARIABLE, "abc")));
        assertTrue(e.getMessage().startsWith(AdminPassword.ENV_VARIABLE), e.getMessage());
    }
}
