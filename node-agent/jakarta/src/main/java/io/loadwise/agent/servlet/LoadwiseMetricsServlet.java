package io.loadwise.agent.servlet;

import io.loadwise.agent.AgentRuntime;
import io.loadwise.agent.http.EndpointResponse;
import io.loadwise.agent.http.MetricsEndpoint;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The pull endpoints under {@code <context>/loadwise-agent/}: {@code metrics} (JSON) and
 * {@code metrics.html}. All logic lives in {@link MetricsEndpoint}; this class only adapts the servlet API.
 */
public class LoadwiseMetricsServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object runtime = getServletContext().getAttribute(LoadwiseAgentListener.RUNTIME_ATTRIBUTE);
        response.setHeader("Cache-Control", "no-store");
        if (!(runtime instanceof AgentRuntime)) {
            Object error = getServletContext().getAttribute(LoadwiseAgentListener.ERROR_ATTRIBUTE);
            write(response, 503, "text/plain;charset=UTF-8",
                    (error == null ? "Loadwise agent is not running" : error) + "\n");
            return;
        }
        EndpointResponse answer = ((AgentRuntime) runtime).endpoint().handle(request.getPathInfo(),
                request.getHeader(MetricsEndpoint.SECRET_HEADER), request.getHeader("Authorization"));
        if (answer.challenge()) {
            response.setHeader("WWW-Authenticate", MetricsEndpoint.CHALLENGE);
        }
        write(response, answer.status(), answer.contentType(), answer.body());
    }

    private static void write(HttpServletResponse response, int status, String contentType, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(contentType);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
