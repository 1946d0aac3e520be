package io.loadwise.console.web;

import io.loadwise.console.auth.ConsoleSession;
import io.loadwise.console.auth.CsrfTokens;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The frame of every console page: navigation, the CSRF token for forms and scripts, the stylesheet and
 * script (static files only: the CSP allows no inline script or style).
 */
final class Layout {

    private static final List<String[]> NAV = List.of(
            new String[] {"/", "Overview"},
            new String[] {"/clusters", "Configuration"},
            new String[] {"/listeners", "Listeners"},
            new String[] {"/replicas", "Replicas"},
            new String[] {"/graphs", "Metrics"},
            new String[] {"/requests", "Live requests"},
            new String[] {"/logs", "Logs"},
            new String[] {"/jvm", "Dispatcher JVM"},
            new String[] {"/capacity", "Capacity planner"},
            new String[] {"/docs", "Documentation"});

    private Layout() {
    }

    /** A hidden form field with the session's CSRF token. */
    static String csrfField(HttpServletRequest request) {
        return "<input type=\"hidden\" name=\"" + CsrfTokens.FORM_FIELD + "\" value=\""
                + Html.text(CsrfTokens.of(request.getSession(true))) + "\">";
    }

    /** A small POST form with one button (and hidden fields given as name/value pairs). */
    static String button(HttpServletRequest request, String action, String label, String cssClass, String... fields) {
        StringBuilder b = new StringBuilder("<form method=\"post\" class=\"inline\" action=\"")
                .append(Html.text(action)).append("\">").append(csrfField(request));
        for (int i = 0; i + 1 < fields.length; i += 2) {
            b.append("<input type=\"hidden\" name=\"").append(Html.text(fields[i])).append("\" value=\"")
                    .append(Html.text(fields[i + 1])).append("\">");
        }
        return b.append("<button type=\"submit\" class=\"").append(cssClass).append("\">").append(Html.text(label))
                .append("</button></form>").toString();
    }

    static void write(HttpServletRequest request, HttpServletResponse response, int status, String title,
            String active, String body) throws IOException {
        StringBuilder page = new StringBuilder(4096 + body.length());
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(Html.text(title)).append(" · Loadwise</title>")
                .append("<link rel=\"stylesheet\" href=\"/static/console.css\">");
        boolean loggedIn = ConsoleSession.loggedIn(request);
        if (request.getSession(false) != null) {
            page.append("<meta name=\"csrf-token\" content=\"")
                    .append(Html.text(CsrfTokens.of(request.getSession(false)))).append("\">");
        }
        page.append("<script src=\"/static/console.js\" defer></script></head><body>")
                .append("<header><a class=\"brand\" href=\"/\">Loadwise</a>");
        if (loggedIn) {
            page.append("<nav>");
            for (String[] item : NAV) {
                boolean current = item[0].equals(active);
                page.append("<a href=\"").append(item[0]).append('"').append(current ? " class=\"current\"" : "")
                        .append('>').append(item[1]).append("</a>");
            }
            page.append("</nav>").append(button(request, "/logout", "Log out", "link"));
        }
        page.append("</header><main>").append(body).append("</main></body></html>\n");
        byte[] bytes = page.toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("text/html;charset=UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    static void ok(HttpServletRequest request, HttpServletResponse response, String title, String active,
            String body) throws IOException {
        write(request, response, 200, title, active, body);
    }

    /** Post/redirect/get: after a change the browser reloads a page instead of re-posting. */
    static void redirect(HttpServletResponse response, String location) throws IOException {
        response.setStatus(303);
        response.setHeader("Location", location);
    }
}
