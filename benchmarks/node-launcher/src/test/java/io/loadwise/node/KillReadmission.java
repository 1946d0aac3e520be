package io.loadwise.node;

import org.awaitility.Awaitility;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.dispatcher.cluster.AgentState;
import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.runtime.Dispatcher;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Issue "App servers, as mod_cluster serves them", time to readmission after a kill, on a real server: each
 * {@link Front} is a real dispatcher (one per policy) in front of the server and an always-up node, with its
 * own light load. The server gets SIGKILL, is started again, and the measurement records (a) the time from
 * the restart until the server answers its first request directly, (b) the time from that answer until each
 * dispatcher selects it again (its selections counter grows), and the failed requests of each load during the
 * kill and during the restart. (b) must stay within {@link #READMISSION_LIMIT}: the dispatcher's promise.
 *
 * <p>{@code benchmarks/servers} uses this class too, for WildFly and Open Liberty, from this module's test jar.
 */
public final class KillReadmission {

    static final Duration READMISSION_LIMIT = Duration.ofSeconds(2);
    private static final Duration STATE_LIMIT = Duration.ofSeconds(60);
    private static final int CLIENTS_PER_FRONT = 2;
    /** Pause between one client's requests: light load, not a synchronisation. */
    private static final long CLIENT_PAUSE_MILLIS = 10;
    private static final long DIRECT_POLL_MILLIS = 20;
    /** How long the load runs on after the last readmission, to count the restart's failures. */
    private static final Duration AFTER_READMISSION = Duration.ofSeconds(2);

    /** Kills the server (SIGKILL) and returns once its processes are gone. */
    @FunctionalInterface
    public interface Kill {
        void run() throws Exception;
    }

    /** Starts the server again, without waiting for it. */
    @FunctionalInterface
    public interface Restart {
        void run() throws Exception;
    }

    /** One dispatcher in front of the server ({@code node}) and an always-up node, under its own load. */
    public static final class Front {
        final String policy;
        final Dispatcher dispatcher;
        final String cluster;
        final String node;
        final URI target;
        final Load load;

        public Front(String policy, Dispatcher dispatcher, String cluster, String node, String path) {
            this.policy = policy;
            this.dispatcher = dispatcher;
            this.cluster = cluster;
            this.node = node;
            this.target = URI.create("http://127.0.0.1:" + dispatcher.boundAddress(cluster).getPort() + path);
            this.load = new Load(policy, target);
        }

        NodeState state() {
            return dispatcher.cluster(cluster).node(node);
        }

        long selections() {
            return state().counters().totalSelections();
        }

        long completed() {
            return state().counters().totalRequests() - state().counters().failedRequests();
        }

        boolean agentDriven() {
            return policy.startsWith("jvm-aware");
        }
    }

    /**
     * One policy's figures.
     *
     * @param restartToAnswerMillis (a), the same for every front of one run
     * @param answerToSelectedMillis (b)
     */
    public record Result(String server, String policy, long restartToAnswerMillis, long answerToSelectedMillis,
            long servedDuringKill, long failedDuringKill, long servedDuringRestart, long failedDuringRestart,
            List<String> problems) {

        /** One row of the results table. */
        public String row() {
            return "| " + server + " | " + policy + " | " + restartToAnswerMillis + " ms | " + answerToSelectedMillis
                    + " ms | " + failedDuringKill + " of " + (servedDuringKill + failedDuringKill) + " | "
                    + failedDuringRestart + " of " + (servedDuringRestart + failedDuringRestart) + " |";
        }
    }

    private KillReadmission() {
    }

    /**
     * Runs the measurement: the server must be up and {@code direct} must answer 200. Fails if a dispatcher
     * does not select the server within {@link #READMISSION_LIMIT} of its first answer.
     */
    public static List<Result> measure(String server, List<Front> fronts, URI direct, Kill kill, Restart restart,
            Duration startLimit) throws Exception {
        try {
            for (Front front : fronts) {
                if (front.agentDriven()) {
                    await(front.policy + ": the server's agent polled", STATE_LIMIT,
                            () -> front.state().agentState() == AgentState.OK);
                }
                front.load.start();
            }
            for (Front front : fronts) {
                long before = front.selections();
                long served = front.load.ok.get();
                await(front.policy + ": the server selected under load", STATE_LIMIT,
                        () -> front.selections() > before + 5 && front.load.ok.get() > served + 20);
            }
            fronts.forEach(f -> f.load.mark());

            kill.run();
            for (Front front : fronts) {
                long served = front.load.ok.get();
                // the proxy holds the dead server out (a failed connect, or a failed health check where the
                // front has one: then no connect renews the connect hold-out, which lapses while the check
                // still holds the node out); the agent is silent past its expiry (3 s)
                await(front.policy + ": the server held out after the kill", STATE_LIMIT,
                        () -> !front.state().healthy() && front.load.ok.get() > served + 20
                                && (!front.agentDriven() || front.state().agentState() == AgentState.UNKNOWN));
            }
            long[] killServed = new long[fronts.size()];
            long[] killFailed = new long[fronts.size()];
            for (int i = 0; i < fronts.size(); i++) {
                killServed[i] = fronts.get(i).load.servedSinceMark();
                killFailed[i] = fronts.get(i).load.failedSinceMark();
                fronts.get(i).load.mark();
            }

            long restarted = System.nanoTime();
            restart.run();
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            HttpRequest ping = HttpRequest.newBuilder(direct).timeout(Duration.ofSeconds(10)).build();
            while (!answers(client, ping)) {
                if (System.nanoTime() - restarted > startLimit.toNanos()) {
                    throw new AssertionError(server + " did not answer " + direct + " within " + startLimit);
                }
                TimeUnit.MILLISECONDS.sleep(DIRECT_POLL_MILLIS); // poll interval, not a synchronisation
            }
            long answered = System.nanoTime();
            long[] selectionsAtAnswer = new long[fronts.size()];
            long[] completedAtAnswer = new long[fronts.size()];
            long[] selectedAt = new long[fronts.size()];
            for (int i = 0; i < fronts.size(); i++) {
                selectionsAtAnswer[i] = fronts.get(i).selections();
                completedAtAnswer[i] = fronts.get(i).completed();
            }
            long deadline = answered + READMISSION_LIMIT.toNanos() + TimeUnit.SECONDS.toNanos(10);
            int pending = fronts.size();
            while (pending > 0 && System.nanoTime() - deadline < 0) {
                for (int i = 0; i < fronts.size(); i++) {
                    if (selectedAt[i] == 0 && fronts.get(i).selections() > selectionsAtAnswer[i]) {
                        selectedAt[i] = System.nanoTime();
                        pending--;
                    }
                }
                TimeUnit.MILLISECONDS.sleep(1); // poll interval, not a synchronisation
            }
            long lastSelected = answered;
            for (long at : selectedAt) {
                lastSelected = Math.max(lastSelected, at);
            }
            long runOn = lastSelected + AFTER_READMISSION.toNanos();
            await("the load to run on after readmission", AFTER_READMISSION.plusSeconds(5),
                    () -> System.nanoTime() - runOn > 0);

            List<Result> results = new ArrayList<>();
            for (int i = 0; i < fronts.size(); i++) {
                Front front = fronts.get(i);
                long toSelected = selectedAt[i] == 0 ? -1 : (selectedAt[i] - answered) / 1_000_000;
                results.add(new Result(server, front.policy, (answered - restarted) / 1_000_000, toSelected,
                        killServed[i], killFailed[i], front.load.servedSinceMark(), front.load.failedSinceMark(),
                        front.load.firstProblems()));
            }
            System.out.println("KillReadmission figures for " + server + ":");
            results.forEach(r -> System.out.println("  " + r.row() + " problems: " + r.problems()));
            for (int i = 0; i < fronts.size(); i++) {
                Result r = results.get(i);
                assertTrue(r.answerToSelectedMillis() >= 0
                        && r.answerToSelectedMillis() <= READMISSION_LIMIT.toMillis(),
                        server + ", " + r.policy() + ": selected again " + (r.answerToSelectedMillis() < 0
                                ? "never" : "after " + r.answerToSelectedMillis() + " ms")
                                + " of answering; limit " + READMISSION_LIMIT.toMillis() + " ms");
                // a server that answers before its application serves (GlassFish's 404 while it deploys) must not
                // get client requests: the probe readmits only on a healthy answer
                assertEquals(0, r.failedDuringKill() + r.failedDuringRestart(), server + ", " + r.policy()
                        + ": failed requests during the kill and the restart: " + r.row() + " " + r.problems());
                long completedSince = fronts.get(i).completed() - completedAtAnswer[i];
                assertTrue(completedSince > 0, server + ", " + r.policy()
                        + ": the server completed no request through the dispatcher after its restart");
            }
            return results;
        } finally {
            for (Front front : fronts) {
                front.load.stop();
            }
        }
    }

    private static boolean answers(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        Awaitility.await(what).atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    /**
     * {@value #CLIENTS_PER_FRONT} clients looping over one URI through one dispatcher, keep-alive HTTP/1.1. A
     * failure is any answer but 200, or an I/O error.
     */
    static final class Load {
        private final String name;
        private final URI target;
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        private final AtomicBoolean running = new AtomicBoolean();
        final AtomicLong ok = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
        private final List<Thread> threads = new ArrayList<>();
        private long markOk;
        private long markFailed;

        Load(String name, URI target) {
            this.name = name;
            this.target = target;
        }

        void start() {
            running.set(true);
            for (int i = 0; i < CLIENTS_PER_FRONT; i++) {
                Thread t = new Thread(this::loop, "load-" + name + "-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        private void loop() {
            HttpRequest request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30)).build();
            while (running.get()) {
                try {
                    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200) {
                        ok.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        problem(r.statusCode() + " " + r.body().strip());
                    }
                    TimeUnit.MILLISECONDS.sleep(CLIENT_PAUSE_MILLIS);
                } catch (IOException e) {
                    failed.incrementAndGet();
                    problem(e.toString());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void problem(String what) {
            if (problems.size() < 5) {
                problems.add(what.length() > 200 ? what.substring(0, 200) : what);
            }
        }

        void mark() {
            markOk = ok.get();
            markFailed = failed.get();
        }

        long servedSinceMark() {
            return ok.get() - markOk;
        }

        long failedSinceMark() {
            return failed.get() - markFailed;
        }

        List<String> firstProblems() {
            return List.copyOf(problems);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(35_000);
            }
            threads.clear();
        }
    }
}
