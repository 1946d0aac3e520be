package io.loadwise.console.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** {@code /static/*}: the console's stylesheet and script, from the jar (no CDN: consoles run offline). */
final class StaticFiles {

    private static final Map<String, String> FILES = Map.of(
            "console.css", "text/css;charset=UTF-8",
            "console.js", "text/javascript;charset=UTF-8");

    private StaticFiles() {
    }

    static void serve(HttpServletResponse response, String name) throws IOException {
        String type = FILES.get(name);
        byte[] bytes = null;
        if (type != null) {
            try (InputStream in = StaticFiles.class.getResourceAsStream("/io/loadwise/console/static/" + name)) {
                bytes = in == null ? null : in.readAllBytes();
            }
        }
        if (bytes == null) {
            response.sendError(404);
            return;
        }
        response.setContentType(type);
        response.setHeader("Cache-Control", "max-age=60");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
