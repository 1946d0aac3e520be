package io.loadwise.dispatcher.logging;

/**
 * The line of the string form of {@code logging.accessLog}, unchanged since before issue 33 (the time prefix is
 * the appender's): {@code client "METHOD target" status node bytes Nms}, or
 * {@code client tcp cluster node in=B out=B Nms}.
 */
final class LoadwiseLine implements AccessLineFormat {

    @Override
    public void append(AccessRecord r, StringBuilder line) {
        line.append(r.client).append(' ');
        if (r.tcp()) {
            line.append("tcp ").append(r.cluster).append(' ').append(dash(r.node)).append(" in=").append(r.bytesIn)
                    .append(" out=").append(r.bytesOut);
        } else {
            line.append('"').append(AccessLog.escape(r.method)).append(' ').append(AccessLog.escape(r.target))
                    .append("\" ").append(r.status).append(' ').append(dash(r.node)).append(' ');
            if (r.bytesOut < 0) {
                line.append('-');
            } else {
                line.append(r.bytesOut);
            }
        }
        line.append(' ').append(r.totalMillis).append("ms");
    }

    private static String dash(String text) {
        return text == null ? "-" : text;
    }
}
