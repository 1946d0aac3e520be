package io.loadwise.console.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Markdown file of the docs cut into what {@link DocsTest} checks: its fenced blocks (with their info
 * string, e.g. {@code json answer}) and its inline code spans, each with the line it starts on.
 */
record MarkdownDoc(Path file, String name, List<Block> blocks, List<Span> spans) {

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```(.*)$");
    private static final Pattern SPAN = Pattern.compile("`([^`]+)`");

    /** A fenced block: {@code line} is the fence's line (1-based), {@code info} the words after the fence. */
    record Block(int line, String info, String body, int endLine) {
        String language() {
            String[] words = info.trim().split("\\s+");
            return words[0];
        }

        boolean marked(String word) {
            List<String> words = List.of(info.trim().split("\\s+"));
            return words.size() > 1 && words.subList(1, words.size()).contains(word);
        }

        List<String> lines() {
            return List.of(body.split("\n", -1));
        }
    }

    /** An inline code span outside fenced blocks; line breaks inside it are spaces. */
    record Span(int line, String text) {
    }

    /** README.md and every docs/*.md, README first, then by name. */
    static List<MarkdownDoc> all(Path root) throws IOException {
        List<MarkdownDoc> docs = new ArrayList<>();
        docs.add(read(root, root.resolve("README.md")));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
                docs.add(read(root, file));
            }
        }
        return docs;
    }

    static MarkdownDoc read(Path root, Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<Block> blocks = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                prose.append(lines.get(i)).append('\n');
                continue;
            }
            int indent = open.group(1).length();
            StringBuilder body = new StringBuilder();
            int start = i;
            prose.append('\n');
            for (i++; i < lines.size() && !lines.get(i).trim().equals("```"); i++) {
                String line = lines.get(i);
                int cut = 0;
                while (cut < indent && cut < line.length() && line.charAt(cut) == ' ') {
                    cut++;
                }
                body.append(line.substring(cut)).append('\n');
                prose.append('\n');
            }
            prose.append('\n');
            blocks.add(new Block(start + 1, open.group(2).trim(), body.toString(), i + 1));
        }
        List<Span> spans = new ArrayList<>();
        String text = prose.toString();
        Matcher span = SPAN.matcher(text);
        while (span.find()) {
            int line = 1 + (int) text.substring(0, span.start()).chars().filter(c -> c == '\n').count();
            spans.add(new Span(line, span.group(1).replaceAll("\\s*\n\\s*", " ")));
        }
        return new MarkdownDoc(file, root.relativize(file).toString(), List.copyOf(blocks), List.copyOf(spans));
    }

    /** The block that follows {@code block} with nothing but blank lines between, or {@code null}. */
    Block next(Block block) throws IOException {
        List<String> lines = Files.readAllLines(file);
        for (Block b : blocks) {
            if (b.line() > block.endLine()) {
                for (int l = block.endLine(); l < b.line() - 1; l++) {
                    if (!lines.get(l).isBlank()) {
                        return null;
                    }
                }
                return b;
            }
        }
        return null;
    }

    String where(int line) {
        return name + ":" + line;
    }
}
