package io.loadwise.console.auth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

/** The logged-in state kept in the servlet session (memory only, never persisted). */
public final class ConsoleSession {

    static final String USER = "loadwise.user";
    public static final String ADMIN = "admin";

    private ConsoleSession() {
    }

    /** True when the request's session belongs to a logged-in admin. */
    public static boolean loggedIn(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session != null && session.getAttribute(USER) != null;
    }

    /**
     * Marks the session logged in under a new session id (against session fixation) and a new CSRF
     * token.
     */
    public static void logIn(HttpServletRequest request) {
        HttpSession session = request.getSession(true);
        request.changeSessionId();
        session.removeAttribute(CsrfTokens.ATTRIBUTE);
        session.setAttribute(USER, ADMIN);
    }

    public static void logOut(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }
}
