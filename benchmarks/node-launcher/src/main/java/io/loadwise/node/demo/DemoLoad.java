package io.loadwise.node.demo;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * A light background load so the demo's graphs and selections move: a few virtual users, each with its
 * own session (cookie jar), requesting {@code /trade/scenario} with a short random think time. This is
 * a demo aid, not a benchmark; the benchmarks drive JMeter.
 */
final class DemoLoad implements AutoCloseable {

    private final URI scenario;
    private final List<Thread> users = new ArrayList<>();
    private final LongAdder ok = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private volatile boolean running = true;

    DemoLoad(URI scenario, int userCount) {
        this.scenario = scenario;
        for (int i = 0; i < userCount; i++) {
            Thread user = new Thread(this::runUser, "demo-user-" + (i + 1));
            user.setDaemon(true);
            users.add(user);
            user.start();
        }
    }

    private void runUser() {
        HttpClient client = HttpClient.newBuilder()
                .cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        HttpRequest request = HttpRequest.newBuilder(scenario).timeout(Duration.ofSeconds(30)).GET().build();
        while (running) {
            try {
                HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
                (response.statusCode() == 200 ? ok : failed).increment();
                Thread.sleep(100 + ThreadLocalRandom.current().nextInt(300));
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                failed.increment();
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    long ok() {
        return ok.sum();
    }

    long failed() {
        return failed.sum();
    }

    @Override
    public void close() {
        running = false;
        users.forEach(Thread::interrupt);
        for (Thread user : users) {
            try {
                user.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
