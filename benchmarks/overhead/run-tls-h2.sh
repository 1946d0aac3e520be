#!/usr/bin/env bash
# TLS termination overhead of the shipped product, beside HAProxy and NGINX with the same certificate in the
# same run: HTTPS/1.1 (wrk over TLS, keep-alive) and HTTP/2 over TLS (h2load, ALPN h2), 1 KB and 16 KB
# static files from one NGINX node over clear HTTP/1.1. One thread / worker per proxy; every cell runs RUNS
# times, targets shuffled in each round. Results: benchmarks/results/<date>-overhead/tls-h2/ (README.md,
# summary.csv, runs.csv).
#
#   benchmarks/overhead/run-overhead.sh --only tls-h2      # the same as running this script
#   ./loadwise bench overhead --only tls-h2
#   RUNS=1 DURATION=5 ROWS="h2-1k" benchmarks/overhead/run-tls-h2.sh
#   RUNS=1 DURATION=5 ROWS="h2-1k" TARGETS="haproxy-h2n-1t loadwise-h2n-1t" benchmarks/overhead/run-tls-h2.sh
#
# Environment: RUNS (3), DURATION (seconds, 10), WARMUP (seconds per client and target, 15: the JIT), CONNECTIONS (50), STREAMS (h2load -m,
# 10), ROWS ("https1-1k https1-16k h2-1k h2-16k"), TARGETS ("haproxy-1t nginx-1w loadwise-l7-1t haproxy-h2n-1t
# loadwise-h2n-1t"; the *-h2n-1t targets speak HTTP/2 to the node too: the "h2 to h2c nodes" rows), OUT, JAR,
# LOADWISE_JAVA_OPTS (JVM options for Loadwise; empty by default: what ships).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/$(date -u +%F)-overhead/tls-h2}"
RUNS="${RUNS:-3}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-15}"
CONNECTIONS="${CONNECTIONS:-50}"
STREAMS="${STREAMS:-10}"
ROWS="${ROWS:-https1-1k https1-16k h2-1k h2-16k}"
TARGETS="${TARGETS:-haproxy-1t nginx-1w loadwise-l7-1t haproxy-h2n-1t loadwise-h2n-1t}"
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
LOADWISE_JAVA_OPTS="${LOADWISE_JAVA_OPTS:-}"

"$ROOT/.ci/install-deps" wrk haproxy nginx nghttp2-client openssl curl python3
export PATH="$PATH:/usr/sbin"
if [ ! -f "$JAR" ]; then
  echo "building the jar (mvn -B -q package -DskipTests)"
  (cd "$ROOT" && mvn -B -q -pl admin-console -am package -DskipTests -Dfuzz.skip=true)
fi

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-tls-h2

# --- one certificate for all three: EC P-256, as docs/tls.md makes it ---------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/server.key" \
    -out "$WORK/server.pem" -days 2 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
