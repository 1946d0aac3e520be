package io.loadwise.console.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small, safe Markdown-to-HTML renderer for the project's own docs: headings, paragraphs, lists, fenced
 * code, tables, block quotes, links, images, inline code, bold and italics. Everything else, raw HTML
 * included, is escaped; link targets are limited to http(s), mailto, anchors and relative paths
 * ({@code other.md} becomes {@code /docs/other}, {@code images/x.png} becomes {@code /docs/images/x.png}).
 */
public final class Markdown {

    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern ITEM = Pattern.compile("^(\\s*)([-*+]|\\d+[.)])\\s+(.*)$");
    private static final Pattern TABLE_SEPARATOR = Pattern.compile("^\\|?\\s*:?-{2,}:?\\s*(\\|\\s*:?-{2,}:?\\s*)*\\|?\\s*$");

    private Markdown() {
    }

    public static String render(String markdown) {
        List<String> lines = List.of(markdown.replace("\r\n", "\n").split("\n", -1));
        StringBuilder out = new StringBuilder(markdown.length() * 2);
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (line.isBlank()) {
                i++;
            } else if (line.stripLeading().startsWith("```")) {
                i = fence(lines, i, out);
            } else if (HEADING.matcher(line).matches()) {
                Matcher m = HEADING.matcher(line);
                m.matches();
                int level = m.group(1).length();
                out.append("<h").append(level).append(" id=\"").append(anchor(m.group(2))).append("\">")
                        .append(inline(m.group(2))).append("</h").append(level).append(">\n");
                i++;
            } else if (line.trim().matches("^(-{3,}|\\*{3,})$")) {
                out.append("<hr>\n");
                i++;
            } else if (line.trim().startsWith("|") && i + 1 < lines.size() && TABLE_SEPARATOR.matcher(lines.get(i + 1)).matches()) {
                i = table(lines, i, out);
            } else if (ITEM.matcher(line).matches()) {
                i = list(lines, i, out);
            } else if (line.startsWith(">")) {
                StringBuilder quote = new StringBuilder();
                while (i < lines.size() && lines.get(i).startsWith(">")) {
                    quote.append(lines.get(i).substring(1).strip()).append('\n');
                    i++;
                }
                out.append("<blockquote>").append(render(quote.toString())).append("</blockquote>\n");
            } else {
                StringBuilder para = new StringBuilder();
                while (i < lines.size() && !lines.get(i).isBlank() && !startsBlock(lines, i)) {
                    para.append(para.length() == 0 ? "" : " ").append(lines.get(i).strip());
                    i++;
                }
                out.append("<p>").append(inline(para.toString())).append("</p>\n");
            }
        }
        return out.toString();
    }

    private static boolean startsBlock(List<String> lines, int i) {
        String line = lines.get(i);
        return line.stripLeading().startsWith("```") || HEADING.matcher(line).matches() || ITEM.matcher(line).matches()
                || line.startsWith(">") || line.trim().startsWith("|") && i + 1 < lines.size()
                        && TABLE_SEPARATOR.matcher(lines.get(i + 1)).matches();
    }

    private static int fence(List<String> lines, int i, StringBuilder out) {
        String open = lines.get(i).strip();
        String lang = open.substring(3).trim();
        out.append("<pre><code").append(lang.matches("[A-Za-z0-9_+-]+") ? " class=\"language-" + lang + "\"" : "")
                .append('>');
        i++;
        while (i < lines.size() && !lines.get(i).strip().startsWith("```")) {
            out.append(Html.text(lines.get(i))).append('\n');
            i++;
        }
        out.append("</code></pre>\n");
        return i + 1;
    }

    private static int table(List<String> lines, int i, StringBuilder out) {
        out.append("<table>\n<thead><tr>");
        for (String cell : cells(lines.get(i))) {
            out.append("<th>").append(inline(cell)).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        i += 2;
        while (i < lines.size() && lines.get(i).trim().startsWith("|")) {
            out.append("<tr>");
            for (String cell : cells(lines.get(i))) {
                out.append("<td>").append(inline(cell)).append("</td>");
            }
            out.append("</tr>\n");
            i++;
        }
        out.append("</tbody></table>\n");
        return i;
    }

    /** Splits a table row on {@code |} outside inline code. */
    private static List<String> cells(String row) {
        String r = row.trim();
        if (r.startsWith("|")) {
            r = r.substring(1);
        }
        if (r.endsWith("|") && !r.endsWith("\\|")) {
            r = r.substring(0, r.length() - 1);
        }
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        for (int k = 0; k < r.length(); k++) {
            char c = r.charAt(k);
            if (c == '`') {
                code = !code;
            }
            if (c == '\\' && k + 1 < r.length() && r.charAt(k + 1) == '|') {
                cell.append('|');
                k++;
            } else if (c == '|' && !code) {
                cells.add(cell.toString().trim());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString().trim());
        return cells;
    }

    /** One list, its items' continuation lines and nested items folded into the items (one level). */
    private static int list(List<String> lines, int i, StringBuilder out) {
        Matcher first = ITEM.matcher(lines.get(i));
        first.matches();
        boolean ordered = Character.isDigit(first.group(2).charAt(0));
        int indent = first.group(1).length();
        out.append(ordered ? "<ol>\n" : "<ul>\n");
        StringBuilder item = null;
        while (i < lines.size()) {
            String line = lines.get(i);
            Matcher m = ITEM.matcher(line);
            boolean sameKind = m.matches() && Character.isDigit(m.group(2).charAt(0)) == ordered;
            if (m.matches() && m.group(1).length() <= indent + 1 && !sameKind) {
                break;
            }
            if (m.matches() && m.group(1).length() <= indent + 1) {
                if (item != null) {
                    out.append("<li>").append(inline(item.toString())).append("</li>\n");
                }
                item = new StringBuilder(m.group(3).strip());
            } else if (!line.isBlank() && (Character.isWhitespace(line.charAt(0)) || m.matches())) {
                item.append(m.matches() ? "; " : " ").append(m.matches() ? m.group(3).strip() : line.strip());
            } else if (line.isBlank() && i + 1 < lines.size() && (sameKindItem(lines.get(i + 1), ordered)
                    || lines.get(i + 1).startsWith("  ") && !lines.get(i + 1).isBlank())) {
                // a loose list: blank lines between items
            } else {
                break;
            }
            i++;
        }
        if (item != null) {
            out.append("<li>").append(inline(item.toString())).append("</li>\n");
        }
        out.append(ordered ? "</ol>\n" : "</ul>\n");
        return i;
    }

    private static boolean sameKindItem(String line, boolean ordered) {
        Matcher m = ITEM.matcher(line);
        return m.matches() && Character.isDigit(m.group(2).charAt(0)) == ordered;
    }

    /** Inline markup; every character of text outside it is escaped. */
    static String inline(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '`') {
                int end = text.indexOf('`', i + 1);
                if (end > i) {
                    out.append("<code>").append(Html.text(text.substring(i + 1, end))).append("</code>");
                    i = end + 1;
                    continue;
                }
            } else if (c == '[' || c == '!' && i + 1 < text.length() && text.charAt(i + 1) == '[') {
                int consumed = link(text, i, out);
                if (consumed > 0) {
                    i += consumed;
                    continue;
                }
            } else if ((c == '*' || c == '_') && i + 1 < text.length() && text.charAt(i + 1) == c) {
                int end = text.indexOf("" + c + c, i + 2);
                if (end > i + 2) {
                    out.append("<strong>").append(inline(text.substring(i + 2, end))).append("</strong>");
                    i = end + 2;
                    continue;
                }
            } else if (c == '*' || c == '_' && (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))) {
                int end = text.indexOf(c, i + 1);
                if (end > i + 1 && !Character.isWhitespace(text.charAt(i + 1))
                        && (c == '*' || end + 1 >= text.length() || !Character.isLetterOrDigit(text.charAt(end + 1)))) {
                    out.append("<em>").append(inline(text.substring(i + 1, end))).append("</em>");
                    i = end + 1;
                    continue;
                }
            }
            out.append(Html.text(String.valueOf(c)));
            i++;
        }
        return out.toString();
    }

    /** {@code [label](target)} or {@code ![alt](src)} at {@code start}; returns characters consumed, 0 if none. */
    private static int link(String text, int start, StringBuilder out) {
        boolean image = text.charAt(start) == '!';
        int open = start + (image ? 1 : 0);
        int close = text.indexOf("](", open);
        int end = close < 0 ? -1 : closingParenthesis(text, close + 2);
        if (close < 0 || end < 0 || text.substring(open + 1, close).contains("](")) {
            return 0;
        }
        String label = text.substring(open + 1, close);
        String target = safeTarget(text.substring(close + 2, end).trim(), image);
        if (target == null) {
            out.append(inline(label));
        } else if (image) {
            out.append("<img src=\"").append(Html.text(target)).append("\" alt=\"").append(Html.text(label)).append("\">");
        } else {
            out.append("<a href=\"").append(Html.text(target)).append("\">").append(inline(label)).append("</a>");
        }
        return end + 1 - start;
    }

    /** The index of the {@code )} that closes a link target starting at {@code from}, nesting counted; -1 if none. */
    private static int closingParenthesis(String text, int from) {
        int depth = 0;
        for (int k = from; k < text.length(); k++) {
            char c = text.charAt(k);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    return k;
                }
                depth--;
            }
        }
        return -1;
    }

    /** The URL to use, or {@code null} when the target is not allowed (scripts, other schemes, outside docs/). */
    static String safeTarget(String target, boolean image) {
        String lower = target.toLowerCase(Locale.ROOT);
        if (image) {
            return target.matches("images/[A-Za-z0-9._-]+\\.png") ? "/docs/" + target : null;
        }
        if (lower.startsWith("https://") || lower.startsWith("http://") || lower.startsWith("mailto:")) {
            return target.contains("\"") || target.contains(" ") ? null : target;
        }
        if (target.startsWith("#")) {
            return target.matches("#[A-Za-z0-9_-]+") ? target : null;
        }
        Matcher md = Pattern.compile("^([A-Za-z0-9_-]+)\\.md(#[A-Za-z0-9_-]+)?$").matcher(target);
        if (md.matches()) {
            return "/docs/" + md.group(1) + (md.group(2) == null ? "" : md.group(2));
        }
        return null;
    }

    /** GitHub-style heading anchors: lower case, spaces to dashes, punctuation dropped. */
    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[`*_\\[\\]()]", "").replaceAll("[^a-z0-9 -]", "")
                .trim().replace(' ', '-');
    }
}
