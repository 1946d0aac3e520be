package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.console.testing.ApiClient;
import io.loadwise.console.testing.Await;
import io.loadwise.console.testing.ConsoleBrowser;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.console.testing.TrafficLoop;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser: Debian's headless chromium driven through its chromedriver, against a
 * real dispatcher with real HTTP nodes. One browser session runs the scenarios in order (the wrong
 * passwords come last, as they log out and make this address wait). Each page is photographed into {@code docs/images/} for the
 * user guide ({@code docs/console.md}).
 *
 * <p>Without chromium this test fails, saying how to install it; {@code -Dloadwise.skipBrowserTests=true}
 * skips it explicitly.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {


    @TempDir
    static Path dir;
    static ConsoleFixture fixture;
    static ConsoleBrowser console;
    static WebDriver browser;
    static WebDriverWait wait;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void startBrowser() throws Exception {
        fixture = new ConsoleFixture(dir);
        console = ConsoleBrowser.started(dir, fixture);
        browser = console.driver;
        wait = console.wait;
    }

    @AfterAll
    static void stopBrowser() {
        if (console != null) {
            console.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private static void open(String path) {
        browser.get(fixture.base() + path);
    }

    private static void screenshot(String name) throws Exception {
        console.screenshot(name);
    }

    /**
     * The visible text of an element; retried if the page reloads itself meanwhile (the overview does). Chrome
     * reports an element of a document being replaced either as stale or as "Node with given id does not belong
     * to the document" (a plain WebDriverException), so both are retried until the wait's deadline.
     */
    private static String text(String css) {
        return textWhen(css, t -> true);
    }

    /** The visible text of an element once it satisfies {@code accept}: for a page still navigating after a click. */
    private static String textWhen(String css, Predicate<String> accept) {
        // A wait of its own: ignoring() changes the wait it is called on, and the shared one should not hide errors.
        WebDriverWait retrying = new WebDriverWait(browser, Duration.ofSeconds(15));
        return retrying.ignoring(StaleElementReferenceException.class).ignoring(WebDriverException.class).until(d -> {
            WebElement element = d.findElement(By.cssSelector(css));
            if (!element.isDisplayed()) {
                return null;
            }
            String text = element.getText();
            return accept.test(text) ? text : null;
        });
    }

    private static void logIn(String password) {
        open("/login");
        WebElement field = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("password")));
        field.clear();
        field.sendKeys(password);
        browser.findElement(By.id("login-submit")).click();
    }

    @Test
    @Order(1)
    void logIn() throws Exception {
        open("/");
        wait.until(ExpectedConditions.urlContains("/login"));
        screenshot("login");
        logIn(ConsoleFixture.PASSWORD);
        assertEquals("Overview", text("h1"));
        assertTrue(text("#cluster-shop .policy").contains("round-robin"));
        assertEquals(2, browser.findElements(By.cssSelector("#cluster-shop .health.good")).size(), "both nodes up");
        screenshot("overview");
    }

    @Test
    @Order(2)
    void badPortShowsTheErrorNextToTheField() throws Exception {
        open("/clusters/new");
        fillNewCluster("127.0.0.1:99999");
        browser.findElement(By.id("save-cluster")).click();
        String error = text("#err-listen");
        assertTrue(error.contains("port 99999 out of range"), error);
        assertTrue(text("#form-errors").contains("Nothing was changed"));
        assertNull(fixture.dispatcher.cluster("api"), "an invalid cluster is not created");
        screenshot("cluster-editor-error");
    }

    @Test
    @Order(3)
    void createTheClusterRight() throws Exception {
        WebElement listen = browser.findElement(By.id("f-listen"));
        listen.clear();
        listen.sendKeys("127.0.0.1:0");
        browser.findElement(By.id("save-cluster")).click();
        assertTrue(text("#flash").contains("Created cluster 'api'"), text("#flash"));
        assertNotNull(fixture.dispatcher.cluster("api"));
        assertTrue(Files.readString(fixture.configFile).contains("\"api\""), "persisted to the config file");
        assertTrue(text("#config-api").contains("least-connections"));
        screenshot("configuration");
        open("/clusters/edit?name=api");
        screenshot("cluster-editor");
    }

    private static void fillNewCluster(String listenAddress) {
        browser.findElement(By.id("f-name")).sendKeys("api");
        new Select(browser.findElement(By.id("f-mode"))).selectByValue("http");
        WebElement listen = browser.findElement(By.id("f-listen"));
        listen.clear();
        listen.sendKeys(listenAddress);
        new Select(browser.findElement(By.id("f-policy"))).selectByValue("least-connections");
        browser.findElement(By.id("f-node.0.name")).sendKeys("a");
        browser.findElement(By.id("f-node.0.address")).sendKeys(fixture.nodeAddress(0));
        browser.findElement(By.id("f-node.1.name")).sendKeys("b");
        browser.findElement(By.id("f-node.1.address")).sendKeys(fixture.nodeAddress(1));
    }

    @Test
    @Order(4)
    void switchPolicyWhileTrafficFlows() throws Exception {
        try (TrafficLoop traffic = TrafficLoop.start(fixture.listener("shop"), Duration.ofSeconds(60))) {
            traffic.awaitRequests(20);
            open("/clusters");
            WebElement card = browser.findElement(By.id("config-shop"));
            new Select(card.findElement(By.cssSelector("select.policy-select"))).selectByValue("least-connections");
            card.findElement(By.cssSelector("button.switch-policy")).click();
            assertTrue(text("#flash").contains("now uses policy least-connections"), text("#flash"));
            assertEquals("least-connections", text("#config-shop .policy"));
            long atSwitch = traffic.succeeded();
            traffic.awaitRequests(atSwitch + 20);
            traffic.stop();
            assertEquals(0, traffic.failed(), "no request may fail across a live switch: " + traffic.lastError());
            assertEquals("least-connections", fixture.dispatcher.cluster("shop").policy().id());
            open("/");
            assertEquals("least-connections", text("#cluster-shop .policy"));
            screenshot("overview-after-switch");
        }
    }

    @Test
    @Order(5)
    void metricsPageShowsPngGraphsWithData() throws Exception {
        open("/graphs?cluster=shop&window=10m");
        List<WebElement> images = new WebDriverWait(browser, Duration.ofSeconds(20))
                .until(d -> {
                    List<WebElement> found = d.findElements(By.cssSelector("#graphs img.graph-image"));
                    return found.isEmpty() ? null : found;
                });
        assertFalse(browser.findElements(By.cssSelector("#group-dispatcher img")).isEmpty(), "dispatcher group shown");
        String session = browser.manage().getCookieNamed("LOADWISE_SESSION").getValue();
        int checked = 0;
        for (WebElement img : images.subList(0, Math.min(3, images.size()))) {
            String src = img.getAttribute("src");
            HttpResponse<byte[]> png = http.send(HttpRequest.newBuilder(URI.create(src))
                    .header("Cookie", "LOADWISE_SESSION=" + session).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, png.statusCode(), src);
            assertEquals("image/png", png.headers().firstValue("Content-Type").orElse("").split(";")[0], src);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png.body()));
            assertNotNull(image, "decodes as an image: " + src);
            assertTrue(image.getWidth() > 100 && image.getHeight() > 50, src);
            assertTrue(distinctColours(image) > 8, "a drawn graph, not a blank image: " + src);
            checked++;
        }
        assertTrue(checked > 0);
        WebElement csv = browser.findElement(By.cssSelector("#graphs a.csv-link"));
        assertTrue(csv.getAttribute("href").contains(".csv?window=10m"), csv.getAttribute("href"));
        // The data behind the throughput graph: the traffic of the policy-switch scenario was recorded.
        String throughputCsv = browser.findElements(By.cssSelector("#group-dispatcher a.csv-link")).stream()
                .map(a -> a.getAttribute("href")).filter(h -> h.contains("/TD_AVE_THROUGHPUT.csv")).findFirst()
                .orElseThrow(() -> new AssertionError("no CSV link for TD_AVE_THROUGHPUT"));
        HttpResponse<String> rows = http.send(HttpRequest.newBuilder(URI.create(throughputCsv))
                .header("Cookie", "LOADWISE_SESSION=" + session).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, rows.statusCode(), rows.body());
        assertTrue(rows.body().lines().skip(1).map(line -> line.split(",", -1)[1])
                .anyMatch(v -> !v.isEmpty() && Double.parseDouble(v) > 0), "recorded throughput above 0: " + rows.body());
        wait.until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
                "return Array.from(document.querySelectorAll('#graphs img')).slice(0, 4).every(i => i.complete && i.naturalWidth > 0)"));
        screenshot("metrics-cluster");
        open("/graphs?cluster=shop&node=a&window=1h");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#graphs section, #graphs")));
        screenshot("metrics-node");
    }

    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    @Test
    @Order(6)
    void logsJvmAndDocumentationPages() throws Exception {
        open("/logs");
        assertTrue(text("#log-files").contains("loadwise.log"));
        screenshot("logs");
        browser.findElement(By.linkText("view last lines")).click();
        assertTrue(text("#log-tail").contains("<script>x</script>"), "log text shown as text, not markup");
        open("/jvm");
        assertTrue(text("#memory").contains("Heap"));
        assertTrue(text("#threads").contains("RUNNABLE"));
        screenshot("jvm");
        open("/docs");
        screenshot("docs");
        open("/docs/policies");
        assertTrue(text("article.doc h1").contains("Task assignment policies"));
    }

    /**
     * Two real replicas that list each other (as the etcd registry would) and one registered replica whose port
     * is closed: the Replicas page lists all three, fetches the other replica's figures server-side, marks the
     * dead one unreachable, and its "All replicas" row is the sum of the two that answered.
     */
    @Test
    @Order(6)
    void replicasPageShowsEveryReplicaWithItsFiguresAndTheSum() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (ConsoleFixture other = new ConsoleFixture(Files.createDirectories(dir.resolve("replica-2")))) {
            List<io.loadwise.dispatcher.control.ReplicaInfo> registry = List.of(
                    new io.loadwise.dispatcher.control.ReplicaInfo("lb1", fixture.base(), List.of("shop=127.0.0.1:"
                            + fixture.listener("shop").getPort()), "test", "2026-11-23T14:00:00Z"),
                    new io.loadwise.dispatcher.control.ReplicaInfo("lb2", other.base(), List.of("shop=127.0.0.1:"
                            + other.listener("shop").getPort()), "test", "2026-11-23T14:00:05Z"),
                    new io.loadwise.dispatcher.control.ReplicaInfo("lb3", "http://127.0.0.1:" + closedPort,
                            List.of(), "test", "2026-11-23T14:00:09Z"));
            fixture.dispatcher.setReplica("lb1", () -> registry);
            other.dispatcher.setReplica("lb2", () -> registry);
            try {
                for (int i = 0; i < 7; i++) {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                            + other.listener("shop").getPort() + "/")).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode());
                }
                open("/replicas");
                assertEquals("Replicas", text("h1"));
                assertEquals(3, browser.findElements(By.cssSelector("#replicas tr.replica")).size());
                assertTrue(text("#replicas tr[data-replica='lb1']").contains("this one"));
                assertEquals("alive", text("#replicas tr[data-replica='lb2'] .alive"));
                assertTrue(text("#replicas tr[data-replica='lb3'] .alive").startsWith("unreachable: connection refused"),
                        text("#replicas tr[data-replica='lb3'] .alive"));
                assertEquals("7", text("#replica-figures-shop tr[data-replica='lb2'] .completed"),
                        "lb2's own figures, fetched from its admin API");
                long own = Long.parseLong(text("#replica-figures-shop tr[data-replica='lb1'] .completed"));
                assertEquals(String.valueOf(own + 7), text("#replica-figures-shop tr.sum .completed"), "the sum");
                assertEquals("unreachable", text("#replica-figures-shop tr[data-replica='lb3'] td.hint"));
                assertTrue(browser.findElement(By.linkText("summed")).getAttribute("href")
                        .endsWith("/graphs?cluster=shop&view=sum"), "the cluster's graphs summed over replicas");
                screenshot("replicas");
            } finally {
                fixture.dispatcher.setReplica(null, List::of);
            }
        }
    }

    /**
     * Two real replicas that list each other: the cluster's metrics page shows the replica switch; "Sum over
     * replicas" draws every additive graph from the replica graph API as a sum (a mean one replica per line),
     * "Each replica" one line per replica, "This replica" the replica's own store again. Without other replicas
     * there is no switch.
     */
    @Test
    @Order(6)
    void metricsPageSwitchesBetweenThisReplicaTheSumAndEachReplica() throws Exception {
        try (ConsoleFixture other = new ConsoleFixture(Files.createDirectories(dir.resolve("replica-graphs")))) {
            List<io.loadwise.dispatcher.control.ReplicaInfo> registry = List.of(
                    new io.loadwise.dispatcher.control.ReplicaInfo("lb1", fixture.base(), List.of(), "test",
                            "2026-11-23T14:00:00Z"),
                    new io.loadwise.dispatcher.control.ReplicaInfo("lb2", other.base(), List.of(), "test",
                            "2026-11-23T14:00:05Z"));
            fixture.dispatcher.setReplica("lb1", () -> registry);
            other.dispatcher.setReplica("lb2", () -> registry);
            try (TrafficLoop traffic = TrafficLoop.start(other.listener("shop"), Duration.ofSeconds(60))) {
                // Some seconds of traffic recorded on lb2, so that the sum differs from lb1's own graph.
                ApiClient lb2 = new ApiClient(other.adminPort, ConsoleFixture.TOKEN);
                Await.until(() -> countPositive(lb2.get("/api/clusters/shop/series/TD_AVE_THROUGHPUT.json?window=10m")
                        .json().path("values")) >= 3, "three recorded seconds of throughput on lb2");
            }
            try {
                open("/graphs?cluster=shop&window=10m");
                assertEquals(3, browser.findElements(By.cssSelector("#replica-view a")).size());
                assertEquals("This replica", text("#replica-view a.current"));
                waitForGraph("TD_AVE_THROUGHPUT", "/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png?window=10m");

                browser.findElement(By.cssSelector("#replica-view a[data-view='sum']")).click();
                wait.until(ExpectedConditions.urlContains("view=sum"));
                assertEquals("Sum over replicas", text("#replica-view a.current"));
                assertTrue(text("h2").endsWith("sum over replicas"), text("h2"));
                WebElement sum = waitForGraph("TD_AVE_THROUGHPUT",
                        "/api/clusters/shop/replicas/graphs/TD_AVE_THROUGHPUT.png?window=10m&view=sum");
                assertEquals("sum", sum.findElement(By.xpath("..")).getAttribute("data-view"));
                WebElement mean = waitForGraph("TD_AVE_RSPS_TIME",
                        "/api/clusters/shop/replicas/graphs/TD_AVE_RSPS_TIME.png?window=10m&view=each");
                assertTrue(mean.findElement(By.xpath("..")).getText().contains("a mean does not add up"));
                String json = browser.findElements(By.cssSelector("#group-dispatcher a.json-link")).stream()
                        .map(a -> a.getAttribute("href")).filter(h -> h.contains("/TD_AVE_THROUGHPUT.json")).findFirst()
                        .orElseThrow(() -> new AssertionError("no JSON link for TD_AVE_THROUGHPUT"));
                String session = browser.manage().getCookieNamed("LOADWISE_SESSION").getValue();
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(json))
                        .header("Cookie", "LOADWISE_SESSION=" + session).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("\"answered\":2"), "both replicas answered: " + answer.body());
                wait.until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
                        "return Array.from(document.querySelectorAll('#group-dispatcher img')).slice(0, 4)"
                                + ".every(i => i.complete && i.naturalWidth > 0)"));
                screenshot("metrics-replicas");

                browser.findElement(By.cssSelector("#replica-view a[data-view='each']")).click();
                wait.until(ExpectedConditions.urlContains("view=each"));
                waitForGraph("TD_AVE_THROUGHPUT",
                        "/api/clusters/shop/replicas/graphs/TD_AVE_THROUGHPUT.png?window=10m&view=each");
                assertTrue(browser.findElement(By.cssSelector("#windows a")).getAttribute("href").contains("view=each"),
                        "the window links keep the view");

                browser.findElement(By.cssSelector("#replica-view a[data-view='this']")).click();
                wait.until(d -> !d.getCurrentUrl().contains("view="));
                waitForGraph("TD_AVE_THROUGHPUT", "/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png?window=10m");
            } finally {
                fixture.dispatcher.setReplica(null, List::of);
            }
            open("/graphs?cluster=shop&window=10m");
            waitForGraph("TD_AVE_THROUGHPUT", "/api/clusters/shop/graphs/TD_AVE_THROUGHPUT.png?window=10m");
            assertTrue(browser.findElements(By.id("replica-view")).isEmpty(), "no switch without other replicas");
        }
    }

    private static int countPositive(com.fasterxml.jackson.databind.JsonNode values) {
        int count = 0;
        for (com.fasterxml.jackson.databind.JsonNode v : values) {
            count += v.isNumber() && v.asDouble() > 0 ? 1 : 0;
        }
        return count;
    }

    /** The graph image of a metric once the page script has listed it, checked to load from {@code path}. */
    private static WebElement waitForGraph(String metric, String path) {
        WebElement img = new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> d.findElements(
                By.cssSelector("#graphs img.graph-image")).stream()
                .filter(i -> i.getAttribute("src").contains("/" + metric + ".png")).findFirst().orElse(null));
        assertEquals(fixture.base() + path, img.getAttribute("src"));
        new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> (Boolean) ((JavascriptExecutor) d).executeScript(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", img));
        return img;
    }

    /** Stops the crawl on a console that grows links without end. */
    private static final int MAX_VISITS = 120;
    /**
     * Links of one kind (same route, same query parameter names) followed at most this often: every kind is
     * tried, while the number of series CSV links, which grows with nodes and series, cannot stretch the run.
     */
    private static final int VISITS_PER_KIND = 2;

    /**
     * Follows every same-origin link a logged-in user can see, from the overview on: the navigation, the
     * overview's "graphs" links, the cluster choices of the metrics page, the documentation's cross
     * references, and so on. Each page is reached by clicking its link on the page that shows it, and must
     * answer 200 and show no error. Links to files (CSV series, log downloads) are fetched with the browser's
     * session instead: a click would save a file, not land on a page.
     */
    @Test
    @Order(7)
    void everyLinkAUserCanClickLandsOnAWorkingPage() throws Exception {
        String session = browser.manage().getCookieNamed("LOADWISE_SESSION").getValue();
        String start = fixture.base() + "/";
        Set<String> seen = new HashSet<>(List.of(start));
        List<String> visited = new ArrayList<>();
        Map<String, Integer> kinds = new HashMap<>();
        Deque<String[]> toFollow = new ArrayDeque<>();
        List<String> problems = new ArrayList<>();
        open("/");
        waitUntilReady();
        assertNull(problemsOnThisPage(), "the overview");
        linksOnThisPage().forEach(link -> toFollow.add(new String[] {link, start}));
        int visits = 0;
        while (!toFollow.isEmpty() && visits < MAX_VISITS) {
            String[] next = toFollow.poll();
            String target = next[0];
            String from = next[1];
            if (!seen.add(target) || kinds.merge(kindOf(target), 1, Integer::sum) > VISITS_PER_KIND) {
                continue;
            }
            visits++;
            visited.add(target);
            HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(URI.create(target))
                    .header("Cookie", "LOADWISE_SESSION=" + session).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (answer.statusCode() != 200) {
                problems.add(target + " (linked from " + from + ") answers " + answer.statusCode());
                continue;
            }
            String type = answer.headers().firstValue("Content-Type").orElse("");
            if (!type.startsWith("text/html") || answer.headers().firstValue("Content-Disposition").isPresent()) {
                continue;
            }
            browser.get(from);
            waitUntilReady();
            String problem = clickAndCheck(target);
            if (problem != null) {
                problems.add(target + " (linked from " + from + "): " + problem);
                continue;
            }
            linksOnThisPage().forEach(link -> toFollow.add(new String[] {link, target}));
        }
        assertEquals(List.of(), problems, "links that do not land on a working page");
        assertTrue(toFollow.stream().allMatch(link -> seen.contains(link[0])
                || kinds.getOrDefault(kindOf(link[0]), 0) >= VISITS_PER_KIND), "MAX_VISITS is too small for the console");
        assertTrue(visits >= 20, "the crawl reached the console's pages: " + visited);
        assertTrue(visited.stream().anyMatch(u -> u.endsWith("/graphs")), "the navigation's Metrics link: " + visited);
        assertTrue(visited.stream().anyMatch(u -> u.contains("/graphs?cluster=shop&node=")), "an overview graphs link");
        assertTrue(visited.stream().anyMatch(u -> u.contains(".csv?window=")), "a series CSV link: " + visited);
    }

    /**
     * Waits for the document and, on a metrics page, for its script to have listed the graphs; then stops the
     * page's image loads (each graph is drawn on request, and the crawl looks only at links).
     */
    private static void waitUntilReady() {
        wait.until(d -> "complete".equals(((JavascriptExecutor) d).executeScript("return document.readyState")));
        if (!browser.findElements(By.id("graphs")).isEmpty()) {
            new WebDriverWait(browser, Duration.ofSeconds(30)).until(d -> d.findElements(By.id("graphs-loading")).isEmpty());
            ((JavascriptExecutor) browser).executeScript("window.stop()");
        }
    }

    /** The visible same-origin links of the current page, without fragments (one script call, not one per link). */
    @SuppressWarnings("unchecked")
    private static List<String> linksOnThisPage() {
        return (List<String>) ((JavascriptExecutor) browser).executeScript(
                "return Array.from(document.querySelectorAll('a[href]'))"
                        + ".filter(a => a.getClientRects().length > 0 && a.origin === location.origin)"
                        + ".map(a => a.href.split('#')[0]);");
    }

    /**
     * Clicks the link to {@code target} on the current page and checks where it lands.
     *
     * @return what is wrong, or {@code null}
     */
    private static String clickAndCheck(String target) {
        // The overview reloads itself every few seconds: find the link afresh until the click takes.
        try {
            wait.ignoring(StaleElementReferenceException.class).until(d -> {
                WebElement link = (WebElement) ((JavascriptExecutor) d).executeScript(
                        "const a = Array.from(document.querySelectorAll('a[href]')).find(a => a.href.split('#')[0] === "
                                + "arguments[0] && a.getClientRects().length > 0);"
                                + "if (a) a.scrollIntoView({block: 'center'}); return a || null;", target);
                if (link == null) {
                    return false;
                }
                link.click();
                return true;
            });
            wait.until(d -> d.getCurrentUrl().split("#")[0].equals(target));
        } catch (org.openqa.selenium.TimeoutException e) {
            return "clicking the link did not land there (now at " + browser.getCurrentUrl() + ")";
        }
        waitUntilReady();
        return problemsOnThisPage();
    }

    /** What is wrong with the page now shown, or {@code null}. */
    private static String problemsOnThisPage() {
        if (browser.getCurrentUrl().contains("/login")) {
            return "landed on the login page";
        }
        List<String> errors = new ArrayList<>();
        String heading = browser.findElements(By.tagName("h1")).stream().map(WebElement::getText).findFirst().orElse("");
        if (heading.isEmpty() || heading.matches("(?i).*(went wrong|not found|no such|forbidden|error).*")) {
            errors.add("heading '" + heading + "'");
        }
        for (WebElement shown : browser.findElements(By.cssSelector(".error, [role=alert], #incident"))) {
            if (shown.isDisplayed() && !shown.getText().isBlank()) {
                errors.add("error shown: " + shown.getText());
            }
        }
        List<WebElement> graphs = browser.findElements(By.id("graphs"));
        if (!graphs.isEmpty() && graphs.get(0).getText().contains("could not be loaded")) {
            errors.add(graphs.get(0).getText());
        }
        return errors.isEmpty() ? null : String.join("; ", errors);
    }

    /** A link's route and the names of its query parameters; names inside API paths count as one route. */
    private static String kindOf(String url) {
        URI uri = URI.create(url);
        String[] segments = uri.getPath().split("/", -1);
        if (uri.getPath().startsWith("/api/")) {
            for (int i = 1; i < segments.length; i++) {
                if (List.of("clusters", "nodes", "graphs", "series").contains(segments[i - 1])) {
                    segments[i] = "{}";
                }
            }
        }
        List<String> names = new ArrayList<>();
        if (uri.getRawQuery() != null) {
            for (String pair : uri.getRawQuery().split("&")) {
                names.add(pair.split("=", 2)[0]);
            }
        }
        Collections.sort(names);
        return String.join("/", segments) + "?" + String.join(",", names);
    }

    @Test
    @Order(8)
    void postWithoutCsrfTokenIsRejected() throws Exception {
        open("/clusters");
        JavascriptExecutor js = (JavascriptExecutor) browser;
        Object status = js.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "fetch('/clusters/policy', {method: 'POST', body: new URLSearchParams({cluster: 'shop', policy: 'random'})})"
                + ".then(r => done(r.status), e => done(String(e)));");
        assertEquals(403L, status);
        Object apiStatus = js.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "fetch('/api/clusters/shop/policy', {method: 'PUT', headers: {'Content-Type': 'application/json'},"
                + " body: JSON.stringify({policy: 'random'})}).then(r => done(r.status), e => done(String(e)));");
        assertEquals(403L, apiStatus, "session API call without X-CSRF-Token");
        // A form whose token was stripped, submitted by the user: the page explains the refusal.
        js.executeScript("const f = document.querySelector('#config-shop form[action=\"/clusters/policy\"]');"
                + "f.querySelector('input[name=_csrf]').remove(); f.querySelector('select').value = 'random';");
        browser.findElement(By.cssSelector("#config-shop button.switch-policy")).click();
        // The click navigates: wait for the refusal page rather than read the form page's heading.
        assertTrue(textWhen("h1", t -> t.contains("403")).contains("403"));
        assertEquals("least-connections", fixture.dispatcher.cluster("shop").policy().id(), "nothing changed");
        screenshot("csrf-rejected");
    }

    @Test
    @Order(9)
    void wrongPasswordsMakeThisAddressWaitButNeverLockTheConsole() throws Exception {
        open("/");
        browser.findElement(By.cssSelector("header form[action=\"/logout\"] button")).click();
        wait.until(ExpectedConditions.urlContains("/login"));
        for (int left = 2; left >= 1; left--) {
            logIn("not-the-password");
            String error = text("#login-error");
            assertTrue(error.contains("Wrong password. After " + left + " more wrong " + (left == 1 ? "password" : "passwords")
                    + " from your address"), error);
        }
        screenshot("login-wrong");
        logIn("still-not-it");
        assertTrue(text("#login-error").contains("Wait 1 second before you try again"), text("#login-error"));
        logIn(ConsoleFixture.PASSWORD);
        String throttled = text("#login-error");
        assertTrue(throttled.contains("Too many wrong passwords from your address. Wait 1 second"),
                "too early, even the right password waits: " + throttled);
        assertTrue(browser.getCurrentUrl().endsWith("/login"));
        screenshot("login-throttled");
        // The delay is short: once it has passed, the right password logs in (attempts before are not counted).
        // Each poll either sees the login done (the previous submit navigated away) or submits again; a
        // submit is never followed by a look at the URL in the same poll, which may still show /login
        // while the browser navigates, and logIn on a logged-in session finds no password field.
        new WebDriverWait(browser, Duration.ofSeconds(15)).pollingEvery(Duration.ofMillis(300)).until(d -> {
            if (!d.getCurrentUrl().endsWith("/login")) {
                return true;
            }
            logIn(ConsoleFixture.PASSWORD);
            return false;
        });
        assertEquals("Overview", text("h1"));
    }
}
