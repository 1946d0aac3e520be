#!/usr/bin/env bash
# Proxy overhead of the shipped product: wrk against one static-file node directly and through Loadwise
# (java -jar admin-console/target/loadwise.jar run, as an operator runs it: console and metric stores on,
# default JVM options), the dispatcher alone (dispatcher/target/loadwise-dispatcher.jar), HAProxy (http and
# tcp mode) and NGINX, each at 1 and 2 threads, all on 127.0.0.1. Every size x connection count x target
# cell runs RUNS times, targets shuffled within each round so that a noisy neighbour hurts them alike.
# Then 10,000 idle keep-alive client connections are opened against Loadwise L7 and its RSS is recorded.
# Results: benchmarks/results/<date>-overhead/proxy/ (README.md, summary.csv, runs.csv, idle.csv).
# CPU per request is the proxy's utime + stime over the run, also reported apart (user space and kernel).
#
#   benchmarks/overhead/run-overhead.sh                  # 3 rounds x 10 s, sizes 1k 16k 256k, -c50 and -c200
#   RUNS=1 DURATION=5s SIZES=1k CONNECTIONS=50 TARGETS="direct haproxy-1t loadwise-l7-1t" benchmarks/overhead/run-overhead.sh
#   TARGETS="haproxy-1t loadwise-l7-1t loadwise-l7-uring-1t" SIZES=1k CONNECTIONS=50 benchmarks/overhead/run-overhead.sh
#   TARGETS="haproxy-tcp-1t loadwise-l4-1t loadwise-l4-uring-1t" ...     # the same at layer 4
#   TARGETS="loadwise-l7-1t loadwise-routes-1t haproxy-1t haproxy-routes-1t" SIZES=1k CONNECTIONS=50 ...
#   TARGETS="loadwise-routes10-1t loadwise-routes1000-1t" SIZES=1k CONNECTIONS=50 IDLE_CONNECTIONS=0 ...
#     # issue 35's scale row (bench scale): a listener of 10 routes against one of 1,000, the request on the last
#   TARGETS="loadwise-l7-relay-1t loadwise-l7-pp-1t loadwise-l4-relay-1t loadwise-l4-pp-1t" IDLE_CONNECTIONS=0 ...
#     # PROXY v2 (issue 34): behind an HAProxy mode-tcp relay with send-proxy-v2, against the same relay without
#                                                        # a 20-route table, a header rewrite and a rate limit
#                                                        # that never triggers, against the plain rows
#                                                        # epoll (auto) against io_uring (run --transport io_uring)
#   benchmarks/overhead/run-overhead.sh --only tls-h2    # HTTPS/1.1 and h2 over TLS instead (run-tls-h2.sh)
#   benchmarks/overhead/run-overhead.sh --only h3        # HTTP/3 beside h2 (run-h3.sh)
#
# Environment: RUNS, DURATION, WARMUP, SIZES, CONNECTIONS, TARGETS, ACCESS_LOG (json, combined, ...: the
#   dispatcher rows write that access log), IDLE_CONNECTIONS (0 skips the idle test),
# IDLE_SETTLE (seconds the idle connections are held before RSS is read again; default 75: G1's periodic
# collection, which the dispatcher sets to 30 s, fires 30-60 s after the last collection),
# OUT (results folder), JAR (the loadwise.jar to measure), LOADWISE_JAVA_OPTS (JVM options for Loadwise;
# empty by default: what ships).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
case "${1:-} ${2:-}" in
  " ") ;;
  "--only proxy") ;;
  "--only tls-h2") exec bash "$HERE/run-tls-h2.sh" ;; # HTTPS/1.1 and h2 rows: results in <date>-overhead/tls-h2/
  "--only h3") exec bash "$HERE/run-h3.sh" ;; # HTTP/3 (aioquic) beside h2: results in <date>-overhead/h3/
  *) echo "usage: run-overhead.sh [--only proxy|tls-h2|h3]" >&2; exit 2 ;;
