package io.loadwise.dispatcher.adversarial;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The byte notation of the corpus: text is ISO-8859-1, with {@code \r \n \t \\ \xNN} escapes and a
 * repeat form {@code {{N*text}}} (text escaped the same way, no "}}" inside) for long inputs. A
 * backslash before anything else is an error, so a typo cannot silently change the bytes sent.
 */
final class Escapes {

    /** A repeat must stay a test input, not a memory bomb of a typo. */
    private static final int MAX_REPEATED_BYTES = 4 * 1024 * 1024;

    private Escapes() {
    }

    static byte[] decode(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("{{", i)) {
                i = repeat(text, i, out);
                continue;
            }
            char c = text.charAt(i);
            if (c == '\\') {
                i = escape(text, i, out);
                continue;
            }
            if (c > 0xff) {
                throw new IllegalArgumentException("character U+" + Integer.toHexString(c)
                        + " is not ISO-8859-1; write its bytes as \\xNN: " + text);
            }
            out.write(c);
            i++;
        }
        return out.toByteArray();
    }

    static String decodeToString(String text) {
        return new String(decode(text), StandardCharsets.ISO_8859_1);
    }

    private static int escape(String text, int at, ByteArrayOutputStream out) {
        if (at + 1 >= text.length()) {
            throw new IllegalArgumentException("dangling backslash at the end of: " + text);
        }
        char kind = text.charAt(at + 1);
        switch (kind) {
            case 'r' -> out.write('\r');
            case 'n' -> out.write('\n');
            case 't' -> out.write('\t');
            case '\\' -> out.write('\\');
            case 'x' -> {
                if (at + 4 > text.length()) {
                    throw new IllegalArgumentException("\\x needs two hex digits: " + text);
                }
                out.write(Integer.parseInt(text.substring(at + 2, at + 4), 16));
                return at + 4;
            }
            default -> throw new IllegalArgumentException("unknown escape \\" + kind + " in: " + text);
        }
        return at + 2;
    }

    private static int repeat(String text, int at, ByteArrayOutputStream out) {
        int end = text.indexOf("}}", at + 2);
        int star = text.indexOf('*', at + 2);
        if (end < 0 || star < 0 || star > end) {
            throw new IllegalArgumentException("a repeat is {{N*text}}: " + text);
        }
        int count = Integer.parseInt(text.substring(at + 2, star).trim());
        byte[] unit = decode(text.substring(star + 1, end));
        if ((long) count * unit.length > MAX_REPEATED_BYTES) {
            throw new IllegalArgumentException("repeat of " + count + " x " + unit.length + " bytes is over "
                    + MAX_REPEATED_BYTES + ": " + text);
        }
        for (int n = 0; n < count; n++) {
            out.writeBytes(unit);
        }
        return end + 2;
    }

    /** Bytes shown for a failure message: printable ASCII as is, the rest escaped, long input cut. */
    static String show(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        int limit = Math.min(bytes.length, 600);
        for (int i = 0; i < limit; i++) {
            int b = bytes[i] & 0xff;
            switch (b) {
                case '\r' -> s.append("\\r");
                case '\n' -> s.append("\\n");
                case '\t' -> s.append("\\t");
                case '\\' -> s.append("\\\\");
                default -> {
                    if (b < 0x20 || b >= 0x7f) {
                        s.append(String.format("\\x%02x", b));
                    } else {
                        s.append((char) b);
                    }
                }
            }
        }
        if (bytes.length > limit) {
            s.append("...(").append(bytes.length).append(" bytes)");
        }
        return s.toString();
    }

    static String show(String isoText) {
        return show(isoText.getBytes(StandardCharsets.ISO_8859_1));
    }
}
