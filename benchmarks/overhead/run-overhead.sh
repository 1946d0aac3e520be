#!/usr/bin/env bash
# Proxy overhead: wrk against one static-file node directly and through Loadwise L7, Loadwise L4,
# HAProxy and NGINX, each proxy on one worker thread, all on 127.0.0.1. Runs the targets in turn,
# RUNS times, and writes the medians to benchmarks/results/proxy-overhead/.
#
#   benchmarks/overhead/run-overhead.sh            # 5 runs x 10 s, 2 wrk threads, 50 connections
#   RUNS=3 DURATION=5s benchmarks/overhead/run-overhead.sh
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/benchmarks/results/proxy-overhead"
RUNS="${RUNS:-5}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-5s}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-50}"
TARGETS="${TARGETS:-direct loadwise-l7 loadwise-l4 haproxy nginx}"

"$ROOT/.ci/install-deps" wrk haproxy nginx curl
export PATH="$PATH:/usr/sbin"

WORK="$(mktemp -d /tmp/loadwise-overhead.XXXXXX)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_port() {
  for _ in $(seq 1 600); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing listens on port $1" >&2
  return 1
}

# --- the node: nginx serving one small static file -------------------------------------------------
NODE_PORT="$(free_port)"
mkdir -p "$WORK/www" "$WORK/node"
head -c 1024 /dev/urandom | base64 -w 76 | head -c 1024 > "$WORK/www/index.html"
chmod 755 "$WORK" "$WORK/www"; chmod 644 "$WORK/www/index.html" # nginx workers run as nobody under root
cat > "$WORK/node/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/node/nginx.pid;
error_log $WORK/node/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$NODE_PORT backlog=4096;
    root $WORK/www;
  }
}
CONF
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

# --- the proxies -----------------------------------------------------------------------------------
declare -A PORT
PORT[direct]="$NODE_PORT"

if [[ " $TARGETS " == *" loadwise-"* ]]; then
  # One reactor run: the policies module resolves to its classes; dispatcher is built last, so its
  # class path is the one left in cp.txt.
  (cd "$ROOT" && mvn -B -q -pl dispatcher -am test-compile dependency:build-classpath -DskipTests \
      -Dmdep.outputFile="$WORK/cp.txt" -Dmdep.includeScope=test)
  CP="$ROOT/dispatcher/target/classes:$ROOT/dispatcher/target/test-classes:$ROOT/policies/target/classes:$(cat "$WORK/cp.txt")"
  JAVA_OPTS=(-Xms512m -Xmx512m -XX:+UseParallelGC -Dio.netty.leakDetection.level=disabled
             -Dlogback.configurationFile="$HERE/logback-bench.xml")
  for mode in l7 l4; do
    [[ " $TARGETS " == *" loadwise-$mode "* ]] || continue
    port="$(free_port)"
    kind=http; [ "$mode" = l4 ] && kind=tcp
    java "${JAVA_OPTS[@]}" -cp "$CP" io.loadwise.dispatcher.http.bench.OverheadMain "$kind" \
        "127.0.0.1:$port" "127.0.0.1:$NODE_PORT" 1 > "$WORK/loadwise-$mode.log" 2>&1 &
    PIDS+=($!)
    if ! wait_port "$port"; then cat "$WORK/loadwise-$mode.log" >&2; exit 1; fi
    PORT[loadwise-$mode]="$port"
  done
fi

if [[ " $TARGETS " == *" haproxy "* ]]; then
  port="$(free_port)"
  cat > "$WORK/haproxy.cfg" <<CONF
global
  nbthread 1
  maxconn 4096
defaults
  mode http
  option http-keep-alive
  option forwardfor
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend web
  bind 127.0.0.1:$port
  default_backend nodes
backend nodes
  balance roundrobin
  server node1 127.0.0.1:$NODE_PORT
CONF
  haproxy -f "$WORK/haproxy.cfg" -db > "$WORK/haproxy.log" 2>&1 &
  PIDS+=($!)
  wait_port "$port"
  PORT[haproxy]="$port"
fi

if [[ " $TARGETS " == *" nginx "* ]]; then
  port="$(free_port)"
  mkdir -p "$WORK/proxy"
  cat > "$WORK/proxy/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/proxy/nginx.pid;
