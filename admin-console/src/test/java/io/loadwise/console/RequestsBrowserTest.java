package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.console.testing.ConsoleBrowser;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.console.testing.RawHttp;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.control.LatencyHistograms;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The live request page and the per-node latency histograms in headless chromium (issue 33, item 6), over real
 * requests through a real dispatcher: a cluster {@code live} over {@link ConsoleFixture}'s two HTTP nodes, reached
 * through its own listener and through route {@code app} of listener {@code edge}. The recent-request ring is the
 * JVM's, so every page names cluster {@code live}, which no other test creates.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RequestsBrowserTest {

    @TempDir
    static Path dir;
    static ConsoleFixture fixture;
    static ConsoleBrowser browser;

    @BeforeAll
    static void start() throws Exception {
        fixture = new ConsoleFixture(dir);
        ApiClient api = new ApiClient(fixture.adminPort, ConsoleFixture.TOKEN);
        ApiClient.Response created = api.post("/api/clusters", """
                {"name": "live", "mode": "http", "listen": "127.0.0.1:0", "policy": "round-robin",
                 "nodes": [{"name": "live-a", "address": "%s"}, {"name": "live-b", "address": "%s"}]}
                """.formatted(fixture.nodeAddress(0), fixture.nodeAddress(1)));
        assertEquals(201, created.status(), created.body());
        fixture.dispatcher.createListener(new ListenerConfig("edge", "127.0.0.1:0", null, null, List.of(
                new RouteConfig("app", null, "live", null, null, null, null, null, null, null)),
                null, null, null, null, null, null, null, null));
        browser = ConsoleBrowser.loggedIn(dir, fixture);
        // the dispatcher keeps requests only while someone watches: the page's first look starts the recording
        assertEquals(200, api.get("/api/requests?limit=1").status());
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private static int send(int port, String target) throws Exception {
        return RawHttp.get(port, target).status();
    }

    private static List<String> column(String css) {
        List<String> out = new ArrayList<>();
        for (WebElement cell : browser.driver.findElements(By.cssSelector("#live-requests tbody td." + css))) {
            out.add(cell.getText());
        }
        return out;
    }

    /** Opens the page and waits until the table shows exactly {@code targets}, newest first. */
    private static void expectRows(String query, List<String> targets) {
        browser.open("/requests" + query);
        Await.until(() -> column("target").equals(targets), "rows " + targets + " on /requests" + query
                + ", showing " + column("target"));
    }

    @Test
    @Order(1)
    void livePageListsRealRequestsAndFiltersThem() throws Exception {
        int live = fixture.listener("live").getPort();
        int edge = fixture.dispatcher.routedListening().get("edge").getPort();
        assertEquals(200, send(live, "/one"));                // live-a
        assertEquals(503, send(live, "/fail/two"));           // live-b
        assertEquals(200, send(live, "/three?q=%3Cb%3Ex"));   // live-a
        assertEquals(200, send(edge, "/four"));               // live-b, through route app

        expectRows("?cluster=live", List.of("/four", "/three?q=%3Cb%3Ex", "/fail/two", "/one"));
        assertEquals("Live requests", browser.text("h1"));
        assertEquals(List.of("200", "200", "503", "200"), column("status"));
        assertEquals(List.of("live-b", "live-a", "live-b", "live-a"), column("node"));
        assertEquals(List.of("GET", "GET", "GET", "GET"), column("method"));
        assertEquals("4 requests", browser.text("#live-status").replaceAll(", updated.*", ""));
        assertEquals(0, browser.driver.findElements(By.cssSelector("#live-requests b")).size(), "no markup injected");

        expectRows("?cluster=live&status=5xx", List.of("/fail/two"));
        expectRows("?cluster=live&status=2xx&node=live-a", List.of("/three?q=%3Cb%3Ex", "/one"));
        expectRows("?cluster=live&route=app", List.of("/four"));
        expectRows("?cluster=live&limit=2", List.of("/four", "/three?q=%3Cb%3Ex"));
        String state = column("termination").get(0);
        assertEquals(2, state.length(), state);
        expectRows("?cluster=live&termination=CH", List.of());
    }

    @Test
    @Order(2)
    void livePageUpdatesItselfWithoutAReload() throws Exception {
        expectRows("?cluster=live&limit=3", List.of("/four", "/three?q=%3Cb%3Ex", "/fail/two"));
        WebElement heading = browser.driver.findElement(By.tagName("h1"));
        assertEquals(200, send(fixture.listener("live").getPort(), "/five"));
        Await.until(() -> column("target").equals(List.of("/five", "/four", "/three?q=%3Cb%3Ex")),
                "the new request at the top without a reload, showing " + column("target"));
        assertTrue(heading.isDisplayed(), "the same document: a reload would have made the heading stale");
        browser.screenshot("live-requests");
    }

    @Test
    @Order(3)
    void aBadFilterShowsTheApisMessage() {
        browser.open("/requests?status=9xx");
        Await.until(() -> browser.text("#live-status").contains("status class"), "the 400's message shown");
        assertEquals("error", browser.driver.findElement(By.id("live-status")).getAttribute("class"));
    }

    @Test
    @Order(4)
    void clusterMetricsPageDrawsEachNodesHistogramAsSvg() throws Exception {
        Await.until(() -> node("live-a").histograms().duration().count() == 3
                && node("live-b").histograms().duration().count() == 2, "/one, /three and /five timed on live-a");
        long[] cumulative = node("live-a").histograms().duration().cumulative();
        browser.open("/graphs?cluster=live");
        List<WebElement> buckets = browser.driver.findElements(
                By.cssSelector("#latency-histograms figure[data-node='live-a'] svg g.bucket"));
        assertEquals(cumulative.length, buckets.size());
        long sum = 0;
        for (int i = 0; i < buckets.size(); i++) {
            long expected = cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
            WebElement bucket = buckets.get(i);
            assertEquals(String.valueOf(expected), bucket.getAttribute("data-count"));
            assertEquals(String.valueOf(expected), bucket.findElement(By.cssSelector("text.count")).getText());
            sum += Long.parseLong(bucket.findElement(By.cssSelector("text.count")).getText());
        }
        assertEquals(3, sum);
        assertEquals("0.5ms", buckets.get(0).findElement(By.cssSelector("text.le")).getText());
        assertEquals(">60s", buckets.get(buckets.size() - 1).findElement(By.cssSelector("text.le")).getText());
        assertEquals("Node live-a: 3 requests",
                browser.text("#latency-histograms figure[data-node='live-a'] figcaption"));
        assertEquals("Node live-b: 2 requests",
                browser.text("#latency-histograms figure[data-node='live-b'] figcaption"));
        ((org.openqa.selenium.JavascriptExecutor) browser.driver).executeScript(
                "document.getElementById('latency-histograms').scrollIntoView()");
        browser.screenshot("latency-histograms");
    }

    private static LatencyHistograms.NodeSeries node(String name) {
        for (LatencyHistograms.ClusterSeries c : fixture.dispatcher.latencyHistograms().clusters()) {
            if (c.cluster().equals("live")) {
                for (LatencyHistograms.NodeSeries n : c.nodes()) {
                    if (n.node().equals(name)) {
                        return n;
                    }
                }
            }
        }
        throw new AssertionError("no histogram of node " + name);
    }
}
