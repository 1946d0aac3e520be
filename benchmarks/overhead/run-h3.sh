#!/usr/bin/env bash
# HTTP/3 overhead of the shipped product (docs/http3.md): Loadwise with http3 on a TLS listener, in front of one
# NGINX node serving a 1 KB static file over clear HTTP/1.1. Rows: h3 (aioquic, h3load.py) and, for the same
# proxy in the same run, h2 through h2load over TCP. HAProxy gets an h3 row only when its build
# has QUIC (`haproxy -vv` shows +QUIC); Debian 12's 2.6 does not, and the README says so. One worker thread.
# Results: benchmarks/results/<date>-overhead/h3/ (README.md, runs.csv).
#
#   benchmarks/overhead/run-overhead.sh --only h3
#   ./loadwise bench overhead --only h3
#   RUNS=1 DURATION=5 WARMUP=3 benchmarks/overhead/run-h3.sh      # a smoke run
#
# Environment: RUNS (3), DURATION (seconds, 10), WARMUP (seconds, 10), CONNECTIONS (h3: 4, h2: 50), STREAMS
# (per connection, 10), OUT, JAR, LOADWISE_JAVA_OPTS.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/$(date -u +%F)-overhead/h3}"
RUNS="${RUNS:-3}"
DURATION="${DURATION:-10}"
WARMUP="${WARMUP:-10}"
H3_CONNECTIONS="${CONNECTIONS:-4}"
H2_CONNECTIONS="${CONNECTIONS:-50}"
STREAMS="${STREAMS:-10}"
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
LOADWISE_JAVA_OPTS="${LOADWISE_JAVA_OPTS:-}"
AIOQUIC=1.7.2

"$ROOT/.ci/install-deps" haproxy nginx nghttp2-client openssl python3 python3-venv
export PATH="$PATH:/usr/sbin"
if [ ! -f "$JAR" ]; then
  echo "building the jar (mvn -B -q package -DskipTests)"
  (cd "$ROOT" && mvn -B -q -pl admin-console -am package -DskipTests -Dfuzz.skip=true)
fi
# the same pinned aioquic venv as the dispatcher's HTTP/3 tests (Http3EndToEndTest)
VENV="$ROOT/dispatcher/target/aioquic-$AIOQUIC"
if ! "$VENV/bin/python" -c 'import aioquic' 2>/dev/null; then
  python3 -m venv --clear "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "aioquic==$AIOQUIC"
fi

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-h3

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/server.key" \
    -out "$WORK/server.pem" -days 2 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
chmod 644 "$WORK"/server.*

