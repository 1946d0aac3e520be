package io.loadwise.dispatcher.logging;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Apache's (and NGINX's) {@code common} and {@code combined} formats, so that GoAccess and the like read the log:
 * {@code %h %l %u %t "%r" %>s %b}, plus {@code "%{Referer}i" "%{User-Agent}i"} for combined. The time is in UTC;
 * {@code %b} is the response bytes sent, {@code -} for none; the request line, referer and user agent are escaped
 * as Apache does ({@code \xhh}). A TCP tunnel has the request line {@code - - tcp} and no status ({@code -}).
 */
final class ApacheLine implements AccessLineFormat {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final boolean combined;

    ApacheLine(boolean combined) {
        this.combined = combined;
    }

    @Override
    public void append(AccessRecord r, StringBuilder line) {
        line.append(AccessLog.escape(r.client)).append(" - - [");
        TIME.formatTo(Instant.ofEpochMilli(r.startMillis), line);
        line.append("] \"");
        if (r.tcp()) {
            line.append("- - tcp");
        } else if (r.method == null) {
            line.append('-'); // Apache writes "-" for a request line it could not read
        } else {
            line.append(AccessLog.escape(r.method)).append(' ').append(AccessLog.escape(r.target)).append(' ')
                    .append(AccessLog.escape(r.protocol));
        }
        line.append("\" ");
        if (r.status < 0) {
            line.append('-');
        } else {
            line.append(r.status);
        }
        line.append(' ');
        if (r.bytesOut <= 0) {
            line.append('-');
        } else {
            line.append(r.bytesOut);
        }
        if (combined) {
            line.append(" \"").append(AccessLog.escape(r.referer)).append("\" \"").append(AccessLog.escape(r.userAgent))
                    .append('"');
        }
    }
}
