package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One entry of a listener's route table: a {@link RouteMatch} and exactly one action ({@code cluster},
 * {@code split}, {@code redirect} or {@code respond}), with optional filters for forwarded requests
 * ({@code rewrite}, {@code requestHeaders}, {@code responseHeaders}, {@code rateLimit}).
 *
 * @param name optional; names the route in metrics and warnings (default {@code listener/index})
 * @param match what the request must look like; absent or empty matches every request
 * @param cluster send matching requests to this cluster
 * @param split send them to several clusters by weight (a sticky session keeps its cluster)
 * @param redirect answer with a redirect built from these parts
 * @param respond answer with this fixed response
 * @param rewrite change the path prefix or Host the node sees
 * @param requestHeaders header edits on the way to the node
 * @param responseHeaders header edits on the way to the client (also on redirects and fixed answers)
 * @param rateLimit the name of an entry of the top-level {@code rateLimits}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RouteConfig(
        String name,
        RouteMatch match,
        String cluster,
        List<SplitTarget> split,
        RedirectConfig redirect,
        RespondConfig respond,
        RewriteConfig rewrite,
        HeaderEditsConfig requestHeaders,
        HeaderEditsConfig responseHeaders,
        String rateLimit) {

    /** A share of a {@code split}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SplitTarget(String cluster, Integer weight) {
    }

    /**
     * A redirect. Parts left out are the request's own: {@code {"scheme": "https"}} keeps host, path and
     * query. {@code path} replaces the whole path, {@code pathPrefix} only the part the route matched.
     *
     * @param status 301, 302, 303, 307 or 308; default 301
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RedirectConfig(Integer status, String scheme, String host, Integer port, String path,
            String pathPrefix, Boolean stripQuery) {

        public static final int DEFAULT_STATUS = 301;

        public int statusOrDefault() {
            return status == null ? DEFAULT_STATUS : status;
        }
    }

    /** A fixed answer, such as {@code /healthz} or a maintenance page. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RespondConfig(Integer status, String body, String contentType) {

        public static final String DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

        public String bodyOrEmpty() {
            return body == null ? "" : body;
        }

        public String contentTypeOrDefault() {
            return contentType == null ? DEFAULT_CONTENT_TYPE : contentType;
        }
    }

    /**
     * What the node sees instead of the request's own path prefix and Host.
     *
     * @param pathPrefix replaces the part of the path that the route's {@code pathPrefix} (or {@code path})
     *     matched
     * @param host replaces the Host header (and an absolute-form target's authority)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RewriteConfig(String pathPrefix, String host) {
    }
}
