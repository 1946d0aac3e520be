package io.loadwise.console.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code curl} and {@code ./loadwise} command lines of a doc, in document order, with what the doc shows after them. */
final class ShellLines {

    /** Fenced blocks of these languages hold no shell commands. */
    private static final List<String> NOT_SHELL = List.of("json", "java", "xml", "properties", "yaml");
    private static final Pattern STATUS = Pattern.compile("#\\s*(?:HTTP/[\\d.]+\\s+)?(\\d{3})\\b");

    /**
     * One command: {@code text} with continuation lines joined; {@code output} the lines a {@code $ }-prompt
     * block shows after it; {@code block} the fenced block it is in ({@code null} for an inline span).
     */
    record Command(MarkdownDoc doc, int line, String text, List<String> output, MarkdownDoc.Block block) {
        String where() {
            return doc.where(line);
        }

        /** The status the doc names in a comment ({@code # 401}, {@code # HTTP/1.1 204}), or -1. */
        int expectedStatus() {
            List<String> places = new ArrayList<>(output);
            places.add(0, text);
            for (String place : places) {
                int hash = place.lastIndexOf('#');
                if (hash >= 0) {
                    Matcher m = STATUS.matcher(place.substring(hash));
                    if (m.find()) {
                        return Integer.parseInt(m.group(1));
                    }
                }
            }
            return -1;
        }
    }

    private ShellLines() {
    }

    /** Every command of {@code doc} that starts with {@code program} ({@code "curl"} or {@code "./loadwise"}). */
    static List<Command> of(MarkdownDoc doc, String program) {
        List<Command> found = new ArrayList<>();
        record At(int line, Command command) {
        }
        List<At> ordered = new ArrayList<>();
        for (MarkdownDoc.Block block : doc.blocks()) {
            if (NOT_SHELL.contains(block.language())) {
                continue;
            }
            List<String> lines = block.lines();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                boolean prompt = line.startsWith("$ ");
                String command = prompt ? line.substring(2) : line;
                int at = start(command, program);
                if (at < 0) {
                    continue;
                }
                int first = i;
                StringBuilder text = new StringBuilder(command);
                while ((endsWithBackslash(text) || !quotesBalanced(text)) && i + 1 < lines.size()) {
                    if (endsWithBackslash(text)) {
                        text.setLength(text.length() - 1);
                    } else {
                        text.append('\n');
                    }
                    text.append(lines.get(++i));
                }
                List<String> output = new ArrayList<>();
                if (prompt) {
                    while (i + 1 < lines.size() && !lines.get(i + 1).startsWith("$ ") && !lines.get(i + 1).isBlank()) {
                        output.add(lines.get(++i));
                    }
                }
                ordered.add(new At(block.line() + 1 + first,
                        new Command(doc, block.line() + 1 + first, text.toString(), output, block)));
            }
        }
        for (MarkdownDoc.Span span : doc.spans()) {
            int at = start(span.text(), program);
            if (at >= 0) {
                ordered.add(new At(span.line(), new Command(doc, span.line(), span.text(), List.of(), null)));
            }
        }
        ordered.sort((a, b) -> Integer.compare(a.line(), b.line()));
        for (At at : ordered) {
            found.add(at.command());
        }
        return found;
    }

    /** Where {@code program} starts as a command in {@code line}: at its start or after a pipe or {@code <(}. */
    static int start(String line, String program) {
        if (line.startsWith(program + " ")) {
            return 0;
        }
        for (String before : List.of("| ", "<(")) {
            int at = line.indexOf(before + program);
            if (at >= 0) {
                return at + before.length();
            }
        }
        return -1;
    }

    private static boolean endsWithBackslash(CharSequence text) {
        return text.length() > 0 && text.charAt(text.length() - 1) == '\\';
    }

    private static boolean quotesBalanced(CharSequence text) {
        boolean single = false;
        boolean dbl = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' && !dbl) {
                single = !single;
            } else if (c == '"' && !single) {
                dbl = !dbl;
            }
        }
        return !single && !dbl;
    }

    /**
     * The words of a {@code ./loadwise} command line as the shell would pass them, from the program on, up to
     * the first comment, pipe, redirection or closing parenthesis.
     */
    static List<String> words(String line, String program) {
        String s = line.substring(start(line, program));
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
                continue;
            }
            if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            if ((c == '#' && word == null) || c == '|' || c == '>' || c == '<' || c == ')' || c == ';' || c == '&') {
                break;
            }
            word = word == null ? new StringBuilder() : word;
            word.append(c);
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
