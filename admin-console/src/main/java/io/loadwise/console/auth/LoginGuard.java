package io.loadwise.console.auth;

import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Login attempts against the admin account, throttled per source address by a {@link SourceThrottle}:
 * after {@value SourceThrottle#FREE_FAILURES} wrong passwords from one address, each further attempt from
 * it must wait a growing delay, and an attempt that comes too early is refused without checking the
 * password (so guessing gains nothing and costs no hashing). Other addresses are never held up: the right
 * password from elsewhere always logs in at once. Failures are logged at WARN with the address, rate-limited
 * by a {@link FailureLog}.
 *
 * <p>The password check itself runs outside any lock: the hash takes a while on purpose, and one client's
 * guess must not hold up another client's login.
 */
public final class LoginGuard {

    private static final Logger log = LoggerFactory.getLogger(LoginGuard.class);

    /** What a login attempt came to. */
    public sealed interface Outcome {
        /** The password was right. */
        record Success() implements Outcome {
        }

        /** No password is set yet. */
        record NoPassword() implements Outcome {
        }

        /**
         * Wrong password. {@code freeAttemptsLeft} more may fail before attempts from this address are
         * delayed; {@code retryAfter} is how long the next attempt from it must wait (zero while free ones are left).
         */
        record Wrong(int freeAttemptsLeft, Duration retryAfter) implements Outcome {
        }

        /** Refused without checking the password: this address must wait {@code retryAfter} first. */
        record Throttled(Duration retryAfter) implements Outcome {
        }
    }

    private final AdminPassword password;
    private final SourceThrottle throttle;
    private final FailureLog failures;

    public LoginGuard(AdminPassword password, Clock clock) {
        this.password = password;
        this.throttle = new SourceThrottle(clock);
        this.failures = new FailureLog(log, "console login", clock);
    }

    public AdminPassword password() {
        return password;
    }

    /** Checks {@code attempt} from the client address {@code remote}. */
    public Outcome attempt(char[] attempt, String remote) {
        if (!password.isSet()) {
            return new Outcome.NoPassword();
        }
        Duration wait = throttle.admit(remote);
        if (!wait.isZero()) {
            failures.failed(remote, "refused unchecked, the address must wait " + seconds(wait) + " s more");
            return new Outcome.Throttled(wait);
        }
        if (password.verify(attempt)) {
            throttle.succeeded(remote);
            log.info("console login from {}", remote);
            return new Outcome.Success();
        }
        int inARow = throttle.failed(remote);
        Duration next = throttle.waitFor(remote);
        failures.failed(remote, "wrong password (" + inARow + " in a row"
                + (next.isZero() ? "" : "; next attempt from this address in " + seconds(next) + " s") + ")");
        return new Outcome.Wrong(throttle.freeAttemptsLeft(remote), next);
    }

    /** How long {@code remote} must wait before its next attempt is checked; zero when it need not. */
    public Duration waitFor(String remote) {
        return throttle.waitFor(remote);
    }

    /** Writes the summary of failures left out of the log; called periodically. */
    public void summariseFailures() {
        failures.summarise();
    }

    /** Whole seconds, rounded up, at least 1: what a person is told to wait. */
    public static long seconds(Duration wait) {
        long seconds = wait.toSeconds() + (wait.toNanosPart() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }
}
