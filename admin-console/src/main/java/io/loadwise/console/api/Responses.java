package io.loadwise.console.api;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes JSON bodies; every API answer, errors included, goes through here. */
final class Responses {

    private Responses() {
    }

    static void write(HttpServletResponse response, int status, Object body) throws IOException {
        response.setStatus(status);
        response.setHeader("Cache-Control", "no-store");
        if (body == null) {
            return;
        }
        byte[] bytes = ApiJson.MAPPER.writeValueAsBytes(body);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    static void writeError(HttpServletResponse response, ApiException error) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error.getMessage());
        body.put("details", error.details());
        write(response, error.status(), body);
    }
}
