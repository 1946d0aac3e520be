package io.loadwise.dispatcher.config;

import java.util.Locale;

/**
 * What a rate limit counts by: {@code clientIp}, {@code header:NAME} or {@code cookie:NAME}. A request
 * without the header or cookie is counted by its client address, so leaving the header out is no way round
 * the limit.
 */
public record RateLimitKey(Kind kind, String name) {

    public enum Kind { CLIENT_IP, HEADER, COOKIE }

    /** Parses a validated key. */
    public static RateLimitKey parse(String text) {
        String problem = problem(text);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (text.equals("clientIp")) {
            return new RateLimitKey(Kind.CLIENT_IP, null);
        }
        if (text.startsWith("header:")) {
            return new RateLimitKey(Kind.HEADER, text.substring(7).toLowerCase(Locale.ROOT));
        }
        return new RateLimitKey(Kind.COOKIE, text.substring(7));
    }

    /** Why {@code text} is not a key, or null when it is one. */
    public static String problem(String text) {
        if (text == null) {
            return "missing (clientIp, header:NAME or cookie:NAME)";
        }
        if (text.equals("clientIp")) {
            return null;
        }
        String name = text.startsWith("header:") || text.startsWith("cookie:") ? text.substring(7) : null;
        if (name == null) {
            return "'" + text + "' is not clientIp, header:NAME or cookie:NAME";
        }
        if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
            return "'" + name + "' is not a header or cookie name";
        }
        return null;
    }

    /**
     * The key of one request.
     *
     * @param clientIp the client's address after trusted proxies
     * @param header the named header's first value, or null
     * @param cookie the named cookie's value, or null
     */
    public String of(String clientIp, CharSequence header, String cookie) {
        return switch (kind) {
            case CLIENT_IP -> clientIp;
            case HEADER -> header != null ? "h:" + header : clientIp;
            case COOKIE -> cookie != null ? "c:" + cookie : clientIp;
        };
    }
}
