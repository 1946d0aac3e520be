#!/usr/bin/env bash
# Capacity of 1, 2 and 3 dispatcher replicas (the shipped loadwise.jar, L7 http mode, one worker thread each)
# behind one L4 front (HAProxy mode tcp, balance roundrobin, one thread), on 127.0.0.1. The node is one NGINX
# worker serving a 1 KB static file with keep-alive; the client is wrk with keep-alive connections. Every
# replica count runs RUNS times, in a shuffled order per round. The replicas read one configuration file each
# (the same clusters): the configuration store does not touch the request path, so etcd is left out here.
# Results: benchmarks/results/<date>-scale-out/capacity/ (README.md, runs.csv).
#
#   benchmarks/scale-out/run-capacity.sh
#   RUNS=1 DURATION=5s REPLICAS="1 2" benchmarks/scale-out/run-capacity.sh
#
# Environment: RUNS (3), DURATION (10s), WARMUP (5s), CONNECTIONS (100), REPLICAS ("1 2 3"), JAR, OUT.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/$(date -u +%F)-scale-out/capacity}"
RUNS="${RUNS:-3}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-5s}"
CONNECTIONS="${CONNECTIONS:-100}"
REPLICAS="${REPLICAS:-1 2 3}"
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
MAX_REPLICAS=3

"$ROOT/.ci/install-deps" wrk haproxy nginx python3
export PATH="$PATH:/usr/sbin"
[ -f "$JAR" ] || (cd "$ROOT" && mvn -B -q -pl admin-console -am package -DskipTests -Dfuzz.skip=true)

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-scale-out

cpu_ticks() { # pid...: user+system clock ticks of these processes, threads included
  local total=0 pid
  for pid in "$@"; do
    total=$(( total + $(awk '{print $14 + $15}' "/proc/$pid/stat") ))
  done
  echo "$total"
}

