package io.loadwise.console.auth;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;

/**
 * What the access decisions look at: the path as the container mapped it, never the raw URI. The raw
 * {@code /api/%2e%2e/clusters} starts with {@code /api/}, but Tomcat decodes and normalises it to
 * {@code /clusters} and serves it there, so a filter that read the raw text would judge one resource and let
 * another be served. Raw paths that only an attempt to confuse the two would send are refused outright.
 */
public final class RequestPaths {

    private RequestPaths() {
    }

    /** The decoded, normalised path within the context, without path parameters: what selected the servlet. */
    public static String normalised(HttpServletRequest request) {
        String info = request.getPathInfo();
        return request.getServletPath() + (info == null ? "" : info);
    }

    /**
     * Why the raw request path (as sent, still percent-encoded) is refused, or {@code null} when it is not.
     * Refused: encoded slashes and backslashes, path parameters ({@code ;}), and dot-segments written with
     * percent-encoding. None of them has a use in the console or the API.
     */
    public static String problem(String rawPath) {
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c")) {
            return "encoded slash or backslash in the path";
        }
        if (rawPath.indexOf(';') >= 0) {
            return "path parameters (;) are not accepted";
        }
        for (String segment : lower.split("/", -1)) {
            if (segment.indexOf('%') >= 0) {
                String decoded = segment.replace("%2e", ".");
                if (decoded.equals(".") || decoded.equals("..")) {
                    return "encoded dot-segment (%2e) in the path";
                }
            }
        }
        return null;
    }
}
