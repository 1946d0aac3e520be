package io.loadwise.servers.probe;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The servlet the server tests deploy with the agent: {@code ping}, {@code session} (starts a session, so
 * the server sets its JSESSIONID with its route), {@code hold} (waits until {@code release}, at most 60 s,
 * so the test can see requests in flight) and {@code release}.
 */
@WebServlet("/probe/*")
public class ProbeServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static volatile CountDownLatch gate = new CountDownLatch(1);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String action = request.getPathInfo() == null ? "" : request.getPathInfo();
        response.setContentType("text/plain;charset=UTF-8");
        switch (action) {
            case "/ping" -> response.getWriter().print("pong");
            case "/session" -> response.getWriter().print("probe " + request.getSession(true).getId());
            case "/hold" -> {
                try {
                    boolean released = gate.await(60, TimeUnit.SECONDS);
                    response.getWriter().print(released ? "held" : "timed out");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    response.sendError(503);
                }
            }
            case "/release" -> {
                CountDownLatch old = gate;
                gate = new CountDownLatch(1);
                old.countDown();
                response.getWriter().print("released");
            }
            default -> response.sendError(404);
        }
    }
}
