// Session workload for the rolling-restart measurement: java SessionLoad.java --url URL --users N --think-ms MS
//     --stop-file F
// Each user calls GET /trade/scenario (the trade app's DayTrader mix: one random action per call, logout 4 %,
// register 2 %) with its own cookies (JSESSIONID, LWROUTE) and a think time, until the stop file appears. It
// counts requests, failures (any status but 200, or an I/O error) and users logged out: a request that carried
// a JSESSIONID, after an action other than logout, answered as a fresh login (X-Trade-Action: login), which is
// what the trade app does when the session is gone. A logout ends the user's visit: its cookies are cleared
// (a new browser, as JMeter's "clear cookies each iteration"); a browser that kept the old JSESSIONID would
// log in again on the node its route names, draining or not. Prints one JSON line at the end.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

public class SessionLoad {

    static final AtomicLong requests = new AtomicLong();
    static final AtomicLong failed = new AtomicLong();
    static final AtomicLong loggedOut = new AtomicLong();
    static final AtomicLong logins = new AtomicLong();
    static final Map<String, AtomicLong> statuses = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        URI url = URI.create(a.get("--url") + "/trade/scenario");
        int users = Integer.parseInt(a.getOrDefault("--users", "30"));
        long think = Long.parseLong(a.getOrDefault("--think-ms", "500"));
        Path stop = Path.of(a.get("--stop-file"));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int u = 0; u < users; u++) {
            Thread t = new Thread(() -> user(http, url, think, stop));
            threads.add(t);
            t.start();
            Thread.sleep(think / Math.max(1, users)); // spread the users over one think time
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.printf("{\"users\":%d,\"seconds\":%.1f,\"requests\":%d,\"failed\":%d,\"loggedOut\":%d,"
                + "\"logins\":%d,\"statuses\":%s}%n", users, (System.nanoTime() - start) / 1e9, requests.get(),
                failed.get(), loggedOut.get(), logins.get(), statuses);
    }

    static void user(HttpClient http, URI url, long think, Path stop) {
        Map<String, String> cookies = new HashMap<>();
        String lastAction = "";
        while (!Files.exists(stop)) {
            HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30));
            boolean hadSession = cookies.containsKey("JSESSIONID");
            if (!cookies.isEmpty()) {
                StringBuilder c = new StringBuilder();
                cookies.forEach((k, v) -> c.append(c.length() == 0 ? "" : "; ").append(k).append('=').append(v));
                b.header("Cookie", c.toString());
            }
            try {
                HttpResponse<Void> r = http.send(b.build(), HttpResponse.BodyHandlers.discarding());
                requests.incrementAndGet();
                statuses.computeIfAbsent(Integer.toString(r.statusCode()), k -> new AtomicLong()).incrementAndGet();
                if (r.statusCode() != 200) {
                    failed.incrementAndGet();
                }
                for (String set : r.headers().allValues("set-cookie")) {
                    String pair = set.split(";", 2)[0];
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        cookies.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                    }
                }
                String action = r.headers().firstValue("x-trade-action").orElse("");
                if (action.equals("login")) {
                    logins.incrementAndGet();
                    if (hadSession && !lastAction.equals("logout") && !lastAction.isEmpty()) {
                        loggedOut.incrementAndGet();
                    }
                }
                lastAction = action;
                if (action.equals("logout")) {
                    cookies.clear(); // the visit ends; the next one starts without cookies
                    lastAction = "";
                }
            } catch (Exception e) {
                requests.incrementAndGet();
                failed.incrementAndGet();
                statuses.computeIfAbsent("io-error", k -> new AtomicLong()).incrementAndGet();
            }
            try {
                Thread.sleep(think); // think time: part of the workload
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
