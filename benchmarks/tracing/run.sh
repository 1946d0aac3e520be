#!/usr/bin/env bash
# Tracing against a real collector (issue 33, item 3): Jaeger v2 (github.com/jaegertracing/jaeger/cmd/jaeger
# v1.76.0, an OpenTelemetry Collector distribution with Jaeger's storage and query), built here with `go build`
# from the Go module proxy, in memory, receiving OTLP/HTTP. The shipped jar (loadwise run) proxies to one NGINX
# node; wrk measures the L7 1 KB row with tracing off, at sampleRatio 1.0 and at 0.1 (same run, rounds
# interleaved), then Jaeger's query API is asked what it holds: services, spans per trace, parent/child links,
# and the attributes of a span. A last row points the exporter at a closed port: the requests are served, the
# failed-span counter rises, the heap does not.
# Results: benchmarks/results/<date>-tracing/ (README.md, runs.csv, jaeger-trace.json).
#
#   benchmarks/tracing/run.sh                      # 3 rounds x 10 s, -c50, 1 and 2 worker threads
#   RUNS=1 DURATION=5s WARMUP=5s benchmarks/tracing/run.sh
#
# Environment: RUNS, DURATION, WARMUP, CONNECTIONS, THREADS (worker threads), OUT, JAR, BASE_JAR (a loadwise.jar
# without tracing, measured as row "base": what tracing off costs), JAEGER (a jaeger binary to use instead of
# building one), GO (default /usr/local/go/bin/go).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/$(date -u +%F)-tracing}"
RUNS="${RUNS:-3}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-20s}"
CONNECTIONS="${CONNECTIONS:-50}"
THREADS="${THREADS:-1}"
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
GO="${GO:-/usr/local/go/bin/go}"
JAEGER_VERSION=v1.76.0
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/loadwise/jaeger-$JAEGER_VERSION"

"$ROOT/.ci/install-deps" wrk nginx curl python3
export PATH="$PATH:/usr/sbin"
if [ ! -f "$JAR" ]; then
  echo "building the jar (mvn -B -q package -DskipTests)"
  (cd "$ROOT" && mvn -B -q -pl admin-console -am package -DskipTests -Dfuzz.skip=true)
fi

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-tracing
mkdir -p "$OUT"

# --- the collector: Jaeger v2, built from the Go module proxy ---------------------------------------------
COLLECTOR_NOTE=""
if [ -z "${JAEGER:-}" ]; then
  JAEGER="$CACHE/jaeger"
  if [ ! -x "$JAEGER" ]; then
    echo "building Jaeger $JAEGER_VERSION (go build; a few minutes the first time)"
    mkdir -p "$CACHE/src"
    if ! ( cd "$CACHE/src" && [ -f go.mod ] || "$GO" mod init loadwise-jaeger-build >/dev/null 2>&1
           cd "$CACHE/src" && "$GO" get -tool "github.com/jaegertracing/jaeger/cmd/jaeger@$JAEGER_VERSION" \
             && "$GO" build -o "$JAEGER" github.com/jaegertracing/jaeger/cmd/jaeger ) > "$CACHE/build.log" 2>&1; then
      COLLECTOR_NOTE="Jaeger $JAEGER_VERSION could not be built: $(tail -3 "$CACHE/build.log" | tr '\n' ' ')"
      JAEGER=""
    fi
  fi
fi
OTLP_PORT="$(free_port)"; QUERY_PORT="$(free_port)"; QUERY_GRPC="$(free_port)"
if [ -n "$JAEGER" ]; then
  cat > "$WORK/jaeger.yaml" <<YAML
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces: { receivers: [otlp], processors: [batch], exporters: [jaeger_storage_exporter] }
  telemetry: { metrics: { level: none } }
extensions:
  jaeger_query:
    storage: { traces: memstore }
    http: { endpoint: "127.0.0.1:$QUERY_PORT" }
    grpc: { endpoint: "127.0.0.1:$QUERY_GRPC" }
  jaeger_storage:
    backends: { memstore: { memory: { max_traces: 200000 } } }
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:$OTLP_PORT" } } }
processors:
  batch: {}
exporters:
  jaeger_storage_exporter: { trace_storage: memstore }
YAML
  "$JAEGER" --config "$WORK/jaeger.yaml" > "$WORK/jaeger.log" 2>&1 &
  PIDS+=($!)
  wait_port "$OTLP_PORT" || { cat "$WORK/jaeger.log" >&2; exit 1; }
  wait_port "$QUERY_PORT"
  COLLECTOR_NOTE="Jaeger v2 ($("$JAEGER" version 2>/dev/null | tail -1 || true); github.com/jaegertracing/jaeger/cmd/jaeger $JAEGER_VERSION built with $("$GO" version 2>/dev/null | cut -d' ' -f3)), in-memory storage, OTLP/HTTP receiver"
