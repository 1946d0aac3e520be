package io.loadwise.console.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Login attempts against the admin account: {@value #MAX_FAILURES} wrong passwords in a row lock it for
 * {@link #LOCK_TIME}. While locked every attempt is refused without checking the password, so guessing
 * gains nothing and costs no hashing. The account is global (one admin), so is the counter.
 */
public final class LoginGuard {

    public static final int MAX_FAILURES = 5;
    public static final Duration LOCK_TIME = Duration.ofMinutes(5);
    private static final Logger log = LoggerFactory.getLogger(LoginGuard.class);

    /** What a login attempt came to. */
    public sealed interface Outcome {
        /** The password was right. */
        record Success() implements Outcome {
        }

        /** No password is set yet. */
        record NoPassword() implements Outcome {
        }

        /** Wrong password; {@code attemptsLeft} more before the lock. */
        record Wrong(int attemptsLeft) implements Outcome {
        }

        /** Locked; try again after {@code remaining}. */
        record Locked(Duration remaining) implements Outcome {
        }
    }

    private final AdminPassword password;
    private final Clock clock;
    private int failures;
    private Instant lockedUntil = Instant.MIN;

    public LoginGuard(AdminPassword password, Clock clock) {
        this.password = password;
        this.clock = clock;
    }

    public AdminPassword password() {
        return password;
    }

    /** Checks {@code attempt}; {@code remote} names the client in the WARN logged on lock. */
    public synchronized Outcome attempt(char[] attempt, String remote) {
        Duration remaining = lockRemaining();
        if (!remaining.isZero()) {
            return new Outcome.Locked(remaining);
        }
        if (!password.isSet()) {
            return new Outcome.NoPassword();
        }
        if (password.verify(attempt)) {
            failures = 0;
            return new Outcome.Success();
        }
        failures++;
        if (failures >= MAX_FAILURES) {
            failures = 0;
            lockedUntil = clock.instant().plus(LOCK_TIME);
            log.warn("console login locked for {} s after {} wrong passwords (last from {})",
                    LOCK_TIME.toSeconds(), MAX_FAILURES, remote);
            return new Outcome.Locked(LOCK_TIME);
        }
        return new Outcome.Wrong(MAX_FAILURES - failures);
    }

    /** Zero when not locked. */
    public synchronized Duration lockRemaining() {
        Instant now = clock.instant();
        return now.isBefore(lockedUntil) ? Duration.between(now, lockedUntil) : Duration.ZERO;
    }
}
