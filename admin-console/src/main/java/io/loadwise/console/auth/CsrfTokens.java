package io.loadwise.console.auth;

import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Synchronizer tokens against cross-site request forgery: one random token per session, put in every
 * form ({@value #FORM_FIELD}) and in a {@code <meta>} tag for scripts ({@value #HEADER}); a state-changing
 * request must send it back.
 */
public final class CsrfTokens {

    public static final String FORM_FIELD = "_csrf";
    public static final String HEADER = "X-CSRF-Token";
    static final String ATTRIBUTE = "loadwise.csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfTokens() {
    }

    /** The session's token, created on first use. */
    public static String of(HttpSession session) {
        synchronized (session) {
            Object token = session.getAttribute(ATTRIBUTE);
            if (token instanceof String s) {
                return s;
            }
            byte[] bytes = new byte[32];
            RANDOM.nextBytes(bytes);
            String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            session.setAttribute(ATTRIBUTE, fresh);
            return fresh;
        }
    }

    /** Constant-time check of a presented token; false without a session or token. */
    public static boolean matches(HttpSession session, String presented) {
        if (session == null || presented == null || presented.isEmpty()) {
            return false;
        }
        Object expected = session.getAttribute(ATTRIBUTE);
        return expected instanceof String s && MessageDigest.isEqual(
                s.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    /** GET, HEAD and OPTIONS change nothing; everything else needs the token. */
    public static boolean isStateChanging(String method) {
        return !(method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS"));
    }
}
