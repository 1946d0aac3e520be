package io.loadwise.dispatcher.http.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Iterator;
import java.util.List;

/**
 * The parts of a message head a {@link StrictHttp1Decoder} reads by the same rules for requests and responses:
 * one field line, the HTTP version, and the Content-Length headers. Each refuses what a lenient peer could
 * read differently by throwing the decoder's own {@link StrictHttp1Decoder#bad} (400 for a client's message,
 * 502 for a node's).
 */
final class HeadFields {

    private HeadFields() {
    }

    /**
     * One {@code name: value} line into {@code into}, the value without surrounding whitespace. The line
     * is copied once into one array that the name and the value are views of: one allocation instead of
     * two, checks on an array instead of a buffer, and the encoders recognise a field the proxy left alone
     * by that shared array ({@link FieldLines}) and write the peer's own bytes instead of re-encoding it.
     */
    static void readField(StrictHttp1Decoder decoder, ByteBuf in, int start, int end, HttpHeaders into) {
        byte[] line = new byte[end - start];
        in.getBytes(start, line);
        if (HttpSyntax.isOws(line[0])) {
            throw decoder.bad("obsolete line folding");
        }
        int colon = -1;
        for (int i = 0; i < line.length; i++) {
            byte b = line[i];
            if (b == ':') {
                colon = i;
                break;
            }
            if (!HttpSyntax.isToken(b)) {
                throw decoder.bad(HttpSyntax.isOws(b) ? "whitespace before a header's colon" : "invalid character in a header name");
            }
        }
        if (colon < 0) {
            throw decoder.bad("header line without a colon");
        }
        if (colon == 0) {
            throw decoder.bad("header line without a name");
        }
        int from = colon + 1;
        int to = line.length;
        while (from < to && HttpSyntax.isOws(line[from])) {
            from++;
        }
        while (to > from && HttpSyntax.isOws(line[to - 1])) {
            to--;
        }
        for (int i = from; i < to; i++) {
            if (!HttpSyntax.isFieldValueChar(line[i])) {
                throw decoder.bad("invalid character in a header value");
            }
        }
        into.add(FieldLines.name(line, colon), FieldLines.value(line, from, to));
    }

    /**
     * {@code HTTP/1.0} or {@code HTTP/1.1} at {@code [start, end)}; {@code null} for a well-formed other
     * version ({@code HTTP/2.0}), which the caller refuses in its own way. Anything else is refused here.
     */
    static HttpVersion version(StrictHttp1Decoder decoder, ByteBuf in, int start, int end) {
        if (end - start != 8 || in.getByte(start) != 'H' || in.getByte(start + 1) != 'T'
                || in.getByte(start + 2) != 'T' || in.getByte(start + 3) != 'P' || in.getByte(start + 4) != '/'
                || in.getByte(start + 6) != '.') {
            throw decoder.bad("malformed HTTP version");
        }
        int major = in.getByte(start + 5) - '0';
        int minor = in.getByte(start + 7) - '0';
        if (major < 0 || major > 9 || minor < 0 || minor > 9) {
            throw decoder.bad("malformed HTTP version");
        }
        if (major == 1 && minor == 1) {
            return HttpVersion.HTTP_1_1;
        }
        if (major == 1 && minor == 0) {
            return HttpVersion.HTTP_1_0;
        }
        return null;
    }

    /**
     * The body length the Content-Length headers state, made one header when repeated with equal
     * values (RFC 9110 §8.6), or -1 when there is none; anything but one decimal number is refused.
     */
    static long contentLength(StrictHttp1Decoder decoder, HttpHeaders headers) {
        Iterator<? extends CharSequence> values = headers.valueCharSequenceIterator(HttpHeaderNames.CONTENT_LENGTH);
        if (!values.hasNext()) {
            return -1;
        }
        CharSequence first = values.next();
        if (!values.hasNext()) {
            long plain = plainDecimal(first);
            if (plain >= 0) {
                return plain; // what the general reading below gives for it, without its copies
            }
        }
        List<String> lengths = headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
        long length = -1;
        for (String value : lengths) {
            for (String element : value.split(",", -1)) {
                long parsed = decimal(decoder, element.trim());
                if (length >= 0 && parsed != length) {
                    throw decoder.bad("conflicting Content-Length values");
                }
                length = parsed;
            }
        }
        if (lengths.size() > 1 || lengths.get(0).indexOf(',') >= 0) {
            headers.set(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        return length;
    }

    /** A value that is only 1-18 digits, as a number; -1 for anything else, which is read the general way. */
    private static long plainDecimal(CharSequence text) {
        int length = text.length();
        if (length == 0 || length > 18) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static long decimal(StrictHttp1Decoder decoder, String text) {
        if (text.isEmpty() || text.length() > 18) {
            throw decoder.bad("invalid Content-Length");
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw decoder.bad("invalid Content-Length");
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