fi
echo "collector: ${COLLECTOR_NOTE}"

# --- the node: one NGINX worker serving 1 KB ---------------------------------------------------------------
NODE_PORT="$(free_port)"; SINK_PORT="$(free_port)" # the sink: an OTLP endpoint that accepts and drops, cheaply
mkdir -p "$WORK/www" "$WORK/node"
head -c 1024 /dev/zero | tr '\0' 'x' > "$WORK/www/1k.html"
chmod 755 "$WORK" "$WORK/www"; chmod 644 "$WORK"/www/*
cat > "$WORK/node/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/node/nginx.pid;
error_log $WORK/node/error.log warn;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000;
  server { listen 127.0.0.1:$NODE_PORT backlog=4096; root $WORK/www; }
  server { listen 127.0.0.1:$SINK_PORT; location = /v1/traces { return 200; } } }
CONF
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

# --- the dispatchers ---------------------------------------------------------------------------------------
declare -A PORT ADMIN JPID
start_loadwise() { # row tracing-json [jar]
  local row=$1 tracing=$2 jar=${3:-$JAR} port admin dir
  port="$(free_port)"; admin="$(free_port)"; dir="$WORK/$row"
  mkdir -p "$dir"
  cat > "$dir/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$admin", "token": "tracing-benchmark-token-0123456789" },
  $tracing
  "clusters": [ { "name": "bench", "mode": "http", "listen": "127.0.0.1:$port", "policy": "round-robin",
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] } ] }
JSON
  (cd "$dir" && LOADWISE_ADMIN_PASSWORD=tracing-benchmark-password \
      exec java -jar "$jar" run --config "$dir/loadwise.json" --worker-threads "$THREADS") > "$dir/loadwise.log" 2>&1 &
  PIDS+=($!)
  if ! wait_port "$port"; then cat "$dir/loadwise.log" >&2; exit 1; fi
  PORT[$row]="$port"; ADMIN[$row]="$admin"; JPID[$row]=$!
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime, clock ticks
ROWS="off"
start_loadwise off ""
if [ -n "${BASE_JAR:-}" ]; then # a build without tracing (e.g. the commit before it): what "off" costs
  start_loadwise base "" "$BASE_JAR"
  ROWS="$ROWS base"
fi
if [ -n "$JAEGER" ]; then
  start_loadwise ratio-1.0 "\"tracing\": { \"otlpEndpoint\": \"http://127.0.0.1:$OTLP_PORT\", \"sampleRatio\": 1.0 },"
  start_loadwise ratio-0.1 "\"tracing\": { \"otlpEndpoint\": \"http://127.0.0.1:$OTLP_PORT\", \"sampleRatio\": 0.1 },"
  ROWS="$ROWS ratio-1.0 ratio-0.1"
fi
start_loadwise ratio-1.0-sink "\"tracing\": { \"otlpEndpoint\": \"http://127.0.0.1:$SINK_PORT\", \"sampleRatio\": 1.0 },"
ROWS="$ROWS ratio-1.0-sink"
start_loadwise unreachable "\"tracing\": { \"otlpEndpoint\": \"http://127.0.0.1:$(free_port)\", \"sampleRatio\": 1.0 },"
ROWS="$ROWS unreachable"

api() { curl -s -H "Authorization: Bearer tracing-benchmark-token-0123456789" "http://127.0.0.1:${ADMIN[$1]}$2"; }

# --- load --------------------------------------------------------------------------------------------------
echo "row,round,requests_per_second,latency_p50_ms,latency_p99_ms,cpu_us_per_request" > "$OUT/runs.csv"
TICK_US=$(( 1000000 / $(getconf CLK_TCK) ))
for row in $ROWS; do
  wrk -t1 -c"$CONNECTIONS" -d"$WARMUP" "http://127.0.0.1:${PORT[$row]}/1k.html" > /dev/null
done
for round in $(seq 1 "$RUNS"); do
  for row in $(echo $ROWS | tr ' ' '\n' | shuf); do
    before=$(cpu_ticks "${JPID[$row]}")
    res="$(wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:${PORT[$row]}/1k.html")"
    after=$(cpu_ticks "${JPID[$row]}")
    rps="$(echo "$res" | awk '/Requests\/sec/ {print $2}')"
    total="$(echo "$res" | awk '/requests in/ {print $1}')"
    cpu="$(python3 -c "print(round(($after - $before) * $TICK_US / max(1, $total), 2))")"
    p50="$(echo "$res" | awk '$1=="50%" {print $2}')"; p99="$(echo "$res" | awk '$1=="99%" {print $2}')"
    echo "$row,$round,$rps,$p50,$p99,$cpu" >> "$OUT/runs.csv"
    echo "$row round $round: $rps req/s p50 $p50 p99 $p99, dispatcher CPU $cpu us/request"
  done
done

# --- what the collector holds -------------------------------------------------------------------------------
for row in $ROWS; do api "$row" /api/tracing > "$WORK/$row.tracing.json"; echo "$row: $(cat "$WORK/$row.tracing.json")"; done
JAEGER_SUMMARY="no collector ran"
if [ -n "$JAEGER" ]; then
  sleep 3 # the last batch: the exporter sends every second
  curl -s -H 'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' \
    "http://127.0.0.1:${PORT[ratio-0.1]}/1k.html" > /dev/null
  for _ in $(seq 1 100); do
    curl -s "http://127.0.0.1:$QUERY_PORT/api/traces/4bf92f3577b34da6a3ce929d0e0e4736" > "$OUT/jaeger-trace.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d.get("data") else 1)' \
      "$OUT/jaeger-trace.json" && break
    sleep 0.1
  done
  JAEGER_SUMMARY="$(python3 - "$OUT/jaeger-trace.json" "$QUERY_PORT" <<'PY'
import json, sys, urllib.request
trace = json.load(open(sys.argv[1]))["data"][0]
spans = {s["spanID"]: s for s in trace["spans"]}
lines = []
services = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[2]}/api/services"))["data"]
lines.append(f"- services in Jaeger: {', '.join(sorted(services))}")
for s in sorted(trace["spans"], key=lambda s: s["startTime"]):
    kind = next((t["value"] for t in s["tags"] if t["key"] == "span.kind"), "?")
    parent = next((r["spanID"] for r in s.get("references", []) if r["refType"] == "CHILD_OF"), None)
    tags = {t["key"]: t["value"] for t in s["tags"] if t["key"].startswith(("loadwise.", "http."))}
    lines.append(f"- {kind} span {s['spanID']} (parent {parent}, {s['duration']} us): {json.dumps(tags, sort_keys=True)}")
print("\n".join(lines))
PY
)"
  echo "$JAEGER_SUMMARY"
fi

# --- summary -------------------------------------------------------------------------------------------------
SUMMARY="$(python3 - "$OUT/runs.csv" <<'PY'
import csv, statistics, sys
rows, cpu = {}, {}
for r in csv.DictReader(open(sys.argv[1])):
    rows.setdefault(r["row"], []).append(float(r["requests_per_second"]))
    cpu.setdefault(r["row"], []).append(float(r["cpu_us_per_request"]))
off = statistics.median(rows["off"])
coff = statistics.median(cpu["off"])
print("| row | median req/s | vs off | dispatcher CPU per request | vs off |\n|---|---|---|---|---|")
for name in rows:
    m, c = statistics.median(rows[name]), statistics.median(cpu[name])
    print(f"| {name} | {m:,.0f} | {100 * (m - off) / off:+.1f} % | {c:.1f} us | {100 * (c - coff) / coff:+.1f} % |")
PY
)"
cat > "$OUT/README.md" <<MD
# Tracing against a real collector ($(date -u +%F))

\`benchmarks/tracing/run.sh\` (RUNS=$RUNS, DURATION=$DURATION, WARMUP=$WARMUP, -c$CONNECTIONS, worker threads
$THREADS; $(nproc) cores, shared; JDK $(java -version 2>&1 | head -1)).

**Collector:** ${COLLECTOR_NOTE:-none}.

The shipped jar proxies the L7 1 KB row to one NGINX node. Rows: tracing off; \`sampleRatio\` 1.0 and 0.1 exporting
to the collector; 1.0 exporting to a sink (NGINX answering 200 to every POST: what the dispatcher itself pays,
without the collector's own CPU on these shared cores); 1.0 exporting to a closed port (unreachable collector).
CPU per request is the dispatcher's utime + stime over the run divided by the requests wrk completed.

$SUMMARY

Export counters after the runs (\`GET /api/tracing\`):

$(for row in $ROWS; do echo "- $row: \`$(cat "$WORK/$row.tracing.json")\`"; done)

A request with a sampled \`traceparent\` (trace 4bf92f3577b34da6a3ce929d0e0e4736) through the 0.1 row, as Jaeger
shows it (\`jaeger-trace.json\`):

$JAEGER_SUMMARY
MD
echo "results: $OUT/README.md"
