package io.loadwise.dispatcher.acme;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The http-01 challenges the dispatcher's ACME orders have pending now (RFC 8555 §8.3), shared by every HTTP
 * listener: whichever one the CA reaches on port 80 answers them. A token is answered only while its order waits for
 * the CA's check, and only as an exact key of this table, so no other path under the well-known prefix is answered
 * here (it goes on to the routes as any request does). Bounded by the orders in flight: one entry per name.
 */
public final class AcmeChallenges {

    /** RFC 8555 §8.3: {@code /.well-known/acme-challenge/<token>}. */
    public static final String HTTP_PREFIX = "/.well-known/acme-challenge/";
    /** A token is base64url (RFC 8555 §8.1), 128 bits at least; Let's Encrypt's are 43 characters. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{16,128}");

    private static final Map<String, String> HTTP = new ConcurrentHashMap<>();
    /** Whether any token is pending: the one check a request pays when none is (a volatile read). */
    private static volatile boolean pending;

    private AcmeChallenges() {
    }

    /** {@code token} is to be answered with {@code keyAuthorization} until {@link #withdraw} (by {@link AcmeIssuer}). */
    public static void offer(String token, String keyAuthorization) {
        if (!TOKEN.matcher(token).matches()) {
            throw new IllegalArgumentException("not an ACME token: " + token.length() + " characters");
        }
        HTTP.put(token, keyAuthorization);
        pending = true;
    }

    public static void withdraw(String token) {
        HTTP.remove(token);
        pending = !HTTP.isEmpty();
    }

    /**
     * The key authorization to answer a request for {@code uri} with (its origin-form target), or {@code null}: no
     * challenge of that exact token is pending, and the request goes on as any other.
     */
    public static String httpAnswer(String uri) {
        if (!pending || uri == null || !uri.startsWith(HTTP_PREFIX)) {
            return null;
        }
        String token = uri.substring(HTTP_PREFIX.length());
        int query = token.indexOf('?');
        if (query >= 0) {
            token = token.substring(0, query);
        }
        return TOKEN.matcher(token).matches() ? HTTP.get(token) : null;
    }

    /** Tokens pending now, for tests and the status. */
    static int size() {
        return HTTP.size();
    }
}
