package io.loadwise.dispatcher.logging;

import java.time.Instant;

/**
 * One JSON object per line. Every string is escaped to pure ASCII (quotes, backslashes, control characters and
 * everything past {@code 0x7e} as {@code \}{@code uXXXX}), so no target or header can break the line or the
 * object, whatever the file's charset. Unknown values are {@code null}.
 */
final class JsonLine implements AccessLineFormat {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    @Override
    public void append(AccessRecord r, StringBuilder line) {
        line.append("{\"time\":\"").append(Instant.ofEpochMilli(r.startMillis)).append('"');
        text(line, "client", r.client);
        number(line, "client_port", r.clientPort);
        text(line, "cluster", r.cluster);
        text(line, "node", r.node);
        text(line, "method", r.method);
        text(line, "target", r.target);
        text(line, "protocol", r.protocol);
        number(line, "status", r.status);
        number(line, "bytes_in", r.bytesIn);
        number(line, "bytes_out", r.bytesOut);
        text(line, "referer", r.referer);
        text(line, "user_agent", r.userAgent);
        text(line, "request_id", r.requestId);
        text(line, "trace_id", TraceParent.traceId(r.traceparent));
        number(line, "tr", r.nodeResponseMillis);
        number(line, "ta", r.totalMillis);
        line.append('}');
    }

    private static void number(StringBuilder line, String key, long value) {
        line.append(",\"").append(key).append("\":");
        if (value < 0) {
            line.append("null");
        } else {
            line.append(value);
        }
    }

    private static void text(StringBuilder line, String key, String value) {
        line.append(",\"").append(key).append("\":");
        if (value == null) {
            line.append("null");
            return;
        }
        line.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                line.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf])
                        .append(HEX[c & 0xf]);
            } else {
                line.append(c);
            }
        }
        line.append('"');
    }
}
