package io.loadwise.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.loadwise.console.testing.LogLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoginGuardTest {

    private static final String RIGHT = "s3cret-pass";
    private static final String HOME = "127.0.0.1";
    private static final String ATTACKER = "203.0.113.9";

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
        return attemptFrom(HOME, typed);
    }

    private LoginGuard.Outcome attemptFrom(String remote, String typed) {
        return guard.attempt(typed.toCharArray(), remote);
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
        assertEquals(new LoginGuard.Outcome.Wrong(2, Duration.ZERO), attempt("nope"));
        assertEquals(new LoginGuard.Outcome.Wrong(1, Duration.ZERO), attempt("nope again"));
        assertInstanceOf(LoginGuard.Outcome.Success.class, attempt(RIGHT));
        assertEquals(new LoginGuard.Outcome.Wrong(2, Duration.ZERO), attempt("nope"), "a success resets the count");
    }

    @Test
    void afterThreeWrongPasswordsOneAddressWaitsLongerEachTimeEvenWithTheRightOne() throws IOException {
        password.set(RIGHT.toCharArray());
        attempt("guess1");
        attempt("guess2");
        assertEquals(new LoginGuard.Outcome.Wrong(0, Duration.ofSeconds(1)), attempt("guess3"));
        assertEquals(new LoginGuard.Outcome.Throttled(Duration.ofSeconds(1)), attempt(RIGHT),
                "too early: refused without checking, even the right password");
        clock.advance(Duration.ofSeconds(1));
        assertEquals(new LoginGuard.Outcome.Wrong(0, Duration.ofSeconds(2)), attempt("guess4"));
        clock.advance(Duration.ofMillis(1500));
        assertEquals(new LoginGuard.Outcome.Throttled(Duration.ofMillis(500)), attempt(RIGHT));
        assertEquals(1, LoginGuard.seconds(guard.waitFor(HOME)), "people are told whole seconds, rounded up");
        clock.advance(Duration.ofMillis(500));
        assertInstanceOf(LoginGuard.Outcome.Success.class, attempt(RIGHT));
        assertEquals(Duration.ZERO, guard.waitFor(HOME));
    }

    @Test
    void anAttackerNeverLocksTheAdminOut() throws IOException {
        password.set(RIGHT.toCharArray());
        for (int i = 0; i < 20; i++) {
            clock.advance(guard.waitFor(ATTACKER));
            assertInstanceOf(LoginGuard.Outcome.Wrong.class, attemptFrom(ATTACKER, "guess" + i));
        }
        assertInstanceOf(LoginGuard.Outcome.Throttled.class, attemptFrom(ATTACKER, RIGHT));
        assertInstanceOf(LoginGuard.Outcome.Success.class, attemptFrom(HOME, RIGHT), "another address logs in at once");
        assertEquals(Duration.ZERO, guard.waitFor(HOME));
    }

    @Test
    void failedLoginsAreLoggedWithTheirAddress() throws IOException {
        password.set(RIGHT.toCharArray());
        try (LogLines lines = new LogLines(LoginGuard.class, Level.INFO)) {
            for (int i = 1; i <= 3; i++) {
                attemptFrom(ATTACKER, "guess" + i);
                clock.advance(FailureLog.PERIOD);
            }
            attemptFrom(ATTACKER, RIGHT);
            attemptFrom(HOME, RIGHT);
            assertEquals(List.of("WARN console login failed from 203.0.113.9: wrong password (1 in a row)",
                    "WARN console login failed from 203.0.113.9: wrong password (2 in a row)",
                    "WARN console login failed from 203.0.113.9: wrong password (3 in a row; next attempt from this "
                            + "address in 1 s)",
                    "INFO console login from 203.0.113.9",
                    "INFO console login from 127.0.0.1"), lines.lines());
        }
    }

    @Test
    void refusedLoginsAreLoggedToo() throws IOException {
        password.set(RIGHT.toCharArray());
        for (int i = 0; i < 8; i++) {
            clock.advance(guard.waitFor(ATTACKER));
            attemptFrom(ATTACKER, "guess" + i);
        }
        assertEquals(Duration.ofSeconds(32), guard.waitFor(ATTACKER));
        clock.advance(FailureLog.PERIOD);
        try (LogLines lines = new LogLines(LoginGuard.class, Level.INFO)) {
            assertEquals(new LoginGuard.Outcome.Throttled(Duration.ofSeconds(22)), attemptFrom(ATTACKER, RIGHT));
            assertEquals(List.of("WARN console login failed from 203.0.113.9: refused unchecked, the address must "
                    + "wait 22 s more"), lines.lines());
        }
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