cat "$WORK/server.pem" "$WORK/server.key" > "$WORK/haproxy.pem" # HAProxy wants both in one file
chmod 644 "$WORK"/*.pem "$WORK/server.key"

# --- the node: one NGINX worker serving static files over clear HTTP/1.1 --------------------------------
NODE_PORT="$(free_port)"
NODE_H2C_PORT="$(free_port)" # the same files over HTTP/2 in clear text (prior knowledge), for the *-h2n-1t targets
mkdir -p "$WORK/www" "$WORK/node"
for size in 1k 16k; do
  bytes=$(( ${size%k} * 1024 ))
  head -c "$bytes" /dev/urandom | base64 -w 76 > "$WORK/www/$size.b64"
  head -c "$bytes" "$WORK/www/$size.b64" > "$WORK/www/$size.html" && rm "$WORK/www/$size.b64"
done
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
  server { listen 127.0.0.1:$NODE_H2C_PORT http2 backlog=4096; root $WORK/www; }
}
CONF
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

declare -A PID PORT
start_loadwise() { # target [h2c]: HTTP/2 to the node's h2c port
  local target=$1 port admin dir node="127.0.0.1:$NODE_PORT" protocol=""
  if [ "${2:-}" = h2c ]; then node="127.0.0.1:$NODE_H2C_PORT"; protocol='"nodeProtocol": "h2c",'; fi
  port="$(free_port)"; admin="$(free_port)"; dir="$WORK/$target"
  mkdir -p "$dir"
  cat > "$dir/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$admin", "token": "overhead-benchmark-token-0123456789" },
  "clusters": [ { "name": "bench", "mode": "http", "listen": "127.0.0.1:$port", "policy": "round-robin",
      "tls": { "certificate": "$WORK/server.pem", "key": "$WORK/server.key" },
      $protocol "nodes": [ { "name": "node1", "address": "$node" } ] } ] }
JSON
  # shellcheck disable=SC2086 # LOADWISE_JAVA_OPTS is a list of options
  (cd "$dir" && LOADWISE_ADMIN_PASSWORD=overhead-benchmark-password \
      exec java $LOADWISE_JAVA_OPTS -jar "$JAR" run --config "$dir/loadwise.json" --worker-threads 1) \
      > "$dir/loadwise.log" 2>&1 &
  PIDS+=($!); PID[$target]=$!
  if ! wait_port "$port"; then cat "$dir/loadwise.log" >&2; exit 1; fi
  PORT[$target]="$port"
}
start_haproxy() { # target [h2c]: HTTP/2 to the node's h2c port
  local target=$1 port server="127.0.0.1:$NODE_PORT"
  if [ "${2:-}" = h2c ]; then server="127.0.0.1:$NODE_H2C_PORT proto h2"; fi
  port="$(free_port)"
  cat > "$WORK/$target.cfg" <<CONF
global
  nbthread 1
  maxconn 4096
  ssl-default-bind-options ssl-min-ver TLSv1.2
defaults
  mode http
  option http-keep-alive
  option forwardfor
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend web
  bind 127.0.0.1:$port ssl crt $WORK/haproxy.pem alpn h2,http/1.1
  default_backend nodes
backend nodes
  balance roundrobin
  server node1 $server
CONF
  haproxy -f "$WORK/$target.cfg" -db > "$WORK/$target.log" 2>&1 &
  PIDS+=($!); PID[$target]=$!
  if ! wait_port "$port"; then cat "$WORK/$target.log" >&2; exit 1; fi
  PORT[$target]="$port"
}
start_nginx() { # target
  local target=$1 port
  port="$(free_port)"
  mkdir -p "$WORK/$target"
  cat > "$WORK/$target/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/$target/nginx.pid;
error_log $WORK/$target/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  upstream nodes { server 127.0.0.1:$NODE_PORT; keepalive 256; }
  server {
    listen 127.0.0.1:$port ssl http2 backlog=4096;
    ssl_certificate $WORK/server.pem;
    ssl_certificate_key $WORK/server.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    location / {
      proxy_pass http://nodes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_buffering off;
    }
  }
}
CONF
  nginx -c "$WORK/$target/nginx.conf" -p "$WORK/$target" &
  PIDS+=($!); PID[$target]=$!
  wait_port "$port"
  PORT[$target]="$port"
}

for target in $TARGETS; do
  case "$target" in
    haproxy-1t) start_haproxy "$target" ;;
    nginx-1w) start_nginx "$target" ;;
    loadwise-l7-1t) start_loadwise "$target" ;;
    haproxy-h2n-1t) start_haproxy "$target" h2c ;;
    loadwise-h2n-1t) start_loadwise "$target" h2c ;;
    *) echo "unknown target $target (known: haproxy-1t nginx-1w loadwise-l7-1t haproxy-h2n-1t loadwise-h2n-1t)" >&2
       exit 2 ;;
  esac
  echo "started $target on port ${PORT[$target]} (TLS)"
done

# --- measure -----------------------------------------------------------------------------------------
mkdir -p "$OUT"
RAW="$OUT/runs.csv"
echo "round,row,target,requests_per_s,p50_ms,p99_ms,cpu_us_per_request,load1,failed" > "$RAW"
CLK_TCK="$(getconf CLK_TCK)"
cpu_ticks() { # user + system ticks of a process and its children (nginx workers), all threads
  local total=0 p
  for p in "$1" $(pgrep -P "$1" || true); do
    [ -r "/proc/$p/stat" ] || continue
    total=$((total + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$p/stat")))
  done
  echo "$total"
}
to_ms() { # wrk prints 812.00us, 1.52ms, 2.01s
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'
}

# one load run; prints "requests rps p50_ms p99_ms failed"
load_https1() { # port size
  local out
  out="$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency "https://127.0.0.1:$1/$2.html")"
  if echo "$out" | grep -q "Non-2xx" || echo "$out" | grep "Socket errors" | grep -Eq "connect [1-9]|read [1-9]|write [1-9]"; then
    echo "$out" >&2; echo "errors: results would be meaningless" >&2; return 1
  fi
  echo "$(echo "$out" | awk '/requests in/ { print $1 }') $(echo "$out" | awk '/Requests\/sec/ { print $2 }')" \
       "$(to_ms "$(echo "$out" | awk '$1 == "50%" { print $2 }')") $(to_ms "$(echo "$out" | awk '$1 == "99%" { print $2 }')") 0"
}
load_h2() { # port size
  local out log="$WORK/h2load.log"
  rm -f "$log"
  out="$(h2load -t1 -c"$CONNECTIONS" -m"$STREAMS" -D "$DURATION" --log-file="$log" "https://127.0.0.1:$1/$2.html")"
  if ! echo "$out" | grep -qi "application protocol: h2"; then
    echo "$out" >&2; echo "h2 was not negotiated" >&2; return 1
  fi
  local done failed rps
  done="$(echo "$out" | awk '/^requests:/ { print $8 }')"
  failed="$(echo "$out" | awk '/^requests:/ { print $10 + $12 }')"
  rps="$(echo "$out" | awk '/^finished in/ { print $4 }')"
  if [ "${failed:-0}" -gt 0 ] || ! echo "$out" | grep -Eq "status codes: [0-9]+ 2xx, 0 3xx, 0 4xx, 0 5xx"; then
    echo "$out" >&2; echo "errors: results would be meaningless" >&2; return 1
  fi
  python3 - "$log" "$done" "$rps" <<'PY'
import sys
durations = sorted(int(line.split("\t")[2]) for line in open(sys.argv[1]) if line.count("\t") >= 2)
pct = lambda p: durations[min(len(durations) - 1, int(p / 100 * len(durations)))] / 1000
print(sys.argv[2], sys.argv[3], f"{pct(50):.3f}", f"{pct(99):.3f}", 0)
PY
}

measure() { # round row target
  local round=$1 row=$2 target=$3 before after result
  local proto=${row%-*} size=${row#*-}
  before="$(cpu_ticks "${PID[$target]}")"
  result="$("load_$proto" "${PORT[$target]}" "$size")" || { echo "errors against $target ($row)" >&2; exit 1; }
  after="$(cpu_ticks "${PID[$target]}")"
  read -r requests rps p50 p99 failed <<< "$result"
  local cpu load
  cpu="$(awk -v t=$((after - before)) -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }')"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  echo "$round,$row,$target,$rps,$p50,$p99,$cpu,$load,$failed" >> "$RAW"
  printf '  round %s %-10s %-16s %9s req/s  p50 %8s ms  p99 %8s ms  %7s us CPU/request\n' \
      "$round" "$row" "$target" "$rps" "$p50" "$p99" "$cpu"
}

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
STARTED="$(date -u '+%Y-%m-%d %H:%M')"
for target in $TARGETS; do
  echo "warming up $target"
  for size in 1k 16k; do
    curl -sfk -o /dev/null "https://127.0.0.1:${PORT[$target]}/$size.html" || { echo "$target does not serve $size.html over https" >&2; exit 1; }
    [ "$(curl -sk --http2 -o /dev/null -w '%{http_version}' "https://127.0.0.1:${PORT[$target]}/$size.html")" = 2 ] \
        || { echo "$target does not speak h2" >&2; exit 1; }
  done
  wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" "https://127.0.0.1:${PORT[$target]}/1k.html" > /dev/null
  h2load -t1 -c"$CONNECTIONS" -m"$STREAMS" -D "$WARMUP" "https://127.0.0.1:${PORT[$target]}/1k.html" > /dev/null
done
echo "measuring $(( RUNS * $(echo "$ROWS" | wc -w) * $(echo "$TARGETS" | wc -w) )) runs of ${DURATION}s"
for round in $(seq 1 "$RUNS"); do
  for row in $ROWS; do
    for target in $(echo "$TARGETS" | tr ' ' '\n' | shuf); do
      measure "$round" "$row" "$target"
    done
  done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OUT" "$RUNS" "$DURATION" "$STARTED" "$LOAD_BEFORE" "$LOAD_AFTER" "$CONNECTIONS" "$STREAMS" \
    "$LOADWISE_JAVA_OPTS" <<'PY'
import csv, os, platform, statistics, subprocess, sys
out, runs, duration, started, load_before, load_after, conns, streams, java_opts = sys.argv[1:10]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
order = []
for r in rows:
    if r["row"] not in order:
        order.append(r["row"])
targets = [t for t in ["haproxy-1t", "nginx-1w", "loadwise-l7-1t", "haproxy-h2n-1t", "loadwise-h2n-1t"]
           if any(r["target"] == t for r in rows)]
base = lambda t: "haproxy-h2n-1t" if t.endswith("h2n-1t") else "haproxy-1t" # h2 to the node: against HAProxy's h2
FIELDS = ["requests_per_s", "p50_ms", "p99_ms", "cpu_us_per_request"]
def med(row, target, field):
    v = [float(r[field]) for r in rows if r["row"] == row and r["target"] == target and r[field]]
    return statistics.median(v) if v else None
def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else ""
with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["row", "target"] + FIELDS + ["rps_vs_haproxy", "p99_vs_haproxy", "cpu_vs_haproxy"])
    table = []
    for row in order:
        for t in targets:
            m = {x: med(row, t, x) for x in FIELDS}
            b = {x: med(row, base(t), x) for x in FIELDS}
            r = [ratio(m["requests_per_s"], b["requests_per_s"]), ratio(m["p99_ms"], b["p99_ms"]),
                 ratio(m["cpu_us_per_request"], b["cpu_us_per_request"])]
            w.writerow([row, t] + [f"{m[x]:.3f}" if m[x] is not None else "" for x in FIELDS] + r)
            table.append((row, t, m, r))
def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, shell=True).stdout.strip().splitlines()[0]
    except Exception:
        return "?"
lines = [
    "# TLS termination overhead: HTTPS/1.1 and h2, Loadwise beside HAProxy and NGINX",
    "",
    f"Run {started} UTC by `benchmarks/overhead/run-tls-h2.sh` (`run-overhead.sh --only tls-h2`): {runs} rounds x "
    f"{duration} s per cell, targets shuffled in each round; medians below, every run in `runs.csv`.",
    "",
    "- One certificate (EC P-256, self-signed) for all three; the clients (wrk, h2load: OpenSSL 3) offer TLS 1.3, "
    "which every proxy here accepts.",
    "- `https1`: `wrk -t1 -c" + conns + "` over TLS, keep-alive (HTTP/1.1). `h2`: `h2load -t1 -c" + conns + " -m" + streams
    + "` (ALPN h2); p50 and p99 from h2load's per-request log.",
    "- The node is one NGINX worker serving static files over clear HTTP/1.1; each proxy has 1 thread / worker. "
    "The `*-h2n-1t` targets (the \"h2 to h2c nodes\" rows) reach the same NGINX over HTTP/2 in clear text (prior "
    "knowledge): HAProxy `server ... proto h2`, Loadwise `nodeProtocol: h2c`; their ratios are against "
    "`haproxy-h2n-1t`.",
    "- Loadwise is the shipped jar (`java -jar admin-console/target/loadwise.jar run --worker-threads 1`, console on, "
    "JVM options: " + (java_opts or "none") + "); HAProxy `nbthread 1`, `bind ... ssl alpn h2,http/1.1`; NGINX "
    "`worker_processes 1`, `listen ... ssl http2`.",
    "- CPU µs/request: user + system time of the proxy process (all threads, workers) over the run / requests.",
    f"- Machine: {platform.machine()}, {os.cpu_count()} cores, shared: load average {load_before} before and {load_after} "
    "after. **The machine was busy** (other builds and tests ran beside this benchmark, and wrk/h2load, the node and "
    "the proxy share the 2 cores), so absolute figures are low and noisy; compare the ratios and CPU/request.",
    f"- Versions: {version('haproxy -v')}; {version('nginx -v 2>&1')}; {version('h2load --version')}; "
    f"{version('wrk -v 2>&1')}; {version('java -version 2>&1')}.",
    "",
    "| row | target | req/s | p50 ms | p99 ms | CPU µs/req | req/s vs HAProxy | p99 vs HAProxy | CPU vs HAProxy |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
]
for row, t, m, r in table:
    fmt = lambda x, d: f"{x:.{d}f}" if x is not None else ""
    lines.append(f"| {row} | {t} | {fmt(m['requests_per_s'], 0)} | {fmt(m['p50_ms'], 2)} | {fmt(m['p99_ms'], 2)} | "
                 f"{fmt(m['cpu_us_per_request'], 1)} | {r[0]} | {r[1]} | {r[2]} |")
open(os.path.join(out, "README.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
