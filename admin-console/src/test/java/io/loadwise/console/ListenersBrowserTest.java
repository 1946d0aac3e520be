package io.loadwise.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.console.testing.Await;
import io.loadwise.console.testing.ConsoleBrowser;
import io.loadwise.console.testing.ConsoleFixture;
import io.loadwise.dispatcher.config.ListenerConfig;
import io.loadwise.dispatcher.config.RouteConfig;
import io.loadwise.dispatcher.config.RouteMatch;
import io.loadwise.dispatcher.control.RoutedListenerStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The listeners page in headless chromium against a real dispatcher with a listener in front of the real HTTP nodes
 * of {@link ConsoleFixture}: the route table with counters of real requests, an edit of the table applied at once,
 * and a refused edit with its error shown by field.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ListenersBrowserTest {


    @TempDir
    static Path dir;
    static ConsoleFixture fixture;
    static ConsoleBrowser console;
    static WebDriver browser;
    static WebDriverWait wait;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        fixture = new ConsoleFixture(dir);
        fixture.dispatcher.createListener(new ListenerConfig("edge", "127.0.0.1:0", null, null, List.of(
                new RouteConfig("health", new RouteMatch(null, "/healthz", null, null, null, null, null), null, null,
                        null, new RouteConfig.RespondConfig(200, "ok", null), null, null, null, null),
                new RouteConfig("app", null, "shop", null, null, null, null, null, null, null)),
                null, null, null, null, null, null, null, null));
        console = ConsoleBrowser.loggedIn(dir, fixture);
        browser = console.driver;
        wait = console.wait;
    }

    @AfterAll
    static void stop() {
        if (console != null) {
            console.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private static HttpResponse<String> request(String path) throws Exception {
        int port = fixture.dispatcher.routedListening().get("edge").getPort();
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static RoutedListenerStatus.RouteStatus counted(int index) {
        return fixture.dispatcher.listenerStatuses().get(0).routes().get(index);
    }

    private static String text(String css) {
        return console.text(css);
    }

    /** Replaces the route table's text as a user would: select all, type the new table. */
    private static void typeRoutes(String json) {
        WebElement routes = browser.findElement(By.id("routes-edge"));
        routes.clear();
        routes.sendKeys(json);
    }

    @Test
    @Order(1)
    void routeTableShowsMatchActionTargetsAndCountsOfRealRequests() throws Exception {
        assertEquals(200, request("/healthz").statusCode());
        assertEquals("node a", request("/cart").body());
        assertEquals("node b", request("/cart").body());
        Await.until(() -> counted(0).requests() == 1 && counted(1).requests() == 2, "three requests counted");

        browser.get(fixture.base() + "/listeners");
        assertEquals("Listeners", text("h1"));
        assertEquals("health", text("#route-edge-0 .route-name"));
        assertEquals("path /healthz", text("#route-edge-0 .match"));
        assertEquals("respond 200", text("#route-edge-0 .action"));
        assertEquals("1", text("#route-edge-0 .requests"));
        assertEquals("every request", text("#route-edge-1 .match"));
        assertEquals("cluster", text("#route-edge-1 .action"));
        assertEquals("shop", text("#route-edge-1 .targets"));
        assertEquals("2", text("#route-edge-1 .requests"));
        assertEquals("2", text("#route-edge-1 .c2xx"));
        assertEquals(fixture.dispatcher.routedListening().get("edge").getPort(),
                Integer.parseInt(text("#listener-edge .bound").replaceAll(".*:", "")));
    }

    @Test
    @Order(2)
    void anEditedRouteTableIsAppliedAtOnceAndPersisted() throws Exception {
        browser.get(fixture.base() + "/listeners");
        typeRoutes("""
                [{"name": "health", "match": {"path": "/healthz"}, "respond": {"status": 200, "body": "ok"}},
                 {"name": "maint", "match": {"pathPrefix": "/admin"}, "respond": {"status": 503, "body": "later"},
                  "responseHeaders": {"set": {"retry-after": "60"}}},
                 {"name": "app", "cluster": "shop"}]""");
        browser.findElement(By.id("save-routes-edge")).click();
        assertEquals("Saved the route table of listener 'edge'.", text("#flash"));
        assertEquals("maint", text("#route-edge-1 .route-name"));
        assertEquals("prefix /admin", text("#route-edge-1 .match"));
        assertEquals("response headers set retry-after", text("#route-edge-1 .filters"));
        assertEquals("app", text("#route-edge-2 .route-name"));
        HttpResponse<String> maint = request("/admin/x");
        assertEquals(503, maint.statusCode());
        assertEquals("60", maint.headers().firstValue("retry-after").orElse(""));
        assertTrue(Files.readString(fixture.configFile).contains("\"maint\""), "persisted to the config file");
        ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0)");
        screenshot("listeners");
    }

    @Test
    @Order(3)
    void aRefusedEditShowsItsErrorsByFieldAndChangesNothing() throws Exception {
        String before = Files.readString(fixture.configFile);
        browser.get(fixture.base() + "/listeners");
        String bad = "[{\"cluster\": \"nope\"}, {\"match\": {\"pathRegex\": \"/(a\"}, \"cluster\": \"shop\"}]";
        typeRoutes(bad);
        browser.findElement(By.id("save-routes-edge")).click();
        WebElement errors = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("route-errors-edge")));
        assertTrue(errors.getText().startsWith("Nothing was changed:"), errors.getText());
        assertEquals("listeners[0].routes[0].cluster: unknown cluster 'nope'", browser.findElement(
                By.cssSelector("#route-errors-edge li[data-field='listeners[0].routes[0].cluster']")).getText());
        assertEquals("listeners[0].routes[1].match.pathRegex: not an RE2 expression: missing closing )",
                browser.findElement(By.cssSelector(
                        "#route-errors-edge li[data-field='listeners[0].routes[1].match.pathRegex']")).getText());
        assertEquals(bad, browser.findElement(By.id("routes-edge")).getAttribute("value"), "the text is kept to fix");
        assertEquals("maint", text("#route-edge-1 .route-name"), "the table in force is still shown");
        assertEquals(before, Files.readString(fixture.configFile));
        assertEquals(503, request("/admin/x").statusCode());

        typeRoutes("[{\"cluster\": \"shop\", \"bogus\": 1}]");
        browser.findElement(By.id("save-routes-edge")).click();
        // each submit loads a new page: wait for its error rather than read the previous page
        assertEquals("routes[0].bogus: unknown field", text("#route-errors-edge li[data-field='routes[0].bogus']"));
        typeRoutes("{\"cluster\": \"shop\"}");
        browser.findElement(By.id("save-routes-edge")).click();
        assertEquals("routes: expected a JSON array of routes ([{...}, {...}])",
                text("#route-errors-edge li[data-field='routes']"));
        assertFalse(browser.findElements(By.id("flash")).size() > 0, "no success message");
        assertEquals(before, Files.readString(fixture.configFile));
    }

    @Test
    @Order(4)
    void aPostWithoutTheCsrfTokenIsRefused() {
        browser.get(fixture.base() + "/listeners");
        Object status = ((JavascriptExecutor) browser).executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "fetch('/listeners/routes', {method: 'POST', body: new URLSearchParams({name: 'edge',"
                + " routes: '[{\"respond\": {\"status\": 200}}]'})}).then(r => done(r.status), e => done(String(e)));");
        assertEquals(403L, status);
        assertEquals("maint", counted(1).name(), "nothing changed");
    }

    private static void screenshot(String name) throws Exception {
        console.screenshot(name);
    }
}
