package io.loadwise.console.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless chromium logged in to a {@link ConsoleFixture}'s console, for the browser tests: the driver, a wait of
 * 15 seconds, and screenshots into docs/images (which the docs show). Skips the test when chromium is missing, as
 * {@link BrowserCheck} decides.
 */
public final class ConsoleBrowser implements AutoCloseable {

    public static final String CHROMIUM = System.getProperty("loadwise.chromium", "/usr/bin/chromium");
    public static final String CHROMEDRIVER = System.getProperty("loadwise.chromedriver", "/usr/bin/chromedriver");
    public static final Path SCREENSHOTS =
            Path.of(System.getProperty("user.dir")).resolve("../docs/images").normalize();

    public final WebDriver driver;
    public final WebDriverWait wait;
    private final ChromeDriverService service;
    private final ConsoleFixture fixture;

    private ConsoleBrowser(ChromeDriverService service, WebDriver driver, ConsoleFixture fixture) {
        this.service = service;
        this.driver = driver;
        this.fixture = fixture;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(15));
    }

    /** Starts chromium with a profile under {@code dir} and logs in to {@code fixture}'s console. */
    public static ConsoleBrowser loggedIn(Path dir, ConsoleFixture fixture) throws Exception {
        ConsoleBrowser browser = started(dir, fixture);
        browser.open("/login");
        WebElement field = browser.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("password")));
        field.sendKeys(ConsoleFixture.PASSWORD);
        browser.driver.findElement(By.id("login-submit")).click();
        browser.wait.until(ExpectedConditions.textToBe(By.tagName("h1"), "Overview"));
        return browser;
    }

    /** Starts chromium with a profile under {@code dir}, not logged in (Selenium Manager never looks for drivers). */
    public static ConsoleBrowser started(Path dir, ConsoleFixture fixture) throws Exception {
        BrowserCheck.requireChromium(CHROMIUM, CHROMEDRIVER);
        System.setProperty("SE_OFFLINE", "true");
        System.setProperty("selenium.manager.offline", "true");
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().withLogOutput(java.io.OutputStream.nullOutputStream()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1280,1000", "--force-device-scale-factor=1");
        Files.createDirectories(SCREENSHOTS);
        return new ConsoleBrowser(service, new ChromeDriver(service, options), fixture);
    }

    /** Loads a console page: {@code path} with its query. */
    public void open(String path) {
        driver.get(fixture.base() + path);
    }

    /** The visible text of the first element {@code css} selects, once it is visible. */
    public String text(String css) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css))).getText();
    }

    /** Writes what the browser shows to docs/images/{@code name}.png. */
    public void screenshot(String name) throws Exception {
        Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        driver.quit();
        service.stop();
    }
}