NODE_PORT="$(free_port)"
mkdir -p "$WORK/www" "$WORK/node"
head -c 768 /dev/urandom | base64 -w 76 | head -c 1024 > "$WORK/www/1k.html"
chmod 755 "$WORK" "$WORK/www"; chmod 644 "$WORK"/www/*
cat > "$WORK/node/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/node/nginx.pid;
error_log $WORK/node/error.log warn;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000; server { listen 127.0.0.1:$NODE_PORT backlog=4096; root $WORK/www; } }
CONF
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

PORT="$(free_port)"; ADMIN="$(free_port)"
cat > "$WORK/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$ADMIN", "token": "overhead-benchmark-token-0123456789" },
  "clusters": [ { "name": "bench", "mode": "http", "listen": "127.0.0.1:$PORT", "policy": "round-robin",
      "tls": { "certificate": "$WORK/server.pem", "key": "$WORK/server.key" }, "http3": { "enabled": true },
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] } ] }
JSON
# shellcheck disable=SC2086 # LOADWISE_JAVA_OPTS is a list of options
(cd "$WORK" && LOADWISE_ADMIN_PASSWORD=overhead-benchmark-password \
    exec java $LOADWISE_JAVA_OPTS -jar "$JAR" run --config "$WORK/loadwise.json" --worker-threads 1) \
    > "$WORK/loadwise.log" 2>&1 &
PIDS+=($!); LOADWISE_PID=$!
if ! wait_port "$PORT"; then cat "$WORK/loadwise.log" >&2; exit 1; fi
# the QUIC side binds after the TCP port answers: wait for its log line (10 s at most)
for _ in $(seq 1 100); do grep -q "HTTP/3 (QUIC) listening" "$WORK/loadwise.log" && break; sleep 0.1; done
grep -q "HTTP/3 (QUIC) listening" "$WORK/loadwise.log" || { cat "$WORK/loadwise.log" >&2; exit 1; }
if haproxy -vv 2>/dev/null | grep -q '+QUIC'; then HAPROXY_QUIC=yes; else HAPROXY_QUIC=no; fi

CLK_TCK="$(getconf CLK_TCK)"
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
load_h3() { # duration -> "requests rps p50 p99 failed"
  "$VENV/bin/python" "$HERE/h3load.py" 127.0.0.1 "$PORT" /1k.html "$WORK/server.pem" "$H3_CONNECTIONS" "$STREAMS" \
      "$1" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["requests"], r["requests_per_s"], r["p50_ms"], r["p99_ms"], r["failed"])'
}
load_h2() { # duration
  local out log="$WORK/h2load.log"
  rm -f "$log"
  out="$(h2load -t1 -c"$H2_CONNECTIONS" -m"$STREAMS" -D "$1" --log-file="$log" "https://127.0.0.1:$PORT/1k.html")"
  echo "$out" | grep -qi "application protocol: h2" || { echo "$out" >&2; return 1; }
  python3 - "$log" "$(echo "$out" | awk '/^requests:/ { print $8 }')" "$(echo "$out" | awk '/^finished in/ { print $4 }')" \
      "$(echo "$out" | awk '/^requests:/ { print $10 + $12 }')" <<'PY'
import sys
durations = sorted(int(line.split("\t")[2]) for line in open(sys.argv[1]) if line.count("\t") >= 2)
pct = lambda p: durations[min(len(durations) - 1, int(p / 100 * len(durations)))] / 1000
print(sys.argv[2], sys.argv[3], f"{pct(50):.3f}", f"{pct(99):.3f}", sys.argv[4])
PY
}

echo "warming up"
load_h3 "$WARMUP" > /dev/null
h2load -t1 -c"$H2_CONNECTIONS" -m"$STREAMS" -D "$WARMUP" "https://127.0.0.1:$PORT/1k.html" > /dev/null
mkdir -p "$OUT"
RAW="$OUT/runs.csv"
echo "round,row,target,requests_per_s,p50_ms,p99_ms,cpu_us_per_request,load1,failed" > "$RAW"
STARTED="$(date -u '+%Y-%m-%d %H:%M')"
for round in $(seq 1 "$RUNS"); do
  for row in $(printf 'h3-1k\nh2-1k\n' | shuf); do
    before="$(cpu_ticks "$LOADWISE_PID")"
    read -r requests rps p50 p99 failed <<< "$("load_${row%-*}" "$DURATION")"
    after="$(cpu_ticks "$LOADWISE_PID")"
    cpu="$(awk -v t=$((after - before)) -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }')"
    echo "$round,$row,loadwise-l7-1t,$rps,$p50,$p99,$cpu,$(cut -d' ' -f1 /proc/loadavg),$failed" >> "$RAW"
    printf '  round %s %-6s %9s req/s  p50 %8s ms  p99 %8s ms  %7s us CPU/request  failed %s\n' \
        "$round" "$row" "$rps" "$p50" "$p99" "$cpu" "$failed"
  done
done

{
  echo "# Overhead: HTTP/3 (h3) beside h2, Loadwise only"
  echo
  echo "Run $STARTED UTC by \`benchmarks/overhead/run-h3.sh\`: $RUNS rounds x ${DURATION} s, one Loadwise worker"
  echo "thread, TLS listener with \`http3\`, one NGINX node serving a 1 KB file over HTTP/1.1."
  echo
  echo "- h3: aioquic $AIOQUIC (\`h3load.py\`), $H3_CONNECTIONS connections x $STREAMS streams. aioquic is pure Python:"
  echo "  the client saturates its core first, so this row bounds the client, not the proxy; read the CPU"
  echo "  per request of Loadwise (from /proc) for the proxy's cost."
  echo "- h2: h2load, $H2_CONNECTIONS connections x $STREAMS streams, the same listener over TCP; p50 and p99 from"
  echo "  h2load's per-request log."
  echo "- HAProxy: $(haproxy -v 2>/dev/null | head -1 | cut -d' ' -f1-3); QUIC in its build: $HAPROXY_QUIC."
  [ "$HAPROXY_QUIC" = no ] && echo "  Without QUIC it has no h3 row to stand beside Loadwise's."
  echo "- The machine is shared: figures are a smoke run's, not a benchmark's."
  echo
  echo "| round | row | req/s | p50 ms | p99 ms | Loadwise CPU us/request | failed |"
  echo "|---|---|---|---|---|---|---|"
  tail -n +2 "$RAW" | awk -F, '{ printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $4, $5, $6, $7, $9 }'
} > "$OUT/README.md"
echo "results in $OUT"
