package io.loadwise.agent.servlet.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.loadwise.agent.servlet.LoadwiseAgentFilter;
import io.loadwise.agent.servlet.LoadwiseAgentListener;
import io.loadwise.agent.servlet.LoadwiseMetricsServlet;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * What agent polling costs a node when several dispatcher replicas each poll it: a real Tomcat 11 with the
 * agent's listener, filter and pull endpoint, polled by 0, 1 and 10 independent pollers (one HTTP client and
 * keep-alive connection each, as one per replica) every second, then 10 every 100 ms to make the cost per poll
 * stand out of the noise. Measured: the CPU time of the node's threads (Tomcat's connector and workers, the
 * agent's sampler), not of the pollers, per window. Not part of the build:
 * {@code mvn -pl node-agent/jakarta -am test -Dtest=PollLoadBenchmark -Dloadwise.bench.pollLoad=true}
 * ({@code -Dloadwise.bench.seconds=20}, {@code -Dloadwise.bench.out=FILE} for a CSV).
 */
@EnabledIfSystemProperty(named = "loadwise.bench.pollLoad", matches = "true")
class PollLoadBenchmark {

    private static final String SECRET = "poll-load-secret";

    @TempDir
    Path base;

    @Test
    void pollLoadOnOneNode() throws Exception {
        int seconds = Integer.getInteger("loadwise.bench.seconds", 20);
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.resolve("tomcat").toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("/app", Files.createDirectories(base.resolve("app")).toString());
        context.addParameter("loadwise.agent.secret", SECRET);
        context.addApplicationListener(LoadwiseAgentListener.class.getName());
        FilterDef filter = new FilterDef();
        filter.setFilterName("agent");
        filter.setFilterClass(LoadwiseAgentFilter.class.getName());
        context.addFilterDef(filter);
        FilterMap map = new FilterMap();
        map.setFilterName("agent");
        map.addURLPattern("/*");
        context.addFilterMap(map);
        Tomcat.addServlet(context, "metrics", LoadwiseMetricsServlet.class.getName());
        context.addServletMappingDecoded("/loadwise-agent/*", "metrics");
        tomcat.start();
        URI endpoint = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/app/loadwise-agent/metrics");
        StringBuilder csv = new StringBuilder("pollers,interval_ms,seconds,polls,node_cpu_ms,node_cpu_ms_per_s,node_cpu_us_per_poll_over_idle\n");
        try {
            poll(endpoint, 1, 1000, 3); // warm-up: class loading, JIT
            double idle = 0;
            int[][] cells = {{0, 1000}, {1, 1000}, {10, 1000}, {10, 100}, {0, 1000}};
            for (int[] cell : cells) {
                long cpuBefore = nodeCpuNanos();
                long polls = poll(endpoint, cell[0], cell[1], seconds);
                double cpuMs = (nodeCpuNanos() - cpuBefore) / 1e6;
                double perSecond = cpuMs / seconds;
                if (cell[0] == 0) {
                    idle = perSecond;
                }
                String perPoll = polls == 0 ? "" : String.format(Locale.ROOT, "%.0f", (perSecond - idle) * 1000 * seconds / polls);
                csv.append(String.format(Locale.ROOT, "%d,%d,%d,%d,%.1f,%.3f,%s%n", cell[0], cell[1], seconds, polls, cpuMs,
                        perSecond, perPoll));
            }
        } finally {
            tomcat.stop();
            tomcat.destroy();
        }
        System.out.print(csv);
        String out = System.getProperty("loadwise.bench.out");
        if (out != null) {
            Files.writeString(Path.of(out), csv);
        }
    }

    /** {@code pollers} independent clients GET the endpoint every {@code intervalMs} for {@code seconds}. */
    private static long poll(URI endpoint, int pollers, int intervalMs, int seconds) throws Exception {
        if (pollers == 0) {
            Thread.sleep(seconds * 1000L); // the idle window: nothing to wait for but the clock
            return 0;
        }
        AtomicLong polls = new AtomicLong();
        List<HttpClient> clients = new ArrayList<>();
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "poller");
            t.setDaemon(true);
            return t;
        });
        HttpRequest request = HttpRequest.newBuilder(endpoint).header("X-Loadwise-Secret", SECRET)
                .timeout(Duration.ofSeconds(2)).build();
        for (int i = 0; i < pollers; i++) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            clients.add(client);
            timer.scheduleAtFixedRate(() -> {
                try {
                    HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                    assertEquals(200, response.statusCode());
                    polls.incrementAndGet();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, i * intervalMs / pollers, intervalMs, TimeUnit.MILLISECONDS); // spread over the interval, as replicas are
        }
        Thread.sleep(seconds * 1000L); // the measurement window is wall-clock time by definition
        timer.shutdownNow();
        timer.awaitTermination(5, TimeUnit.SECONDS);
        return polls.get();
    }

    /** CPU time of the node's threads: Tomcat's and the agent's, not the pollers' or this test's. */
    private static long nodeCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String name = t.getName();
            if (name.startsWith("http-nio") || name.startsWith("loadwise-agent") || name.contains("Catalina")
                    || name.contains("Tomcat")) {
                long cpu = threads.getThreadCpuTime(t.getId());
                total += Math.max(0, cpu);
            }
        }
        return total;
    }
}