esac
OUT="${OUT:-$ROOT/benchmarks/results/$(date -u +%F)-overhead/proxy}"
RUNS="${RUNS:-3}"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-30s}" # per target; on 2 saturated cores the JIT needs more than 10 s to settle
SIZES="${SIZES:-1k 16k 256k}"
CONNECTIONS="${CONNECTIONS:-50 200}"
ALL_TARGETS="direct haproxy-1t haproxy-2t nginx-1w nginx-2w loadwise-l7-1t loadwise-l7-2t loadwise-l7-uring-1t dispatcher-l7-1t loadwise-routes-1t haproxy-routes-1t haproxy-tcp-1t haproxy-tcp-2t loadwise-l4-1t loadwise-l4-2t loadwise-l4-uring-1t"
TARGETS="${TARGETS:-$ALL_TARGETS}"
IDLE_CONNECTIONS="${IDLE_CONNECTIONS:-10000}"
IDLE_SETTLE="${IDLE_SETTLE:-75}" # seconds the idle connections are held before the second RSS reading
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
DISPATCHER_JAR="${DISPATCHER_JAR:-$ROOT/dispatcher/target/loadwise-dispatcher.jar}"
LOADWISE_JAVA_OPTS="${LOADWISE_JAVA_OPTS:-}"

"$ROOT/.ci/install-deps" wrk haproxy nginx curl python3
export PATH="$PATH:/usr/sbin"

if [[ " $TARGETS " == *" loadwise-"* || " $TARGETS " == *" dispatcher-"* ]]; then
  if [ ! -f "$JAR" ] || [ ! -f "$DISPATCHER_JAR" ]; then
    echo "building the jars (mvn -B -q package -DskipTests)"
    (cd "$ROOT" && mvn -B -q -pl admin-console -am package -DskipTests -Dfuzz.skip=true)
  fi
fi

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-overhead

# --- the node: one NGINX worker serving static files of each size ------------------------------------
NODE_PORT="$(free_port)"
mkdir -p "$WORK/www" "$WORK/node"
for size in $SIZES; do
  bytes=$(( ${size%k} * 1024 ))
  head -c "$bytes" /dev/urandom | base64 -w 76 > "$WORK/www/$size.b64" # no pipe into head: SIGPIPE under pipefail
  head -c "$bytes" "$WORK/www/$size.b64" > "$WORK/www/$size.html" && rm "$WORK/www/$size.b64"
