package io.loadwise.console.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
                  - nested

                1. first
                2. second

                ```json
                {"a": "<b>"}
                ```
                """);
        assertTrue(html.contains("<h1 id=\"title-x\">Title <code>x</code></h1>"), html);
        assertTrue(html.contains("<p>A paragraph\nover two lines with <strong>bold</strong> and <em>em</em>.</p>"), html);
        assertTrue(html.contains("<ul>\n<li>one</li>\n<li>two\ncontinued\n<ul>\n<li>nested</li>\n</ul>\n</li>\n</ul>"), html);
        assertTrue(html.contains("<ol>\n<li>first</li>\n<li>second</li>\n</ol>"), html);
        assertTrue(html.contains("<pre><code class=\"language-json\">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}\n</code></pre>"), html);
    }

    /** docs/writing-docs.md marks blocks {@code json fragment} and {@code json answer}: still shown as JSON. */
    @Test
    void aMarkedJsonBlockIsStillJson() {
        for (String marking : new String[] {"json fragment", "json answer"}) {
            String html = Markdown.render("```" + marking + "\n{\"a\": 1}\n```\n");
            assertTrue(html.contains("<pre><code class=\"language-json\">{&quot;a&quot;: 1}\n</code></pre>"), html);
        }
    }

    @Test
    void headingIdsAreTheWordsAReaderSeesWithoutMarkup() {
        assertEquals("<h2 id=\"the-jvm-aware-policy-seed-eq-3\">The <code>jvm-aware</code> <em>policy</em> (seed eq. 3)</h2>\n",
                Markdown.render("## The `jvm-aware` *policy* (seed eq. 3)"));
        assertEquals("<h3 id=\"oscpuused\">OS_CPU_USED%</h3>\n", Markdown.render("### OS_CPU_USED%"));
    }

    @Test
    void tablesWithCodeContainingPipes() {
        String html = Markdown.render("""
                | id | formula |
                |---|---:|
                | `a\\|b` | x <= y |
                """);
        assertTrue(html.contains("<th>id</th>\n<th align=\"right\">formula</th>"), html);
        assertTrue(html.contains("<td><code>a|b</code></td>\n<td align=\"right\">x &lt;= y</td>"), html);
    }

    @Test
    void aTableInsideAListItemIsATable() {
        String html = Markdown.render("""
                - **Layout.** Six archives:

                  | Resolution | Span |
                  |---|---|
                  | 1 s | 1 hour |
                """);
        assertTrue(html.contains("<li>\n<p><strong>Layout.</strong> Six archives:</p>\n<table>"), html);
        assertTrue(html.contains("<td>1 s</td>"), html);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<script>alert(1)</script>",
        "Some text <script>alert(1)</script> inline",
        "<div onmouseover=\"alert(1)\">block</div>",
        "inline <img src=x onerror=alert(1)> image",
        "| a |\n|---|\n| <script>alert(1)</script> |",
        "- <iframe src=\"https://example.com\"></iframe>"})
    void rawHtmlInADocIsShownAsTextNeverRendered(String markdown) {
        String html = Markdown.render(markdown);
        for (String tag : new String[] {"<script", "<div", "<img", "<iframe"}) {
            assertFalse(html.contains(tag), tag + " rendered from " + markdown + ": " + html);
        }
        assertTrue(html.contains("&lt;"), "the markup is escaped, not dropped: " + html);
    }

    @Test
    void aScriptBlockBecomesEscapedText() {
        assertEquals("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n", Markdown.render("<script>alert(1)</script>"));
    }

    @Test
    void onlySafeLinkTargetsBecomeLinks() {
        assertEquals("<p><a href=\"/docs/policies#jvm-aware\">p</a></p>\n", Markdown.render("[p](policies.md#jvm-aware)"));
        assertEquals("<p><a href=\"/docs/console\">the console</a></p>\n", Markdown.render("[the console](console.md)"));
        assertEquals("<p><a href=\"#layout\">up</a></p>\n", Markdown.render("[up](#layout)"));
        assertEquals("<p><a href=\"https://netty.io/\">Netty</a></p>\n", Markdown.render("[Netty](https://netty.io/)"));
        assertEquals("<p><a href=\"https://netty.io/\">https://netty.io/</a></p>\n", Markdown.render("<https://netty.io/>"));
        assertEquals("<p>click</p>\n", Markdown.render("[click](javascript:alert(1))"));
        assertEquals("<p>javascript:alert(1)</p>\n", Markdown.render("<javascript:alert(1)>"), "an autolink too");
        assertEquals("<p>up</p>\n", Markdown.render("[up](../pom.xml)"));
        assertEquals("<p><strong>kept</strong> words</p>\n", Markdown.render("[**kept** words](file:///etc/passwd)"));
        assertNull(Markdown.safeTarget("JavaScript:alert(1)", false));
        assertNull(Markdown.safeTarget("\"onmouseover=x", false));
    }

    @Test
    void imagesComeOnlyFromTheDocsImagesFolder() {
        assertEquals("<p><img src=\"/docs/images/login.png\" alt=\"the login page\" /></p>\n",
                Markdown.render("![the login page](images/login.png)"));
        assertEquals("<p>tracker</p>\n", Markdown.render("![tracker](https://example.com/x.png)"),
                "no external images (CSP would block them)");
        assertNull(Markdown.safeTarget("images/../x.png", true));
        assertEquals("/docs/images/login.png", Markdown.safeTarget("images/login.png", true));
    }

    @Test
    void identifiersWithUnderscoresStayPlain() {
        assertEquals("<p>TD_AVE_THROUGHPUT and OS_CPU_USED%</p>\n", Markdown.render("TD_AVE_THROUGHPUT and OS_CPU_USED%"));
    }
}
