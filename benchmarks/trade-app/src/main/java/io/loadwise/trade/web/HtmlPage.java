package io.loadwise.trade.web;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

/** A small HTML page built from headings, label/value rows and tables; all text is escaped. */
final class HtmlPage {

    private final String title;
    private final StringBuilder body = new StringBuilder(1024);

    HtmlPage(String title) {
        this.title = title;
        heading(title);
    }

    String title() {
        return title;
    }

    HtmlPage heading(String text) {
        body.append("<h2>").append(escape(text)).append("</h2>\n");
        return this;
    }

    HtmlPage paragraph(String text) {
        body.append("<p>").append(escape(text)).append("</p>\n");
        return this;
    }

    /** A two-column table of label/value pairs given as alternating arguments. */
    HtmlPage facts(Object... labelsAndValues) {
        if (labelsAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("facts need label/value pairs, got " + labelsAndValues.length + " items");
        }
        body.append("<table>\n");
        for (int i = 0; i < labelsAndValues.length; i += 2) {
            body.append("<tr><th>").append(escape(String.valueOf(labelsAndValues[i])))
                    .append("</th><td>").append(escape(String.valueOf(labelsAndValues[i + 1]))).append("</td></tr>\n");
        }
        body.append("</table>\n");
        return this;
    }

    HtmlPage table(List<String> headers, List<List<?>> rows) {
        body.append("<table>\n<tr>");
        for (String header : headers) {
            body.append("<th>").append(escape(header)).append("</th>");
        }
        body.append("</tr>\n");
        for (List<?> row : rows) {
            body.append("<tr>");
            for (Object cell : row) {
                body.append("<td>").append(escape(String.valueOf(cell))).append("</td>");
            }
            body.append("</tr>\n");
        }
        body.append("</table>\n");
        return this;
    }

    void writeTo(Writer out) throws IOException {
        out.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
        out.write(escape(title));
        out.write("</title></head><body>\n");
        out.write(body.toString());
        out.write("</body></html>\n");
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }
}
