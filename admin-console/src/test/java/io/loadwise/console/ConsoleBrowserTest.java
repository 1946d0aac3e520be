package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.loadwise.console.testing.BrowserCheck;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.console.testing.TrafficLoop;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser: Debian's headless chromium driven through its chromedriver, against a
 * real dispatcher with real HTTP nodes. One browser session runs the scenarios in order (the lockout
 * comes last, as it locks the account). Each page is photographed into {@code docs/images/} for the
 * user guide ({@code docs/console.md}).
 *
 * <p>Without chromium this test fails, saying how to install it; {@code -Dloadwise.skipBrowserTests=true}
 * skips it explicitly.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    private static final String CHROMIUM = System.getProperty("loadwise.chromium", "/usr/bin/chromium");
    private static final String CHROMEDRIVER = System.getProperty("loadwise.chromedriver", "/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of(System.getProperty("user.dir")).resolve("../docs/images").normalize();

    @TempDir
    static Path dir;
    static ConsoleFixture fixture;
    static ChromeDriverService service;
    static WebDriver browser;
    static WebDriverWait wait;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void startBrowser() throws Exception {
        BrowserCheck.requireChromium(CHROMIUM, CHROMEDRIVER);
        // Never let Selenium Manager look for (or download) a driver: the paths are given explicitly.
        System.setProperty("SE_OFFLINE", "true");
        System.setProperty("selenium.manager.offline", "true");
        fixture = new ConsoleFixture(dir);
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort()
                .withLogOutput(java.io.OutputStream.nullOutputStream()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1280,1000", "--force-device-scale-factor=1");
        browser = new ChromeDriver(service, options);
        wait = new WebDriverWait(browser, Duration.ofSeconds(15));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private static void open(String path) {
        browser.get(fixture.base() + path);
    }

    private static void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }

    /** The visible text of an element; retried if the page reloads itself meanwhile (the overview does). */
    private static String text(String css) {
        return wait.ignoring(StaleElementReferenceException.class).until(d -> {
            WebElement element = d.findElement(By.cssSelector(css));
            return element.isDisplayed() ? element.getText() : null;
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

    @Test
    @Order(7)
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
        assertTrue(text("h1").contains("403"), text("h1"));
        assertEquals("least-connections", fixture.dispatcher.cluster("shop").policy().id(), "nothing changed");
        screenshot("csrf-rejected");
    }

    @Test
    @Order(8)
    void wrongPasswordsLockTheLogin() throws Exception {
        open("/");
        browser.findElement(By.cssSelector("header form[action=\"/logout\"] button")).click();
        wait.until(ExpectedConditions.urlContains("/login"));
        for (int left = 4; left >= 1; left--) {
            logIn("not-the-password");
            String error = text("#login-error");
            assertTrue(error.contains("Wrong password. " + left + (left == 1 ? " attempt" : " attempts") + " left"), error);
        }
        screenshot("login-wrong");
        logIn("still-not-it");
        assertTrue(text("#login-error").contains("locked"), text("#login-error"));
        logIn(ConsoleFixture.PASSWORD);
        String locked = text("#login-error");
        assertTrue(locked.contains("locked") && locked.contains("minutes"), "even the right password waits: " + locked);
        assertTrue(browser.getCurrentUrl().endsWith("/login"));
        screenshot("login-locked");
    }
}
