package io.loadwise.dispatcher.logging;

/**
 * One JSON object per line, with every field of {@link AccessFields} in its order. Every string is escaped to pure
 * ASCII (quotes, backslashes, control characters and everything past {@code 0x7e} as {@code \}{@code uXXXX}), so no
 * target or header can break the line or the object, whatever the file's charset. Unknown values are {@code null}.
 */
final class JsonLine implements AccessLineFormat {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    @Override
    public void append(AccessRecord r, StringBuilder line) {
        char separator = '{';
        for (AccessFields.Field field : AccessFields.ALL.values()) {
            line.append(separator).append('"').append(field.name()).append("\":");
            separator = ',';
            if (field.isText()) {
                text(line, field.text().apply(r));
            } else {
                number(line, field.number().applyAsLong(r));
            }
        }
        line.append('}');
    }

    private static void number(StringBuilder line, long value) {
        if (value < 0) {
            line.append("null");
        } else {
            line.append(value);
        }
    }

    private static void text(StringBuilder line, String value) {
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
