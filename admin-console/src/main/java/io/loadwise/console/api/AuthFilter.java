package io.loadwise.console.api;

import io.loadwise.console.auth.ConsoleSession;
import io.loadwise.console.auth.CsrfTokens;
import io.loadwise.console.auth.FailureLog;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.auth.SourceThrottle;
import io.loadwise.dispatcher.config.AdminToken;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a request through only with {@code Authorization: Bearer <token>} (SR-01) or from a logged-in
 * console session; anything else gets 401 with {@code WWW-Authenticate: Bearer}. A session-authenticated
 * request that changes state must also carry the session's CSRF token in {@code X-CSRF-Token} (403
 * otherwise); a bearer token is never sent by a browser on its own, so bearer requests need none. Tokens are
 * compared as SHA-256 digests with {@link MessageDigest#isEqual}, so the time taken depends neither on where
 * they differ nor on their lengths.
 *
 * <p>Wrong tokens are throttled per source address like console logins ({@link SourceThrottle}): after a few,
 * requests with a token from that address get 429 with {@code Retry-After} until their delay has passed,
 * without the token being checked. Each wrong or throttled token is logged at WARN with the address,
 * rate-limited ({@link FailureLog}). A request without any bearer token is not a guess and only gets its 401.
 */
public final class AuthFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(AuthFilter.class);
    private static final String BEARER = "Bearer ";

    private final byte[] expectedDigest;
    /** The registration token's digest, {@code null} without one; it reaches the registration calls only. */
    private final byte[] registrationDigest;
    private final transient SourceThrottle throttle;
    private final transient FailureLog failures;

    public AuthFilter(String token, Clock clock) {
        this(token, null, clock);
    }

    /**
     * @param registrationToken the token nodes register with ({@code admin.registrationToken}), or {@code null};
     *     it gets 403 on every call but {@code POST /api/clusters/{name}/registrations} and
     *     {@code DELETE /api/clusters/{name}/registrations/{node}}
     */
    public AuthFilter(String token, String registrationToken, Clock clock) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("empty admin token");
        }
        if (token.length() < AdminToken.MIN_LENGTH) {
            throw new IllegalArgumentException("admin token too short: " + token.length() + " characters, at least "
                    + AdminToken.MIN_LENGTH + " needed");
        }
        this.expectedDigest = sha256(token);
        this.registrationDigest = registrationToken == null || registrationToken.isBlank() ? null
                : sha256(registrationToken.strip());
        this.throttle = new SourceThrottle(clock);
        this.failures = new FailureLog(log, "admin API bearer token", clock);
    }

    public AuthFilter(String token) {
        this(token, Clock.systemUTC());
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String header = request.getHeader("Authorization");
        if (header == null && ConsoleSession.loggedIn(request)) {
            if (CsrfTokens.isStateChanging(request.getMethod())
                    && !CsrfTokens.matches(request.getSession(false), request.getHeader(CsrfTokens.HEADER))) {
                Responses.writeError(response, new ApiException(403, "missing or invalid CSRF token: a console "
                        + "session must send its token in the " + CsrfTokens.HEADER + " header"));
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            reject(response, "Bearer realm=\"loadwise\"", "missing bearer token (Authorization: Bearer <token>)");
            return;
        }
        String remote = request.getRemoteAddr();
        Duration wait = throttle.admit(remote);
        if (!wait.isZero()) {
            long seconds = LoginGuard.seconds(wait);
            failures.failed(remote, "refused unchecked, the address must wait " + seconds + " s more");
            response.setHeader("Retry-After", Long.toString(seconds));
            Responses.writeError(response, new ApiException(429, "too many invalid bearer tokens from this address: "
                    + "retry after " + seconds + " s (requests sooner are refused without checking the token)"));
            return;
        }
        String presented = header.substring(BEARER.length()).trim();
        byte[] digest = sha256(presented);
        if (registrationDigest != null && MessageDigest.isEqual(registrationDigest, digest)) {
            throttle.succeeded(remote);
            String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
            if (!RegistrationsResource.registrationCall(request.getMethod(), path)) {
                Responses.writeError(response, new ApiException(403, "the registration token may only register "
                        + "and deregister nodes (POST /api/clusters/{name}/registrations, DELETE "
                        + "/api/clusters/{name}/registrations/{node})"));
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        if (!MessageDigest.isEqual(expectedDigest, digest)) {
            int inARow = throttle.failed(remote);
            failures.failed(remote, "invalid token on " + request.getMethod() + " " + request.getServletPath()
                    + " (" + inARow + " in a row)");
            reject(response, "Bearer realm=\"loadwise\", error=\"invalid_token\"", "invalid bearer token");
            return;
        }
        throttle.succeeded(remote);
        chain.doFilter(request, response);
    }

    /** Writes the summary of failures left out of the log; called periodically. */
    public void summariseFailures() {
        failures.summarise();
    }

    private static void reject(HttpServletResponse response, String challenge, String error) throws IOException {
        response.setHeader("WWW-Authenticate", challenge);
        Responses.writeError(response, new ApiException(401, error));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
