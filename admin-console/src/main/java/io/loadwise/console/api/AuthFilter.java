package io.loadwise.console.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Lets a request through only with {@code Authorization: Bearer <token>} (SR-01); anything else gets 401
 * with {@code WWW-Authenticate: Bearer}. Tokens are compared as SHA-256 digests with
 * {@link MessageDigest#isEqual}, so the time taken depends neither on where they differ nor on their lengths.
 */
public final class AuthFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final String BEARER = "Bearer ";

    private final byte[] expectedDigest;

    public AuthFilter(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("empty admin token");
        }
        this.expectedDigest = sha256(token);
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            reject(response, "Bearer realm=\"loadwise\"", "missing bearer token (Authorization: Bearer <token>)");
            return;
        }
        String presented = header.substring(BEARER.length()).trim();
        if (!MessageDigest.isEqual(expectedDigest, sha256(presented))) {
            reject(response, "Bearer realm=\"loadwise\", error=\"invalid_token\"", "invalid bearer token");
            return;
        }
        chain.doFilter(request, response);
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