done
chmod 755 "$WORK" "$WORK/www"; chmod 644 "$WORK"/www/*  # nginx workers run as nobody under root
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
declare -A PID PORT
PID[direct]=$!
PORT[direct]="$NODE_PORT"
wait_port "$NODE_PORT"

# --- the proxies -------------------------------------------------------------------------------------
# HAProxy needs two descriptors per connection and refuses to start when maxconn does not fit the limit
HAPROXY_MAXCONN=$(( IDLE_CONNECTIONS + 1000 ))
fd_fit=$(( ($(ulimit -Hn) - 200) / 2 ))
[ "$HAPROXY_MAXCONN" -gt "$fd_fit" ] && HAPROXY_MAXCONN=$fd_fit
threads_of() { echo "$1" | sed -E 's/.*-([0-9])[tw]$/\1/'; }

# Runs the jar on "$dir/loadwise.json" (its log beside it), waits for its port, records its PID and port.
launch_loadwise() { # target jar dir port [run options...]
  local target=$1 jar=$2 dir=$3 port=$4
  shift 4
  # shellcheck disable=SC2086 # LOADWISE_JAVA_OPTS is a list of options
  (cd "$dir" && LOADWISE_ADMIN_PASSWORD=overhead-benchmark-password \
      exec java $LOADWISE_JAVA_OPTS -jar "$jar" run --config "$dir/loadwise.json" "$@") > "$dir/loadwise.log" 2>&1 &
  PIDS+=($!)
  PID[$target]=$!
  if ! wait_port "$port"; then cat "$dir/loadwise.log" >&2; exit 1; fi
  PORT[$target]="$port"
}

start_loadwise() { # target jar mode threads [transport] [proxy-protocol]
  local target=$1 jar=$2 mode=$3 threads=$4 port admin dir
  local transport=() # --transport only when given: the other rows run what ships (auto)
  [ -n "${5:-}" ] && transport=(--transport "$5")
  local pp="" # the PROXY rows: the header required from the relay on 127.0.0.1
  [ -n "${6:-}" ] && pp="\"proxyProtocol\": { \"accept\": \"v2\", \"trustedSources\": [\"127.0.0.1/32\"] },"
  port="$(free_port)"; admin="$(free_port)"; dir="$WORK/$target"
  mkdir -p "$dir"
  local logging="" # ACCESS_LOG=json (or another format): the dispatcher writes its access log, to measure its cost
  [ -n "${ACCESS_LOG:-}" ] && logging="\"logging\": { \"accessLog\": { \"file\": \"$dir/access.log\", \"format\": \"$ACCESS_LOG\" } },"
  cat > "$dir/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$admin", "token": "overhead-benchmark-token-0123456789" }, $logging
  "maxClientConnections": $(( IDLE_CONNECTIONS + 1000 )),
  "clusters": [ { "name": "bench", "mode": "$mode", "listen": "127.0.0.1:$port", "policy": "round-robin", $pp
      "maxClientConnections": $(( IDLE_CONNECTIONS + 1000 )),
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] } ] }
JSON
  launch_loadwise "$target" "$jar" "$dir" "$port" --worker-threads "$threads" "${transport[@]}"
}

# The front door's row (issue 30): one listener with 20 routes (19 for other hosts and paths, then the one the
# benchmark's requests take), a request header set and a per-client rate limit far above any rate reached here.
start_loadwise_routes() { # target jar threads
  local target=$1 jar=$2 threads=$3 port admin dir routes="" i
  port="$(free_port)"; admin="$(free_port)"; dir="$WORK/$target"
  mkdir -p "$dir"
  for i in $(seq 1 19); do
    routes+="{ \"match\": { \"host\": \"app$i.example\", \"pathPrefix\": \"/p$i\" }, \"cluster\": \"bench\" },"
  done
  cat > "$dir/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$admin", "token": "overhead-benchmark-token-0123456789" },
  "maxClientConnections": $(( IDLE_CONNECTIONS + 1000 )),
  "clusters": [ { "name": "bench", "mode": "http", "policy": "round-robin",
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] } ],
  "listeners": [ { "name": "edge", "listen": "127.0.0.1:$port", "maxClientConnections": $(( IDLE_CONNECTIONS + 1000 )),
      "routes": [ $routes
        { "match": { "pathPrefix": "/" }, "cluster": "bench", "requestHeaders": { "set": { "x-env": "bench" } },
          "rateLimit": "never" } ] } ],
  "rateLimits": { "never": { "key": "clientIp", "requestsPerSecond": 1000000, "burst": 10000000 } } }
JSON
  launch_loadwise "$target" "$jar" "$dir" "$port" --worker-threads "$threads"
}

# The scale rows (issue 35): loadwise-routes<N>-<T>t, a listener of N routes whose last one every request takes
# (benchmarks/scale/scale_config.py, which bench scale uses too). Not in ALL_TARGETS: bench scale runs them.
start_loadwise_route_table() { # target jar threads
  local target=$1 jar=$2 threads=$3 port admin dir count
  count="$(echo "$target" | sed -E 's/^loadwise-routes([0-9]+)-.*/\1/')"
  port="$(free_port)"; admin="$(free_port)"; dir="$WORK/$target"
  mkdir -p "$dir"
  python3 "$ROOT/benchmarks/scale/scale_config.py" routes "$count" --admin "$admin" --listen "$port" \
      --node "127.0.0.1:$NODE_PORT" --max-clients $(( IDLE_CONNECTIONS + 1000 )) > "$dir/loadwise.json"
  launch_loadwise "$target" "$jar" "$dir" "$port" --worker-threads "$threads"
}

start_haproxy() { # target mode threads
  local target=$1 mode=$2 threads=$3 port
  port="$(free_port)"
  local extra="option http-keep-alive
  option forwardfor"
  [ "$mode" = tcp ] && extra=""
  cat > "$WORK/$target.cfg" <<CONF
global
  nbthread $threads
  maxconn $HAPROXY_MAXCONN
defaults
  mode $mode
  $extra
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend web
  bind 127.0.0.1:$port
$(haproxy_routes "$target")
  default_backend nodes
backend nodes
  balance roundrobin
  server node1 127.0.0.1:$NODE_PORT
CONF
  haproxy -f "$WORK/$target.cfg" -db > "$WORK/$target.log" 2>&1 &
  PIDS+=($!)
  PID[$target]=$!
  if ! wait_port "$port"; then cat "$WORK/$target.log" >&2; exit 1; fi
  PORT[$target]="$port"
}

