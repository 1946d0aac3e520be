#!/usr/bin/env bash
# What tracing at sampleRatio 1.0 costs the dispatcher, per request, in figures a shared machine does not skew
# much: CPU time per thread group (utime+stime from /proc/<pid>/task, so other processes' load does not enter),
# bytes allocated per thread (JFR jdk.ThreadAllocationStatistics) and OTLP bytes posted per request (the sink's
# access log: NGINX answering 200 to every POST /v1/traces, as in ../2026-11-28-tracing-profile).
#
#   cost-run.sh JAR LABEL [MEASURE_SECONDS] [TRACING: on|off]     # prints one block of figures
#
# One worker thread, one NGINX node serving 1 KB, wrk -t1 -c50: WARM (25) s of warm-up, then the measured window.
# JAVA_OPTS go to the dispatcher's JVM (e.g. a JFR recording for shares.py).
set -euo pipefail
JAR="$(realpath "$1")"; LABEL="$2"; SECS="${3:-15}"; TRACING="${4:-on}"
W="$(mktemp -d /tmp/tracing-cost.XXXX)"
cd "$W" # the dispatcher keeps its metric store in ./data
B=$((20000 + RANDOM % 12000)) # below the ephemeral ports wrk and the dispatcher connect from
NODE=$B; SINK=$((B + 1)); LISTEN=$((B + 2)); ADMIN=$((B + 3))
mkdir -p "$W/www" "$W/ngx"
head -c 1024 /dev/zero | tr '\0' 'x' > "$W/www/1k.html"
cat > "$W/ngx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $W/ngx/nginx.pid;
error_log $W/ngx/error.log warn;
events { worker_connections 4096; }
http { access_log off; keepalive_requests 1000000; client_body_buffer_size 4m; client_max_body_size 64m;
  log_format len '\$request_length \$content_length';
  server { listen 127.0.0.1:$NODE backlog=4096; root $W/www; }
  server { listen 127.0.0.1:$SINK; access_log $W/ngx/sink.log len; location = /v1/traces { return 200; } } }
CONF
/usr/sbin/nginx -c "$W/ngx/nginx.conf" -p "$W/ngx" &
NGX=$!
TR=""
[ "$TRACING" = on ] && TR="\"tracing\": { \"otlpEndpoint\": \"http://127.0.0.1:$SINK\", \"sampleRatio\": 1.0 },"
cat > "$W/lw.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$ADMIN", "token": "tracing-benchmark-token-0123456789" }, $TR
  "clusters": [ { "name": "bench", "mode": "http", "listen": "127.0.0.1:$LISTEN", "policy": "round-robin",
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE" } ] } ] }
JSON
cat > "$W/alloc.jfc" <<JFC
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ThreadAllocationStatistics"><setting name="enabled">true</setting><setting name="period">1 s</setting></event>
</configuration>
JFC
LOADWISE_ADMIN_PASSWORD=tracing-benchmark-password java ${JAVA_OPTS:-} -jar "$JAR" run --config "$W/lw.json" --worker-threads 1 \
  > "$W/lw.log" 2>&1 &
LW=$!
for i in $(seq 1 150); do curl -s -o /dev/null "http://127.0.0.1:$LISTEN/1k.html" && break; sleep 0.2; done
wrk -t1 -c50 -d${WARM:-25}s "http://127.0.0.1:$LISTEN/1k.html" > "$W/warm.txt"
ticks() { for t in /proc/$LW/task/*; do printf '%s\t%s\n' "$(cat "$t/comm")" "$(awk '{print $14+$15}' "$t/stat")"; done; }
ticks > "$W/cpu0"
: > "$W/ngx/sink.log.mark"; L0=$(wc -l < "$W/ngx/sink.log" 2>/dev/null || echo 0)
jcmd $LW JFR.start name=alloc settings="$W/alloc.jfc" > /dev/null
wrk -t1 -c50 -d${SECS}s "http://127.0.0.1:$LISTEN/1k.html" > "$W/wrk.txt"
ticks > "$W/cpu1"
jcmd $LW JFR.stop name=alloc filename="$W/alloc.jfr" > /dev/null
sleep 2 # the last batch reaches the sink
tail -n +$((L0 + 1)) "$W/ngx/sink.log" > "$W/sink-window.log" || true
curl -s -H 'Authorization: Bearer tracing-benchmark-token-0123456789' "http://127.0.0.1:$ADMIN/api/tracing" > "$W/tracing.json" || true
kill $LW; wait $LW || true
kill $NGX; wait $NGX || true
jfr print --json --events jdk.ThreadAllocationStatistics "$W/alloc.jfr" > "$W/alloc.json"
python3 - "$W" "$LABEL" <<'PY'
import json, re, sys, collections
w, label = sys.argv[1], sys.argv[2]
reqs = int(re.search(r'(\d+) requests in', open(f'{w}/wrk.txt').read()).group(1))
def load(f):
    d = collections.Counter()
    for line in open(f):
        name, t = line.rstrip('\n').split('\t'); d[name] += int(t)
    return d
c0, c1 = load(f'{w}/cpu0'), load(f'{w}/cpu1')
def group(n):
    if n.startswith('BatchSpan'): return 'batch processor'
    if n.startswith('HttpClient') or 'Sender' in n or n.startswith('OkHttp'): return 'http sender'
    if n.startswith('multiThreadIo'): return 'event loop'
    if n.startswith('jdkhttp'): return 'http sender'
    if n.startswith('C1 Comp') or n.startswith('C2 Comp'): return 'jit'
    if n.startswith('GC ') or n.startswith('G1 ') or n.startswith('VM Thread'): return 'gc, vm'
    return 'other'
g = collections.Counter()
for n in c1: g[group(n)] += c1[n] - c0.get(n, 0)
total = sum(v for k, v in g.items() if k != 'jit') # the JIT's catching up is not the steady state's
print(f'== {label}: {reqs} requests in the window ({open(w + "/wrk.txt").read().split("Requests/sec:")[1].split()[0]} req/s, shared machine)')
print(f'cpu per request, JIT threads left out: {total * 10_000_000 / reqs:.0f} ns  (10 ms ticks: {total})')
for k, v in sorted(g.items(), key=lambda x: -x[1]):
    print(f'  {k:32s} {v * 10_000_000 / reqs:8.0f} ns/req  {100 * v / max(total, 1):5.1f} %')
ev = json.load(open(f'{w}/alloc.json'))['recording']['events']
by = collections.defaultdict(list)
for e in ev:
    t = e['values'].get('thread') or {}
    by[t.get('javaName') or t.get('osName') or '?'].append(e['values']['allocated'])
print('allocated per request (JFR ThreadAllocationStatistics, window):')
for name, vals in sorted(by.items(), key=lambda x: -(max(x[1]) - min(x[1]))):
    d = max(vals) - min(vals)
    if d / reqs >= 1:
        print(f'  {name:40s} {d / reqs:8.0f} B/req')
posts = [l.split() for l in open(f'{w}/sink-window.log') if l.strip()]
body = sum(int(p[1]) for p in posts if p[1] != '-')
print(f'OTLP posts in window: {len(posts)}, content-length total {body} B, {body / reqs:.0f} B/req')
print('tracing:', open(f'{w}/tracing.json').read().strip())
PY
echo "(work dir $W)"
