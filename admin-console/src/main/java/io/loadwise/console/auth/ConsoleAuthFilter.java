package io.loadwise.console.auth;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Guards the console pages (everything outside {@code /api/} and {@code /metrics}, which
 * {@link io.loadwise.console.api.AuthFilter} guards): without a logged-in session a page redirects to
 * the login page; every state-changing request, the login form included, must carry the session's CSRF
 * token, or it is refused with 403 before anything runs. It runs first for every request, so it also
 * refuses (400) raw paths that try to make a filter and the container disagree on the resource
 * ({@link RequestPaths}), and it decides on the normalised path.
 */
public final class ConsoleAuthFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String problem = RequestPaths.problem(request.getRequestURI());
        if (problem != null) {
            response.sendError(400, problem);
            return;
        }
        // Decide on the path that selected the servlet, not the raw URI (see RequestPaths).
        String path = RequestPaths.normalised(request);
        if (path.startsWith("/api/") || path.equals("/api") || path.equals("/metrics")) {
            chain.doFilter(request, response);
            return;
        }
        if (CsrfTokens.isStateChanging(request.getMethod())) {
            String presented = request.getHeader(CsrfTokens.HEADER);
            if (presented == null) {
                presented = request.getParameter(CsrfTokens.FORM_FIELD);
            }
            if (!CsrfTokens.matches(request.getSession(false), presented)) {
                forbidden(response);
                return;
            }
        }
        if (isPublic(path) || ConsoleSession.loggedIn(request)) {
            chain.doFilter(request, response);
            return;
        }
        response.setHeader("Cache-Control", "no-store");
        response.sendRedirect(request.getContextPath() + "/login");
    }

    private static boolean isPublic(String path) {
        return path.equals("/login") || path.startsWith("/static/") || path.equals("/favicon.ico");
    }

    private static void forbidden(HttpServletResponse response) throws IOException {
        byte[] body = """
                <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>403 Forbidden</title>
                <link rel="stylesheet" href="/static/console.css"></head><body><main class="narrow">
                <h1>403 Forbidden: missing or invalid CSRF token</h1>
                <p>This request changes something, so it must come from a form of this console carrying its
                security token. The page may be stale or your session may have expired.
                <a href="/">Reload the console</a> and try again.</p></main></body></html>
                """.getBytes(StandardCharsets.UTF_8);
        response.setStatus(403);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("text/html;charset=UTF-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