# The PROXY rows (issue 34): a HAProxy mode-tcp relay (its own process, not measured) in front of a Loadwise; with
# send-proxy-v2 for the -pp targets, which then require the header. wrk hits the relay; CPU is Loadwise's.
start_relay() { # target header(send-proxy-v2 or "")
  local target=$1 header=$2 port
  port="$(free_port)"
  cat > "$WORK/$target-relay.cfg" <<CONF
global
  nbthread 1
  maxconn $HAPROXY_MAXCONN
defaults
  mode tcp
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend relay
  bind 127.0.0.1:$port
  default_backend loadwise
backend loadwise
  server lw 127.0.0.1:${PORT[$target]} $header
CONF
  haproxy -f "$WORK/$target-relay.cfg" -db > "$WORK/$target-relay.log" 2>&1 &
  PIDS+=($!)
  if ! wait_port "$port"; then cat "$WORK/$target-relay.log" >&2; exit 1; fi
  PORT[$target]="$port" # the clients go through the relay; PID[$target] stays Loadwise's
}

haproxy_routes() { # target: the routes row's ACLs, header rewrite and never-triggering rate limit
  [[ $1 == haproxy-routes-* ]] || return 0
  local i
  echo "  stick-table type ip size 100k expire 30s store http_req_rate(1s)"
  echo "  http-request track-sc0 src"
  echo "  http-request deny deny_status 429 if { sc_http_req_rate(0) gt 1000000 }"
  for i in $(seq 1 19); do
    echo "  acl host$i hdr(host) -i app$i.example"
    echo "  acl path$i path_beg /p$i"
    echo "  use_backend nodes if host$i path$i"
  done
  echo "  http-request set-header x-env bench"
}

start_nginx() { # target workers
  local target=$1 workers=$2 port
  port="$(free_port)"
  mkdir -p "$WORK/$target"
  cat > "$WORK/$target/nginx.conf" <<CONF
worker_processes $workers;
daemon off;
pid $WORK/$target/nginx.pid;
error_log $WORK/$target/error.log warn;
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
  nginx -c "$WORK/$target/nginx.conf" -p "$WORK/$target" &
  PIDS+=($!)
  PID[$target]=$!
  wait_port "$port"
  PORT[$target]="$port"
}

for target in $TARGETS; do
  [ "$target" = direct ] && continue
  n="$(threads_of "$target")"
  case "$target" in
    haproxy-tcp-*) start_haproxy "$target" tcp "$n" ;;
    haproxy-*) start_haproxy "$target" http "$n" ;; # haproxy-routes-*: with the routes row's ACLs
    nginx-*) start_nginx "$target" "$n" ;;
    loadwise-routes-*) start_loadwise_routes "$target" "$JAR" "$n" ;;
    loadwise-routes[0-9]*-*) start_loadwise_route_table "$target" "$JAR" "$n" ;; # bench scale: 10 against 1,000
    loadwise-l7-relay-*) start_loadwise "$target" "$JAR" http "$n" && start_relay "$target" "" ;;
    loadwise-l7-pp-*) start_loadwise "$target" "$JAR" http "$n" "" v2 && start_relay "$target" send-proxy-v2 ;;
    loadwise-l4-relay-*) start_loadwise "$target" "$JAR" tcp "$n" && start_relay "$target" "" ;;
    loadwise-l4-pp-*) start_loadwise "$target" "$JAR" tcp "$n" "" v2 && start_relay "$target" send-proxy-v2 ;;
    loadwise-l7-uring-*) start_loadwise "$target" "$JAR" http "$n" io_uring ;; # fails the start without io_uring
    loadwise-l7-*) start_loadwise "$target" "$JAR" http "$n" ;;
    loadwise-l4-uring-*) start_loadwise "$target" "$JAR" tcp "$n" io_uring ;;
    loadwise-l4-*) start_loadwise "$target" "$JAR" tcp "$n" ;;
    dispatcher-l7-*) start_loadwise "$target" "$DISPATCHER_JAR" http "$n" ;;
    *) echo "unknown target $target (known: $ALL_TARGETS)" >&2; exit 2 ;;
  esac
  echo "started $target on port ${PORT[$target]}"
