package io.loadwise.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The soak's hand-written SVG: well-formed XML, one panel per series, points scaled into their panel. */
class SvgChartTest {

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static double[][] points(Element polyline) {
        String[] pairs = polyline.getAttribute("points").split(" ");
        double[][] p = new double[pairs.length][];
        for (int i = 0; i < pairs.length; i++) {
            String[] xy = pairs[i].split(",");
            p[i] = new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])};
        }
        return p;
    }

    @Test
    void theSvgIsWellFormedWithOnePolylinePerPanelScaledIntoIt() throws Exception {
        String svg = SvgChart.svg("Soak <a & b>", "minutes", List.of(
                new SvgChart.Series("RSS (MB)", new double[] {0, 5, 10}, new double[] {100, 200, 50}),
                new SvgChart.Series("p99 \"ms\"", new double[] {1, 2, 3, 4}, new double[] {1, Double.NaN, 4, 2})));
        Document doc = parse(svg);
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", doc.getDocumentElement().getNamespaceURI());
        NodeList lines = doc.getElementsByTagName("polyline");
        assertEquals(2, lines.getLength());
        int right = SvgChart.WIDTH - SvgChart.RIGHT;

        double[][] rss = points((Element) lines.item(0));
        int top = SvgChart.panelTop(0);
        int bottom = top + SvgChart.PANEL;
        assertEquals(3, rss.length);
        // x: 0..10 over the shared axis 0..10, left edge to right edge; y: 0..200 from the bottom to the top
        assertEquals(SvgChart.LEFT, rss[0][0], 0.05);
        assertEquals((SvgChart.LEFT + right) / 2.0, rss[1][0], 0.05);
        assertEquals(right, rss[2][0], 0.05);
        assertEquals(bottom - SvgChart.PANEL / 2.0, rss[0][1], 0.05, "100 of 200: half way up");
        assertEquals(top, rss[1][1], 0.05, "the largest value at the top");
        assertEquals(bottom - SvgChart.PANEL / 4.0, rss[2][1], 0.05);

        double[][] p99 = points((Element) lines.item(1));
        assertEquals(3, p99.length, "a NaN is left out");
        int top2 = SvgChart.panelTop(1);
        assertTrue(top2 > bottom, "the second panel is below the first");
        assertEquals(SvgChart.LEFT + 0.1 * (right - SvgChart.LEFT), p99[0][0], 0.05, "x = 1 of 0..10");
        assertEquals(top2, p99[1][1], 0.05, "4 is the largest value");
        assertEquals(top2 + SvgChart.PANEL / 2.0, p99[2][1], 0.05);
        for (double[] p : p99) {
            assertTrue(p[1] >= top2 && p[1] <= top2 + SvgChart.PANEL, "inside the panel");
        }
        assertTrue(svg.contains("Soak &lt;a &amp; b&gt;") && svg.contains("p99 &quot;ms&quot;"), "text escaped");
        assertEquals("0", ((Element) doc.getElementsByTagName("svg").item(0)).getAttribute("viewBox").split(" ")[0]);
    }

    @Test
    void anEmptyOrFlatSeriesStillMakesAValidPicture() throws Exception {
        Document doc = parse(SvgChart.svg("flat", "minutes", List.of(
                new SvgChart.Series("fds", new double[] {3}, new double[] {0}),
                new SvgChart.Series("none", new double[0], new double[0]))));
        assertEquals(2, doc.getElementsByTagName("polyline").getLength());
        assertThrows(IllegalArgumentException.class, () -> new SvgChart.Series("bad", new double[1], new double[2]));
    }
}
