package io.loadwise.agent.http;

import io.loadwise.agent.sample.MetricsSnapshot;
import io.loadwise.agent.sample.Sampler;
import io.loadwise.wire.MetricsJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The pull endpoints, independent of the servlet API: {@value #JSON_PATH} (JSON, see
 * {@link MetricsJson}) and {@value #HTML_PATH} (an HTML table). With a shared secret configured, a
 * request must present it as {@code X-Loadwise-Secret: <secret>} or {@code Authorization: Bearer <secret>};
 * the comparison takes constant time. Nothing is ever Java-serialized.
 */
public final class MetricsEndpoint {

    /** Where the servlet flavours map the endpoint servlet, relative to the context path. */
    public static final String SERVLET_PATH = "/loadwise-agent";
    public static final String JSON_PATH = "/metrics";
    public static final String HTML_PATH = "/metrics.html";
    public static final String SECRET_HEADER = "X-Loadwise-Secret";
    public static final String CHALLENGE = "Bearer realm=\"loadwise-agent\"";

    private final Sampler sampler;
    private final byte[] secret;

    /** @param secret the shared secret, or {@code null} for open endpoints */
    public MetricsEndpoint(Sampler sampler, String secret) {
        this.sampler = sampler;
        this.secret = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Answers a GET.
     *
     * @param pathInfo the path below {@value #SERVLET_PATH}, e.g. {@value #JSON_PATH}
     * @param secretHeader the {@value #SECRET_HEADER} header, or {@code null}
     * @param authorization the {@code Authorization} header, or {@code null}
     */
    public EndpointResponse handle(String pathInfo, String secretHeader, String authorization) {
        if (!authorized(secretHeader, authorization)) {
            return new EndpointResponse(401, "text/plain;charset=UTF-8", "Loadwise agent: shared secret required\n");
        }
        MetricsSnapshot snapshot = sampler.latest();
        if (JSON_PATH.equals(pathInfo)) {
            return new EndpointResponse(200, "application/json;charset=UTF-8",
                    MetricsJson.encode(snapshot.timestampMillis(), snapshot.metrics(), snapshot.sources()));
        }
        if (HTML_PATH.equals(pathInfo)) {
            return new EndpointResponse(200, "text/html;charset=UTF-8", HtmlReport.render(snapshot));
        }
        return new EndpointResponse(404, "text/plain;charset=UTF-8",
                "Loadwise agent: unknown path; use " + SERVLET_PATH + JSON_PATH + " or " + SERVLET_PATH + HTML_PATH + "\n");
    }

    private boolean authorized(String secretHeader, String authorization) {
        if (secret == null) {
            return true;
        }
        String presented = secretHeader;
        if (presented == null && authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            presented = authorization.substring(7).strip();
        }
        return presented != null && MessageDigest.isEqual(secret, presented.getBytes(StandardCharsets.UTF_8));
    }
}
