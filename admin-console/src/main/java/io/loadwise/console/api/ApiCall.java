package io.loadwise.console.api;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;

/** One API request as a handler sees it: path parameters, query and a size-limited JSON body. */
public final class ApiCall {

    /** Largest request body accepted; cluster configurations are a few kilobytes. */
    public static final int MAX_BODY_BYTES = 1024 * 1024;

    private final HttpServletRequest request;
    private final List<String> pathParams;

    ApiCall(HttpServletRequest request, List<String> pathParams) {
        this.request = request;
        this.pathParams = pathParams;
    }

    /** The {@code i}-th {@code {placeholder}} of the matched route, decoded. */
    String pathParam(int i) {
        return pathParams.get(i);
    }

    /** The address the request came from (the registration rate limit's key). */
    String remoteAddress() {
        return request.getRemoteAddr();
    }

    /** A request header, or {@code null} when absent. */
    String header(String name) {
        return request.getHeader(name);
    }

    /** A query parameter, or {@code null} when absent. */
    String query(String name) {
        return request.getParameter(name);
    }

    /**
     * An optional integer query parameter within [min, max].
     *
     * @return {@code null} when absent
     */
    Integer queryInt(String name, int min, int max) throws ApiException {
        String text = request.getParameter(name);
        if (text == null) {
            return null;
        }
        int value;
        try {
            value = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("query parameter " + name + ": '" + text + "' is not an integer");
        }
        if (value < min || value > max) {
            throw ApiException.badRequest("query parameter " + name + ": " + value + " out of range " + min + ".." + max);
        }
        return value;
    }

    /**
     * The request body, which must be one JSON object of at most {@link #MAX_BODY_BYTES}.
     *
     * @throws ApiException 413 when too large, 400 when empty, not JSON or not an object
     */
    ObjectNode jsonObject() throws ApiException, IOException {
        return jsonObject(MAX_BODY_BYTES);
    }

    /** As {@link #jsonObject()} with a smaller limit ({@code 413} above {@code maxBytes}). */
    ObjectNode jsonObject(int maxBytes) throws ApiException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            throw tooLarge(declared + " bytes", maxBytes);
        }
        byte[] body = request.getInputStream().readNBytes(maxBytes + 1);
        if (body.length > maxBytes) {
            throw tooLarge("more than " + maxBytes + " bytes", maxBytes);
        }
        if (body.length == 0) {
            throw ApiException.badRequest("request body is empty; expected a JSON object");
        }
        JsonNode tree;
        try {
            tree = ApiJson.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new ApiException(400, "malformed JSON: " + e.getOriginalMessage(), List.of(describeLocation(e)));
        }
        if (tree == null || !tree.isObject()) {
            throw ApiException.badRequest("request body must be a JSON object, got " + describe(tree));
        }
        return (ObjectNode) tree;
    }

    private static ApiException tooLarge(String size, int limit) {
        return new ApiException(413, "request body of " + size + " exceeds the limit of " + limit + " bytes");
    }

    private static String describeLocation(JacksonException e) {
        return e.getLocation() == null ? "at unknown location"
                : "at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    private static String describe(JsonNode node) {
        return node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