# --- the node ----------------------------------------------------------------------------------------
NODE_PORT="$(free_port)"
mkdir -p "$WORK/www" "$WORK/node"
head -c 1024 /dev/zero | tr '\0' 'x' > "$WORK/www/1k.html"
chmod 755 "$WORK" "$WORK/www"; chmod 644 "$WORK"/www/*
cat > "$WORK/node/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/node/nginx.pid;
error_log $WORK/node/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server { listen 127.0.0.1:$NODE_PORT backlog=4096; root $WORK/www; }
}
CONF
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

# --- the replicas: started once, the front decides how many take traffic ------------------------------
declare -a RPORT RPID
for i in $(seq 1 $MAX_REPLICAS); do
  port="$(free_port)"; admin="$(free_port)"; dir="$WORK/r$i"
  mkdir -p "$dir"
  cat > "$dir/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$admin", "token": "scale-out-benchmark-token-0123456789" },
  "clusters": [ { "name": "bench", "mode": "http", "listen": "127.0.0.1:$port", "policy": "round-robin",
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] } ] }
JSON
  (cd "$dir" && LOADWISE_ADMIN_PASSWORD=scale-out-benchmark-password \
      exec java -jar "$JAR" run --config "$dir/loadwise.json" --worker-threads 1 --replica-id "r$i") \
      > "$dir/loadwise.log" 2>&1 &
  PIDS+=($!)
  RPID[$i]=$!
  RPORT[$i]=$port
done
for i in $(seq 1 $MAX_REPLICAS); do
  if ! wait_port "${RPORT[$i]}"; then cat "$WORK/r$i/loadwise.log" >&2; exit 1; fi
done

# --- one HAProxy front per replica count ---------------------------------------------------------------
declare -A FPORT FPID
for n in $REPLICAS; do
  port="$(free_port)"
  servers=""
  for i in $(seq 1 "$n"); do servers+="  server r$i 127.0.0.1:${RPORT[$i]}"$'\n'; done
  cat > "$WORK/front-$n.cfg" <<CONF
global
  nbthread 1
  maxconn 4096
defaults
  mode tcp
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend l4
  bind 127.0.0.1:$port
  default_backend replicas
backend replicas
  balance roundrobin
$servers
CONF
  haproxy -f "$WORK/front-$n.cfg" -db > "$WORK/front-$n.log" 2>&1 &
  PIDS+=($!)
  FPID[$n]=$!
  FPORT[$n]=$port
  wait_port "$port"
done

mkdir -p "$OUT"
echo "round,replicas,requests_per_second,p50_ms,p99_ms,errors,replica_cpu_us_per_request,front_cpu_us_per_request" > "$OUT/runs.csv"
HZ="$(getconf CLK_TCK)"
LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"
STARTED="$(date -u '+%F %H:%M')"

for n in $REPLICAS; do
  wrk -t1 -c"$CONNECTIONS" -d"$WARMUP" "http://127.0.0.1:${FPORT[$n]}/1k.html" > /dev/null
done
for round in $(seq 1 "$RUNS"); do
  for n in $(echo $REPLICAS | tr ' ' '\n' | shuf); do
    used=()
    for i in $(seq 1 "$n"); do used+=("${RPID[$i]}"); done
    before="$(cpu_ticks "${RPID[@]}")"; front_before="$(cpu_ticks "${FPID[$n]}")"
    result="$(wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:${FPORT[$n]}/1k.html")"
    after="$(cpu_ticks "${RPID[@]}")"; front_after="$(cpu_ticks "${FPID[$n]}")"
    python3 - "$round" "$n" "$HZ" "$before" "$after" "$front_before" "$front_after" "$result" >> "$OUT/runs.csv" <<'PY'
import re, sys
round_, n, hz, before, after, fb, fa, text = sys.argv[1:]
def ms(label):
    m = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    v = float(m.group(1))
    return v / 1000 if m.group(2) == "us" else v * 1000 if m.group(2) == "s" else v
total = int(re.search(r"(\d+) requests in", text).group(1))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = 0
m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if m: errors += int(m.group(1))
m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
if m: errors += sum(int(x) for x in m.groups())
cpu = (int(after) - int(before)) / int(hz) * 1e6 / max(total, 1)
fcpu = (int(fa) - int(fb)) / int(hz) * 1e6 / max(total, 1)
print(f"{round_},{n},{rps:.0f},{ms('50'):.2f},{ms('99'):.2f},{errors},{cpu:.1f},{fcpu:.1f}")
PY
    tail -1 "$OUT/runs.csv"
  done
done

python3 - "$OUT" "$STARTED" "$LOAD_START" "$(cut -d' ' -f1-3 /proc/loadavg)" "$RUNS" "$DURATION" "$CONNECTIONS" <<'PY'
import csv, statistics, sys, os, platform
out, started, load_start, load_end, runs, duration, conns = sys.argv[1:]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
by = {}
for r in rows:
    by.setdefault(int(r["replicas"]), []).append(r)
lines = [
    "# Capacity: 1, 2 and 3 dispatcher replicas behind one L4 front",
    "",
    f"Measured from {started} UTC by `benchmarks/scale-out/run-capacity.sh` on {platform.node()} "
    f"({platform.machine()}, {os.cpu_count()} cores). {runs} rounds of {duration} per replica count, "
    "shuffled within each round; medians over the rounds.",
    "",
    "- The node: one NGINX worker, a 1 KB static file, keep-alive.",
    "- The replicas: `java -jar loadwise.jar run --worker-threads 1`, console and metric stores on, one "
    "round-robin HTTP cluster over the node, one configuration file each.",
    f"- The front: HAProxy `mode tcp`, `balance roundrobin`, `nbthread 1`. The client: `wrk -t1 -c{conns}`, keep-alive "
    "(so the front spreads connections, not requests, over the replicas).",
    "- CPU/request: user + system CPU of all replica processes (or of the front) during the run, divided by the "
    "requests served.",
    "",
    f"Load average (1/5/15 min) at the start: {load_start}; at the end: {load_end}.",
    "",
    "| replicas | req/s | p50 ms | p99 ms | errors | replicas' CPU µs/req | front CPU µs/req |",
    "|---:|---:|---:|---:|---:|---:|---:|",
]
for n in sorted(by):
    rs = by[n]
    med = lambda k: statistics.median(float(r[k]) for r in rs)
    lines.append(f"| {n} | {med('requests_per_second'):.0f} | {med('p50_ms'):.2f} | {med('p99_ms'):.2f} | "
                 f"{sum(int(r['errors']) for r in rs)} | {med('replica_cpu_us_per_request'):.1f} | "
                 f"{med('front_cpu_us_per_request'):.1f} |")
open(os.path.join(out, "README.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
