package io.loadwise.dispatcher.http;

import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.AsciiString;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code X-Request-Id} (issue 33): a request without a usable one gets a new one, which the node sees, the client
 * gets back on whatever answers it (the node's response or the dispatcher's own) and the access log shows. Usable:
 * 1 to 128 visible ASCII characters, no comma (no space either, as no space is visible). Process-wide, from
 * {@code logging.requestId} at startup; off until then, so that an embedded dispatcher (tests) changes no header.
 */
public final class RequestIds {

    public static final AsciiString HEADER = AsciiString.cached("x-request-id");
    private static final int MAX_LENGTH = 128;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static volatile boolean enabled;

    private RequestIds() {
    }

    /** {@code loadwise run} applies {@code logging.requestId} (default true) once, before any listener starts. */
    public static void enable(boolean on) {
        enabled = on;
    }

    static boolean enabled() {
        return enabled;
    }

    /** Gives {@code request} a usable id, keeping the client's when it is one. */
    static void ensure(HttpRequest request) {
        if (enabled && !usable(request.headers().get(HEADER))) {
            request.headers().set(HEADER, generate());
        }
    }

    /** Puts {@code request}'s id on {@code answer}, a fresh one when there is no request; returns {@code answer}. */
    static <T extends HttpMessage> T answer(HttpRequest request, T answer) {
        if (enabled) {
            String id = request == null ? null : request.headers().get(HEADER);
            answer.headers().set(HEADER, id == null ? generate() : id);
        }
        return answer;
    }

    static boolean usable(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c <= ' ' || c > '~' || c == ',') {
                return false;
            }
        }
        return true;
    }

    /** 128 random bits as 32 hex digits: unique enough to find a request in the logs, and cheap (no SecureRandom). */
    static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] id = new char[32];
        fill(id, 0, random.nextLong());
        fill(id, 16, random.nextLong());
        return new String(id);
    }

    private static void fill(char[] id, int from, long bits) {
        for (int i = 15; i >= 0; i--) {
            id[from + i] = HEX[(int) bits & 0xf];
            bits >>>= 4;
        }
    }
}
