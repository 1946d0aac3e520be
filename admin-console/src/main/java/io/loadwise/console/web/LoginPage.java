package io.loadwise.console.web;

import io.loadwise.console.auth.AdminPassword;
import io.loadwise.console.auth.ConsoleSession;
import io.loadwise.console.auth.LoginGuard;
import io.loadwise.console.auth.PasswordHasher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;

/** {@code /login} and {@code /logout}. */
final class LoginPage {

    private final LoginGuard guard;

    LoginPage(LoginGuard guard) {
        this.guard = guard;
    }

    void get(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (ConsoleSession.loggedIn(request)) {
            Layout.redirect(response, "/");
            return;
        }
        show(request, response, 200, null);
    }

    void post(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String typed = request.getParameter("password");
        char[] password = typed == null ? new char[0] : typed.toCharArray();
        LoginGuard.Outcome outcome;
        try {
            outcome = guard.attempt(password, request.getRemoteAddr());
        } finally {
            PasswordHasher.wipe(password);
        }
        if (outcome instanceof LoginGuard.Outcome.Success) {
            ConsoleSession.logIn(request);
            Layout.redirect(response, "/");
            return;
        }
        String message;
        int status = 401;
        if (outcome instanceof LoginGuard.Outcome.Wrong wrong) {
            message = wrongMessage(wrong);
        } else if (outcome instanceof LoginGuard.Outcome.Throttled throttled) {
            message = throttledMessage(throttled.retryAfter());
            status = 429;
            response.setHeader("Retry-After", Long.toString(LoginGuard.seconds(throttled.retryAfter())));
        } else {
            message = "No admin password is set yet (see below).";
        }
        show(request, response, status, message);
    }

    void logout(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ConsoleSession.logOut(request);
        Layout.redirect(response, "/login");
    }

    static String wrongMessage(LoginGuard.Outcome.Wrong wrong) {
        if (wrong.retryAfter().isZero()) {
            return "Wrong password. After " + wrong.freeAttemptsLeft() + " more wrong "
                    + (wrong.freeAttemptsLeft() == 1 ? "password" : "passwords")
                    + " from your address, each further attempt from it must wait, longer each time.";
        }
        return "Wrong password. Wait " + secondsText(wrong.retryAfter()) + " before you try again from this address.";
    }

    static String throttledMessage(Duration wait) {
        return "Too many wrong passwords from your address. Wait " + secondsText(wait)
                + " before you try again: earlier attempts are refused without being checked.";
    }

    private static String secondsText(Duration wait) {
        long seconds = LoginGuard.seconds(wait);
        return seconds + (seconds == 1 ? " second" : " seconds");
    }

    private void show(HttpServletRequest request, HttpServletResponse response, int status, String error)
            throws IOException {
        StringBuilder body = new StringBuilder("<section class=\"narrow\"><h1>Log in to the Loadwise console</h1>");
        if (error != null) {
            body.append("<p class=\"error\" id=\"login-error\" role=\"alert\">").append(Html.text(error)).append("</p>");
        }
        Duration wait = guard.waitFor(request.getRemoteAddr());
        if (error == null && !wait.isZero()) {
            body.append("<p class=\"error\" id=\"login-error\" role=\"alert\">")
                    .append(Html.text(throttledMessage(wait))).append("</p>");
        }
        AdminPassword password = guard.password();
        if (!password.isSet()) {
            body.append("<div class=\"notice\" id=\"no-password\"><h2>No admin password is set</h2>")
                    .append("<p>The console has no default password. Set one on the dispatcher's machine, then log in:</p>")
                    .append("<pre>./loadwise passwd --config loadwise.json</pre>")
                    .append("<p>or start the dispatcher the first time with the environment variable <code>")
                    .append(AdminPassword.ENV_VARIABLE).append("</code> set. The password is stored hashed in <code>")
                    .append(Html.text(password.file().path())).append("</code>. The REST API keeps working with ")
                    .append("its bearer token meanwhile.</p></div>");
        }
        body.append("<form method=\"post\" action=\"/login\" class=\"login\">").append(Layout.csrfField(request))
                .append("<label for=\"password\">Admin password</label>")
                .append("<input type=\"password\" id=\"password\" name=\"password\" autocomplete=\"current-password\" required autofocus>")
                .append("<button type=\"submit\" id=\"login-submit\">Log in</button></form></section>");
        Layout.write(request, response, status, "Log in", "/login", body.toString());
    }
}
