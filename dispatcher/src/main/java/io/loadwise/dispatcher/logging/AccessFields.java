package io.loadwise.dispatcher.logging;

import io.loadwise.dispatcher.config.AccessLogTemplate;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Every field of an {@link AccessRecord} by its name in the JSON format and in templates
 * ({@link AccessLogTemplate#FIELDS}, in that order): a text, or a number whose negative value means unknown.
 * Read on the writer thread only.
 */
final class AccessFields {

    /** One field: {@code text} for a text (or the time), else {@code number}. */
    record Field(String name, Function<AccessRecord, String> text, ToLongFunction<AccessRecord> number) {

        boolean isText() {
            return text != null;
        }
    }

    static final Map<String, Field> ALL = new LinkedHashMap<>();

    static {
        text("time", r -> Instant.ofEpochMilli(r.startMillis).toString());
        text("client", r -> r.client);
        number("client_port", r -> r.clientPort);
        text("forwarded_for", r -> r.forwardedFor);
        text("listener", r -> r.listener);
        text("route", r -> r.route);
        text("cluster", r -> r.cluster);
        text("policy", r -> r.policy);
        text("node", r -> r.node);
        text("method", r -> r.method);
        text("target", r -> r.target);
        text("protocol", r -> r.protocol);
        text("tls_version", r -> r.tlsVersion);
        text("sni", r -> r.sni);
        text("alpn", r -> r.alpn);
        number("status", r -> r.status);
        text("termination", r -> r.termination);
        number("bytes_in", r -> r.bytesIn);
        number("bytes_out", r -> r.bytesOut);
        number("retries", r -> r.retries);
        text("referer", r -> r.referer);
        text("user_agent", r -> r.userAgent);
        text("request_id", r -> r.requestId);
        text("trace_id", r -> TraceParent.traceId(r.traceparent));
        number("th", r -> r.headMillis);
        number("tw", r -> r.queueMillis);
        number("tc", r -> r.connectMillis);
        number("tr", r -> r.nodeResponseMillis);
        number("ta", r -> r.totalMillis);
        if (!ALL.keySet().stream().toList().equals(AccessLogTemplate.FIELDS)) {
            throw new IllegalStateException("access log fields " + ALL.keySet() + " differ from the template's "
                    + AccessLogTemplate.FIELDS);
        }
    }

    private AccessFields() {
    }

    private static void text(String name, Function<AccessRecord, String> value) {
        ALL.put(name, new Field(name, value, null));
    }

    private static void number(String name, ToLongFunction<AccessRecord> value) {
        ALL.put(name, new Field(name, null, value));
    }
}
