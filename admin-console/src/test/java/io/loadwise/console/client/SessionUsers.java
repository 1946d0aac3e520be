package io.loadwise.console.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Users of a session application through the dispatcher, one thread each: log in, five requests that need the
 * session (10 ms think time), log out, again. Every answer but the expected 200 is a failure; a 401 on a request
 * within a session is a user logged out.
 */
final class SessionUsers implements AutoCloseable {

    /** What the users saw. */
    record Tally(long requests, long logins, long loggedOut, List<String> failures) {
    }

    private static final long THINK_MILLIS = 10;

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong logins = new AtomicLong();
    private final AtomicInteger loggedOut = new AtomicInteger();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Object progress = new Object();
    private volatile boolean stopped;

    private SessionUsers(InetSocketAddress proxy) {
        this.base = URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    static SessionUsers start(InetSocketAddress proxy, int users) {
        SessionUsers s = new SessionUsers(proxy);
        for (int i = 0; i < users; i++) {
            Thread t = new Thread(s::loop, "session-user-" + i);
            t.setDaemon(true);
            s.threads.add(t);
            t.start();
        }
        return s;
    }

    Tally tally() {
        return new Tally(requests.get(), logins.get(), loggedOut.get(), List.copyOf(failures));
    }

    /** Waits until the users have made {@code count} requests in all (or a failure happened). */
    void awaitRequests(long count) throws InterruptedException {
        synchronized (progress) {
            while (requests.get() < count && failures.isEmpty()) {
                progress.wait();
            }
        }
    }

    Tally stop() throws InterruptedException {
        stopped = true;
        for (Thread t : threads) {
            t.join();
        }
        return tally();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private void loop() {
        try {
            while (!stopped) {
                HttpResponse<String> login = get("/login", null);
                String cookie = login.headers().firstValue("set-cookie").orElse("");
                if (login.statusCode() != 200 || !cookie.startsWith("JSESSIONID=")) {
                    fail("login: " + login.statusCode() + " " + cookie);
                    continue;
                }
                logins.incrementAndGet();
                String session = cookie.substring(0, cookie.indexOf(';'));
                for (int i = 0; i < 5 && !stopped; i++) {
                    HttpResponse<String> cart = get("/cart", session);
                    if (cart.statusCode() == 401) {
                        loggedOut.incrementAndGet();
                    }
                    if (cart.statusCode() != 200) {
                        fail("cart with " + session + ": " + cart.statusCode() + " " + cart.body());
                    }
                    Thread.sleep(THINK_MILLIS); // the users' think time, part of the workload
                }
                HttpResponse<String> logout = get("/logout", session);
                if (logout.statusCode() != 200) {
                    fail("logout with " + session + ": " + logout.statusCode());
                }
            }
        } catch (IOException e) {
            fail("I/O: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private HttpResponse<String> get(String path, String cookie) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        requests.incrementAndGet();
        synchronized (progress) {
            progress.notifyAll();
        }
        return response;
    }

    private void fail(String what) {
        failures.add(what);
        synchronized (progress) {
            progress.notifyAll();
        }
    }
}
