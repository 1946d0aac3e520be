package io.loadwise.bench.chaos;

import io.loadwise.testsupport.faults.FaultNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results folder of one chaos run: {@code README.md} (the table, how to reproduce, the machine, what the
 * figures mean), {@code chaos.csv} and {@code chaos.json}, rewritten after every case so that an interrupted
 * run keeps what it measured.
 */
public final class ChaosResults {

    private final Path folder;
    private final Map<String, Object> run = new LinkedHashMap<>();
    private final List<CaseResult> results = new ArrayList<>();
    private final Map<String, String> notRun = new LinkedHashMap<>();

    public ChaosResults(Path folder, Path jar, int rate, int duration, int reloads, String cases) {
        this.folder = folder;
        run.put("started", Instant.now().toString());
        run.put("dispatcherJar", jar.toString());
        run.put("rate", rate);
        run.put("soakSeconds", duration);
        run.put("reloads", reloads);
        run.put("chosenCases", cases); // "cases" holds the results
        run.put("machine", machine());
    }

    /** Adds a case; true when it passed. */
    public boolean add(CaseResult result) {
        results.add(result);
        return ChaosReport.verdict(result).equals("pass");
    }

    public void couldNotRun(String name, String why) {
        notRun.put(name, why);
    }

    public void write() throws IOException {
        Map<String, Object> all = new LinkedHashMap<>(run);
        all.put("notRun", notRun);
        Files.writeString(folder.resolve("chaos.json"), ChaosReport.json(all, results), StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("chaos.csv"), ChaosReport.csv(results), StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("README.md"), readme(), StandardCharsets.UTF_8);
    }

    private String readme() {
        StringBuilder md = new StringBuilder("# Chaos bench, ").append(run.get("started")).append("\n\n");
        md.append("`./loadwise bench chaos --cases ").append(run.get("chosenCases")).append(" --rate ").append(run.get("rate"))
                .append(" --duration ").append(run.get("soakSeconds")).append(" --reloads ").append(run.get("reloads"))
                .append("` on ").append(run.get("machine")).append("\n\n");
        md.append(ChaosReport.table(results));
        notRun.forEach((name, why) -> md.append("\n- **").append(name).append("** could not run: ").append(why).append('\n'));
        md.append("""

                Raw figures: [chaos.csv](chaos.csv), [chaos.json](chaos.json) (the same, with the ramp and causes as lists).

                ## What the figures mean

                - **load**: how long the open-loop load ran (warm-up included) and the rate it reached: one `GET /work?i=N`
                  every 1/N s through the dispatcher, whatever the answers take, from the JDK HTTP client over
                  HTTP/1.1 keep-alive connections (connect timeout 5 s, request timeout 10 s).
                - **failed**: requests that got anything but a 200 from the dispatcher, all phases. **By cause**: the
                  status the client got (`HTTP 502` the node closed or reset the connection, `HTTP 504` the node did
                  not answer within `responseTimeoutMs`, `HTTP 503` no usable node, `HTTP 500` the node's own answer
                  passed on) or what the client saw instead (`connection reset`, `connection closed`,
                  `client timeout`, `client connect timeout`).
                - **failed at node**: the failures after the warm-up by the node the dispatcher's access log names for
                  the request (`i=N` finds its line): `c` is the broken node, `a`, `b` (`d`) healthy ones,
                  `dispatcher` a request the dispatcher answered itself (no usable node, or none reachable), `no
                  access-log line` a request that never reached it.
                - **By phase**, by when the request was sent: `warm-up` (at least 5 s, and until no request of the
                  last 2 s failed, at most 30 s: fresh JVMs on a busy machine answer their first requests slowly;
                  not judged), `fault` (from one response timeout, 1.5 s, before the fault until node c left
                  selection: requests sent to c or in flight to it), `out` (c out of selection, a and b healthy),
                  `return` (from the repair on, the ramp included). `soak` is the whole policies or reload run after
                  its warm-up.
                - **out after**: from the fault to the moment the dispatcher took c out of selection, from the admin
                  API's own timestamps (`ejectedUntil` less the 5 s base ejection, or the end of the health check
                  that took it down), else the first of the polls made every 100 ms. **out by**: every reason the API
                  gave while c was out: `ejected` (outlier detection), `health down` (active checks), `connect
                  failure` (neither: a refused connect holds it out for `unhealthyRetryMs`).
                - **back after**: from the repair (restart, SIGCONT, normal answers again) to the first poll that
                  shows c in selection again (within about 100 ms).
                - **ramp**: c's share of the answered requests in each second after it came back; **expected**: the
                  share round robin gives it with slow start at the middle of that second, f / (f + 2) with
                  f = 0.1 + 0.9 t / 5 s (docs/configuration.md, slow start), 1/3 once the ramp is over.
                - **verdict**: a fault case passes when c left selection, came back, and no request sent while c was
                  out or after its repair failed; failures in the `fault` phase are requests that went to the broken
                  node before it was taken out, which only retries can save, and are reported, not judged. A soak
                  case passes with 0 failures after its warm-up.
                - **load avg**: the machine's one-minute load average at the start and the end of the case. Above
                  the number of CPUs, every process waits for a CPU, and time-outs of healthy nodes are the machine's.

                ## Settings

                Cluster `chaos`, `mode` http, `round-robin` (the policies case switches it), `connectTimeoutMs` 500,
                `responseTimeoutMs` 1500, `unhealthyRetryMs` 1000, `healthCheck` `/health` every second (timeout
                1 s, rise 2, fall 2), `outlierDetection` 5 × 5xx or 3 gateway failures in a row, `baseEjectionMs`
                5000, `maxEjectionPercent` 50, `slowStartMs` 5000, an access log. Nodes:
                `io.loadwise.bench.chaos.FaultNode`, a blocking HTTP/1.1 server per JVM (a thread per connection)
                answering its own name. Each case starts fresh processes and waits until every node's health check
                is up. The processes' logs are in `benchmarks/runner/target/chaos-work/<case>/` (not kept here).

                ## Reproduce

                ```
                mvn -B -q -DskipTests package
                ./loadwise bench chaos                 # every case, about 7 minutes
                ./loadwise bench chaos --cases kill,reload --duration 30
                ```
                """);
        return md.toString();
    }

    /** CPUs, CPU model, Java, OS and the load average at start: the machine is shared, its figures are not a lab's. */
    static String machine() {
        String load = "unknown";
        String cpu = "unknown CPU";
        try {
            load = Files.readString(Path.of("/proc/loadavg")).trim().split(" ", 4)[0];
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // not Linux: leave them unknown
        }
        return Runtime.getRuntime().availableProcessors() + " CPUs (" + cpu + "), Java " + System.getProperty("java.version")
                + ", " + System.getProperty("os.name") + ", load average " + load + " at start; the nodes, the dispatcher"
                + " and the load generator share it";
    }
}