done

# --- measure -----------------------------------------------------------------------------------------
mkdir -p "$OUT"
RAW="$OUT/runs.csv"
echo "round,size,connections,target,requests_per_s,p50_ms,p99_ms,p999_ms,cpu_us_per_request,user_us_per_request,sys_us_per_request,load1,timeouts" > "$RAW"
CLK_TCK="$(getconf CLK_TCK)"

cpu_ticks() { # "user system" ticks of a process and its children (nginx workers), all threads
  local user=0 sys=0 p u k
  for p in "$1" $(pgrep -P "$1" || true); do
    [ -r "/proc/$p/stat" ] || continue
    # fields 14 and 15 of /proc/<pid>/stat (utime, stime), counted after the ") " that ends the command name
    read -r u k < <(awk '{ sub(/^.*\) /, ""); print $12, $13 }' "/proc/$p/stat") || continue
    user=$((user + u)); sys=$((sys + k))
  done
  echo "$user $sys"
}

to_ms() { # wrk prints 812.00us, 1.52ms, 2.01s
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'
}

# wrk's --latency prints 50/75/90/99 %; this script adds 99.9 % from the same histogram
cat > "$WORK/percentiles.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("P999 %d\n", latency:percentile(99.9)))
end
LUA

measure() { # round size connections target
  local round=$1 size=$2 conns=$3 target=$4 out user_before sys_before user_after sys_after
  read -r user_before sys_before < <(cpu_ticks "${PID[$target]}")
  out="$(wrk -t1 -c"$conns" -d"$DURATION" --latency -s "$WORK/percentiles.lua" "http://127.0.0.1:${PORT[$target]}/$size.html")"
  read -r user_after sys_after < <(cpu_ticks "${PID[$target]}")
  # a wrong answer or a broken connection makes the run meaningless; a request slower than wrk's 2 s
  # timeout (an overloaded machine) is counted instead, and the latency percentiles already show it
  if echo "$out" | grep -q "Non-2xx" || echo "$out" | grep "Socket errors" | grep -Eq "connect [1-9]|read [1-9]|write [1-9]"; then
    echo "$out" >&2
    echo "errors against $target: results would be meaningless" >&2
    exit 1
  fi
  local timeouts
  timeouts="$(echo "$out" | awk '/Socket errors/ { for (i = 1; i <= NF; i++) if ($i == "timeout") print $(i + 1) }')"
  local rps p50 p99 p999 requests cpu user sys load
  rps="$(echo "$out" | awk '/Requests\/sec/ { print $2 }')"
  requests="$(echo "$out" | awk '/requests in/ { print $1 }')"
  per_request() { awk -v t="$1" -v hz="$CLK_TCK" -v n="$requests" 'BEGIN { printf "%.2f", t / hz * 1e6 / n }'; }
  user="$(per_request $((user_after - user_before)))"
  sys="$(per_request $((sys_after - sys_before)))"
  cpu="$(per_request $((user_after - user_before + sys_after - sys_before)))"
  p50="$(to_ms "$(echo "$out" | awk '$1 == "50%" { print $2 }')")"
  p99="$(to_ms "$(echo "$out" | awk '$1 == "99%" { print $2 }')")"
  p999="$(echo "$out" | awk '/^P999/ { printf "%.3f", $2 / 1000 }')"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  echo "$round,$size,$conns,$target,$rps,$p50,$p99,$p999,$cpu,$user,$sys,$load,${timeouts:-0}" >> "$RAW"
  printf '  round %s %5s -c%-3s %-16s %9s req/s  p99 %8s ms  p99.9 %8s ms  %6s us CPU/request (user %s, sys %s)\n' \
      "$round" "$size" "$conns" "$target" "$rps" "$p99" "$p999" "$cpu" "$user" "$sys"
}

LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
STARTED="$(date -u '+%Y-%m-%d %H:%M')"
for target in $TARGETS; do
  echo "warming up $target"
  for size in $SIZES; do
    curl -sf -o /dev/null "http://127.0.0.1:${PORT[$target]}/$size.html" || { echo "$target does not serve $size.html" >&2; exit 1; }
  done
  wrk -t1 -c200 -d"$WARMUP" "http://127.0.0.1:${PORT[$target]}/$(echo "$SIZES" | cut -d' ' -f1).html" > /dev/null
done
cells=$(( RUNS * $(echo "$SIZES" | wc -w) * $(echo "$CONNECTIONS" | wc -w) * $(echo "$TARGETS" | wc -w) ))
echo "measuring $cells runs of $DURATION"
for round in $(seq 1 "$RUNS"); do
  for size in $SIZES; do
    for conns in $CONNECTIONS; do
      for target in $(echo "$TARGETS" | tr ' ' '\n' | shuf); do
        measure "$round" "$size" "$conns" "$target"
      done
    done
  done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

# --- idle keep-alive connections: RSS held per connection ------------------------------------------------
IDLE="$OUT/idle.csv"
echo "target,connections,rss_before_mb,rss_after_mb,kb_per_connection,rss_settled_mb,open_at_settled" > "$IDLE"
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
# client connections still established to a port: both proxies close idle ones after 30 s here (HAProxy's
# timeout client, Loadwise's idleTimeoutMs), so the settled reading is of connections gone, as this column says;
# bench scale holds them with an hour's timeouts instead
open_now() { ss -Htn state established "( sport = :$1 )" | wc -l; }
if [ "$IDLE_CONNECTIONS" -gt 0 ]; then
  # a fresh Loadwise too: the measured ones carry a heap grown by the benchmark's traffic
  start_loadwise loadwise-l7-fresh "$JAR" http 1
  sleep 5 # let start-up settle (console, stores) before the first reading
  for target in loadwise-l7-fresh loadwise-l7-1t haproxy-1t; do
    [[ " $TARGETS loadwise-l7-fresh " == *" $target "* ]] || continue
    count=$IDLE_CONNECTIONS
    if [[ $target == haproxy-* && $count -gt $(( HAPROXY_MAXCONN - 100 )) ]]; then
      count=$(( HAPROXY_MAXCONN - 100 )) # what its maxconn allows under this descriptor limit
    fi
    before="$(rss_kb "${PID[$target]}")"
    python3 "$HERE/idle_connections.py" "${PORT[$target]}" "$count" "$WORK/idle-$target.ready" &
    holder=$!
    for _ in $(seq 1 1200); do [ -f "$WORK/idle-$target.ready" ] && break; sleep 0.1; done
    [ -f "$WORK/idle-$target.ready" ] || { echo "the idle connections to $target did not open" >&2; kill $holder; exit 1; }
    sleep 2 # let the proxy settle (pool trims, GC) before reading its RSS
    after="$(rss_kb "${PID[$target]}")"
    echo "  idle: $target holds $count keep-alive connections in $((after / 1024)) MB RSS (was $((before / 1024)) MB);" \
        "reading again after ${IDLE_SETTLE}s of holding them"
    sleep "$IDLE_SETTLE" # a proxy holds idle connections for minutes: what does it keep once it is quiet?
    settled="$(rss_kb "${PID[$target]}")"
    still="$(open_now "${PORT[$target]}")"
    kill "$holder"; wait "$holder" 2>/dev/null || true
    awk -v t="$target" -v n="$count" -v b="$before" -v a="$after" -v s="$settled" -v o="$still" \
        'BEGIN { printf "%s,%d,%.1f,%.1f,%.2f,%.1f,%d\n", t, n, b / 1024, a / 1024, (a - b) / n, s / 1024, o }' >> "$IDLE"
    echo "  idle: $target: $((settled / 1024)) MB RSS after ${IDLE_SETTLE}s, $still of its $count connections still open"
  done
fi

python3 "$HERE/summarise.py" "$OUT" "$RUNS" "$DURATION" "$STARTED" "$LOAD_BEFORE" "$LOAD_AFTER" "$LOADWISE_JAVA_OPTS"
