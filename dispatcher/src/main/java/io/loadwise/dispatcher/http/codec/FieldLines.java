package io.loadwise.dispatcher.http.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import io.netty.util.CharsetUtil;
import java.util.Iterator;
import java.util.Map;

/**
 * Header fields as the strict decoder received them, and the encoding that forwards them as received.
 *
 * <p>The decoder copies each field line ({@code name:OWS value OWS}, without its line end) into one array
 * and adds to the headers a name and a value that are both views of it. Nothing else makes such a pair,
 * and header rewriting never alters a field in place: it removes fields and adds new name/value objects.
 * So an entry whose name and value share one array, the name at its start followed by the colon, is a
 * field the proxy kept as the peer sent it, and {@link #encode} writes the line's own bytes (the peer's
 * casing and spacing) instead of re-encoding the pair; every other entry is encoded as Netty does
 * ({@code name: value}). The map keeps the order of the fields kept, then the fields added, as before:
 * only how a kept field is written changes, never which fields are written, so framing and every header
 * rewrite stay exactly as the map says. An HTTP/2 stream's headers never carry such pairs and are always
 * re-encoded.
 */
final class FieldLines {

    private static final int COLON_SPACE = (':' << 8) | ' ';
    private static final int CRLF = ('\r' << 8) | '\n';

    private FieldLines() {
    }

    /** The name of the field {@code line}, {@code [0, colon)}. */
    static AsciiString name(byte[] line, int colon) {
        return new AsciiString(line, 0, colon, false);
    }

    /** The value of the field {@code line}, {@code [from, to)}, without its surrounding whitespace. */
    static AsciiString value(byte[] line, int from, int to) {
        return new AsciiString(line, from, to - from, false);
    }

    /** The line {@code name} and {@code value} were received in, or {@code null} if they were not one. */
    static byte[] receivedLine(CharSequence name, CharSequence value) {
        if (name instanceof AsciiString n && value instanceof AsciiString v) {
            byte[] line = n.array();
            if (line == v.array() && n.arrayOffset() == 0 && n.length() < line.length
                    && line[n.length()] == ':') {
                return line;
            }
        }
        return null;
    }

    /** Writes every field of {@code headers}, each ending in CRLF: a kept field as received, others encoded. */
    static void encode(HttpHeaders headers, ByteBuf buf) {
        Iterator<Map.Entry<CharSequence, CharSequence>> fields = headers.iteratorCharSequence();
        while (fields.hasNext()) {
            Map.Entry<CharSequence, CharSequence> field = fields.next();
            CharSequence name = field.getKey();
            CharSequence value = field.getValue();
            byte[] line = receivedLine(name, value);
            if (line != null) {
                buf.ensureWritable(line.length + 2);
                buf.writeBytes(line);
                buf.writeShort(CRLF);
            } else {
                encodeField(name, value, buf);
            }
        }
    }

    /** {@code name: value CRLF}, as Netty's encoder writes it. */
    private static void encodeField(CharSequence name, CharSequence value, ByteBuf buf) {
        int nameLength = name.length();
        int valueLength = value.length();
        buf.ensureWritable(nameLength + valueLength + 4);
        int offset = buf.writerIndex();
        writeAscii(buf, offset, name);
        offset += nameLength;
        ByteBufUtil.setShortBE(buf, offset, COLON_SPACE);
        offset += 2;
        writeAscii(buf, offset, value);
        offset += valueLength;
        ByteBufUtil.setShortBE(buf, offset, CRLF);
        buf.writerIndex(offset + 2);
    }

    private static void writeAscii(ByteBuf buf, int offset, CharSequence text) {
        if (text instanceof AsciiString ascii) {
            ByteBufUtil.copy(ascii, 0, buf, offset, text.length());
        } else if (text instanceof String string) {
            // char by char, as Netty writes ISO-8859-1 (a char past 0xff becomes '?', as String.getBytes makes it):
            // getBytes copied each value into a new array first, a third of the event loop's allocation at 1 KB
            // (benchmarks/results/2026-11-28-allocation-1k), and allocation is what the young collections pay for
            buf.setCharSequence(offset, string, CharsetUtil.ISO_8859_1);
        } else {
            buf.setCharSequence(offset, text, CharsetUtil.US_ASCII);
        }
    }
}
