package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MarkdownTest {

    @Test
    void headingsParagraphsListsAndCode() {
        String html = Markdown.render("""
                # Title `x`

                A paragraph
                over two lines with **bold** and *em*.

                - one
                - two
                  continued

                1. first
                2. second

                ```json
                {"a": "<b>"}
                ```
                """);
        assertTrue(html.contains("<h1 id=\"title-x\">Title <code>x</code></h1>"), html);
        assertTrue(html.contains("<p>A paragraph over two lines with <strong>bold</strong> and <em>em</em>.</p>"), html);
        assertTrue(html.contains("<ul>\n<li>one</li>\n<li>two continued</li>\n</ul>"), html);
        assertTrue(html.contains("<ol>\n<li>first</li>\n<li>second</li>\n</ol>"), html);
        assertTrue(html.contains("<pre><code class=\"language-json\">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}\n</code></pre>"), html);
    }

    @Test
    void tablesWithCodeContainingPipes() {
        String html = Markdown.render("""
                | id | formula |
                |---|---|
                | `a|b` | x <= y |
                """);
        assertTrue(html.contains("<th>id</th><th>formula</th>"), html);
        assertTrue(html.contains("<td><code>a|b</code></td><td>x &lt;= y</td>"), html);
    }

    @Test
    void rawHtmlIsEscaped() {
        String html = Markdown.render("<script>alert(1)</script> and <img src=x onerror=alert(1)>");
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("<img"), html);
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html);
    }

    @Test
    void onlySafeLinkTargetsBecomeLinks() {
        assertEquals("<p><a href=\"/docs/policies#jvm-aware\">p</a></p>\n", Markdown.render("[p](policies.md#jvm-aware)"));
        assertEquals("<p><a href=\"https://netty.io/\">Netty</a></p>\n", Markdown.render("[Netty](https://netty.io/)"));
        assertEquals("<p>click</p>\n", Markdown.render("[click](javascript:alert(1))"));
        assertEquals("<p>up</p>\n", Markdown.render("[up](../pom.xml)"));
        assertNull(Markdown.safeTarget("JavaScript:alert(1)", false));
        assertNull(Markdown.safeTarget("\"onmouseover=x", false));
        assertEquals("/docs/images/login.png", Markdown.safeTarget("images/login.png", true));
        assertNull(Markdown.safeTarget("https://example.com/x.png", true), "no external images (CSP would block them)");
        assertNull(Markdown.safeTarget("images/../x.png", true));
    }

    @Test
    void identifiersWithUnderscoresStayPlain() {
        assertEquals("<p>TD_AVE_THROUGHPUT and OS_CPU_USED%</p>\n", Markdown.render("TD_AVE_THROUGHPUT and OS_CPU_USED%"));
    }
}
