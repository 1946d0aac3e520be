package io.loadwise.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict, tiny JSON reader (RFC 8259) producing {@link Map} (insertion ordered), {@link List},
 * {@link String}, {@link Double}, {@link Boolean} and {@code null}. It exists so the agent needs no JSON
 * library that could clash with an application's own copy. Nesting depth is bounded so hostile input
 * cannot overflow the stack.
 */
final class JsonReader {

    private static final int MAX_DEPTH = 32;

    private final String text;
    private int pos;

    private JsonReader(String text) {
        this.text = text;
    }

    /** Parses one complete JSON value; trailing non-whitespace is an error. */
    static Object parse(String text) throws MalformedLoadReportException {
        if (text == null) {
            throw new MalformedLoadReportException("JSON text is null");
        }
        JsonReader reader = new JsonReader(text);
        reader.skipWhitespace();
        Object value = reader.readValue(0);
        reader.skipWhitespace();
        if (reader.pos != text.length()) {
            throw reader.error("unexpected trailing content");
        }
        return value;
    }

    private Object readValue(int depth) throws MalformedLoadReportException {
        if (depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
        if (pos >= text.length()) {
            throw error("unexpected end of input, expected a value");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return readObject(depth);
            case '[':
                return readArray(depth);
            case '"':
                return readString();
            case 't':
                expectWord("true");
                return Boolean.TRUE;
            case 'f':
                expectWord("false");
                return Boolean.FALSE;
            case 'n':
                expectWord("null");
                return null;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return readNumber();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> readObject(int depth) throws MalformedLoadReportException {
        pos++; // '{'
        Map<String, Object> map = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return map;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a member name in double quotes");
            }
            String key = readString();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            Object value = readValue(depth + 1);
            if (map.containsKey(key)) {
                throw error("duplicate member \"" + key + "\"");
            }
            map.put(key, value);
            skipWhitespace();
            char c = next("',' or '}'");
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> readArray(int depth) throws MalformedLoadReportException {
        pos++; // '['
        List<Object> list = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            skipWhitespace();
            list.add(readValue(depth + 1));
            skipWhitespace();
            char c = next("',' or ']'");
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String readString() throws MalformedLoadReportException {
        pos++; // opening quote
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = next("closing '\"'");
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("unescaped control character in string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next("escape character");
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> sb.append(readHex4());
                default -> {
                    pos--;
                    throw error("invalid escape '\\" + e + "'");
                }
            }
        }
    }

    private char readHex4() throws MalformedLoadReportException {
        if (pos + 4 > text.length()) {
            throw error("truncated \\u escape");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(pos + i), 16);
            if (digit < 0) {
                throw error("invalid hex digit in \\u escape");
            }
            value = value * 16 + digit;
        }
        pos += 4;
        return (char) value;
    }

    private Double readNumber() throws MalformedLoadReportException {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            skipDigits();
        } else {
            throw error("invalid number");
        }
        if (peek() == '.') {
            pos++;
            if (!isDigit(peek())) {
                throw error("invalid number: digit expected after '.'");
            }
            skipDigits();
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("invalid number: digit expected in exponent");
            }
            skipDigits();
        }
        double value = Double.parseDouble(text.substring(start, pos));
        if (!Double.isFinite(value)) {
            pos = start;
            throw error("number out of range");
        }
        return value;
    }

    private void skipDigits() {
        while (isDigit(peek())) {
            pos++;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void expectWord(String word) throws MalformedLoadReportException {
        if (!text.startsWith(word, pos)) {
            throw error("invalid literal, expected '" + word + "'");
        }
        pos += word.length();
    }

    private void expect(char expected) throws MalformedLoadReportException {
        if (peek() != expected) {
            throw error("expected '" + expected + "'");
        }
        pos++;
    }

    private char next(String expected) throws MalformedLoadReportException {
        if (pos >= text.length()) {
            throw error("unexpected end of input, expected " + expected);
        }
        return text.charAt(pos++);
    }

    /** The current character, or NUL at the end (NUL is never valid where peek is used). */
    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private MalformedLoadReportException error(String what) {
        return new MalformedLoadReportException("Malformed JSON at offset " + pos + ": " + what);
    }
}
