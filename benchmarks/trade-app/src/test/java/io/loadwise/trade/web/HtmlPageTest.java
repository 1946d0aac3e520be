package io.loadwise.trade.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class HtmlPageTest {

    @Test
    void escapesEveryPieceOfText() throws IOException {
        StringWriter out = new StringWriter();
        new HtmlPage("A & B").facts("<b>", "\"x\"").table(List.of("h'"), List.of(List.of("<script>")))
                .writeTo(out);
        String html = out.toString();
        assertTrue(html.contains("<title>A &amp; B</title>"), html);
        assertTrue(html.contains("<th>&lt;b&gt;</th><td>&quot;x&quot;</td>"), html);
        assertTrue(html.contains("<th>h&#39;</th>"), html);
        assertTrue(html.contains("<td>&lt;script&gt;</td>"), html);
    }

    @Test
    void factsNeedPairs() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HtmlPage("t").facts("only a label"));
        assertEquals("facts need label/value pairs, got 1 items", e.getMessage());
    }
}