error_log $WORK/proxy/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  upstream nodes {
    server 127.0.0.1:$NODE_PORT;
    keepalive 256;
  }
  server {
    listen 127.0.0.1:$port backlog=4096;
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
  nginx -c "$WORK/proxy/nginx.conf" -p "$WORK/proxy" &
  PIDS+=($!)
  wait_port "$port"
  PORT[nginx]="$port"
fi

# --- measure ---------------------------------------------------------------------------------------
mkdir -p "$OUT"
RAW="$OUT/runs.csv"
echo "target,run,requests_per_s,p50_ms,p99_ms" > "$RAW"

to_ms() { # wrk prints 812.00us, 1.52ms, 2.01s
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'
}

measure() { # target run
  local out
  out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "http://127.0.0.1:${PORT[$1]}/index.html")"
  if echo "$out" | grep -q "Non-2xx\|Socket errors"; then
    echo "$out" >&2
    echo "errors against $1: results would be meaningless" >&2
    exit 1
  fi
  local rps p50 p99
  rps="$(echo "$out" | awk '/Requests\/sec/ { print $2 }')"
  p50="$(to_ms "$(echo "$out" | awk '$1 == "50%" { print $2 }')")"
  p99="$(to_ms "$(echo "$out" | awk '$1 == "99%" { print $2 }')")"
  echo "$1,$2,$rps,$p50,$p99" >> "$RAW"
  echo "  $1 run $2: $rps req/s, p50 $p50 ms, p99 $p99 ms"
}

for target in $TARGETS; do
  echo "warming up $target"
  curl -sf -o /dev/null "http://127.0.0.1:${PORT[$target]}/index.html" || { echo "$target does not serve the file" >&2; exit 1; }
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "http://127.0.0.1:${PORT[$target]}/index.html" > /dev/null
done
for run in $(seq 1 "$RUNS"); do
  echo "run $run of $RUNS"
  for target in $TARGETS; do
    measure "$target" "$run"
  done
done

# --- summarise -------------------------------------------------------------------------------------
python3 - "$RAW" "$OUT" "$RUNS" "$DURATION" "$THREADS" "$CONNECTIONS" <<'PY'
import csv, statistics, sys, platform, subprocess, datetime
raw, out, runs, duration, threads, conns = sys.argv[1:]
rows = list(csv.DictReader(open(raw)))
targets = []
for r in rows:
    if r["target"] not in targets:
        targets.append(r["target"])
def med(t, k):
    return statistics.median(float(r[k]) for r in rows if r["target"] == t)
summary = {t: (med(t, "requests_per_s"), med(t, "p50_ms"), med(t, "p99_ms")) for t in targets}
direct = summary.get("direct")
haproxy = summary.get("haproxy")
with open(f"{out}/summary.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["target", "requests_per_s", "p50_ms", "p99_ms", "rps_vs_direct", "rps_vs_haproxy", "p99_vs_haproxy"])
    for t in targets:
        rps, p50, p99 = summary[t]
        w.writerow([t, f"{rps:.0f}", f"{p50:.3f}", f"{p99:.3f}",
                    f"{rps / direct[0]:.3f}" if direct else "",
                    f"{rps / haproxy[0]:.3f}" if haproxy else "",
                    f"{p99 / haproxy[2]:.3f}" if haproxy else ""])
def version(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stderr.strip().splitlines()[0] or ""
    except Exception:
        return "?"
with open(f"{out}/README.md", "w") as f:
    f.write("# Proxy overhead\n\n")
    f.write(f"Measured {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC by `benchmarks/overhead/run-overhead.sh` "
            f"on {platform.node()} ({platform.machine()}, {subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()} cores).\n\n")
    f.write(f"wrk {threads} threads, {conns} keep-alive connections, {duration} per run, {runs} runs per target "
            "(targets interleaved run by run), medians below. The node is one NGINX worker serving a 1 KB static "
            "file; every proxy runs one worker thread on 127.0.0.1 (HAProxy `nbthread 1`, NGINX "
            "`worker_processes 1`, Loadwise `Transport(1)`), keep-alive to the node, X-Forwarded-For added.\n\n")
    f.write("| target | req/s | p50 ms | p99 ms | req/s vs direct | req/s vs HAProxy | p99 vs HAProxy |\n")
    f.write("|---|---:|---:|---:|---:|---:|---:|\n")
    for t in targets:
        rps, p50, p99 = summary[t]
        f.write(f"| {t} | {rps:.0f} | {p50:.3f} | {p99:.3f} | "
                + (f"{rps / direct[0]:.2f}" if direct else "") + " | "
                + (f"{rps / haproxy[0]:.2f}" if haproxy else "") + " | "
                + (f"{p99 / haproxy[2]:.2f}" if haproxy else "") + " |\n")
    f.write("\nRaw runs: `runs.csv`; medians and ratios: `summary.csv`.\n")
    f.write(f"\nVersions: {version(['haproxy', '-v']) or subprocess.run(['haproxy','-v'],capture_output=True,text=True).stdout.splitlines()[0]}; "
            f"{version(['nginx', '-v'])}; {version(['java', '-version'])}.\n")
print(open(f"{out}/README.md").read())
PY
