package io.loadwise.node;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** A browser-like test client of one node's trade app: keeps cookies, tallies scenario actions. */
public final class TradeClient {

    private final URI base;
    private final CookieManager cookies = new CookieManager();
    private final HttpClient http;
    private final Map<String, Integer> actions = new TreeMap<>();

    public TradeClient(URI base) {
        this.base = base;
        this.http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(5)).build();
    }

    public HttpResponse<String> get(String relative) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(relative)).timeout(Duration.ofSeconds(30)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** One scenario request; fails unless it answered 200 and named its action. */
    public String scenario() throws IOException, InterruptedException {
        HttpResponse<String> response = get("scenario");
        String action = response.headers().firstValue("X-Trade-Action").orElse("(none)");
        if (response.statusCode() != 200) {
            throw new AssertionError("scenario " + action + " answered " + response.statusCode() + ": " + response.body());
        }
        actions.merge(action, 1, Integer::sum);
        return action;
    }

    public int count(String action) {
        return actions.getOrDefault(action, 0);
    }

    public Map<String, Integer> actions() {
        return Map.copyOf(actions);
    }

    public Optional<String> sessionId() {
        return cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("JSESSIONID")).map(HttpCookie::getValue).findFirst();
    }
}
