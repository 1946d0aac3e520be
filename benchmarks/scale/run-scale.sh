#!/usr/bin/env bash
# Scale rows of issue 35 on the shipped jar (admin-console/target/loadwise.jar run) with real processes; run by
# `./loadwise bench scale`, which renders README.md, scale.csv and scale.json from what this script writes:
#   idle.csv     idle keep-alive connections held by Loadwise L7 and by HAProxy (same run, same NGINX node):
#                RSS before, once the last connection has its answer, and again after SETTLE seconds, with the
#                connections still established at each reading (ss), and why the count is what it is
#   cluster.csv  the dispatcher's heap after a full GC (jcmd GC.run, GC.heap_info) with SMALL_NODES and NODES
#                nodes in one cluster (the same process, reloaded), at NODES again HISTORY_WAIT s later (the
#                per-second metric history grows with uptime), and each timed reload (POST /api/reload
#                until GET /api/clusters/bench shows the new node count), toggling N <-> N - N/100 nodes
#   routes/      run-overhead.sh's loadwise-routes<SMALL_ROUTES>-1t and loadwise-routes<ROUTES>-1t rows (wrk)
#
#   benchmarks/scale/run-scale.sh
#   CONNECTIONS=20000 SETTLE=75 NODES=1000 ROWS="idle cluster" OUT=/tmp/scale benchmarks/scale/run-scale.sh
#
# Environment: OUT (required folder), JAR, ROWS (idle cluster routes), CONNECTIONS (100000), SETTLE (75),
# NODES (1000), SMALL_NODES (10), RELOADS (20, even), HISTORY_WAIT (60), ROUTES (1000), SMALL_ROUTES (10), ROUTE_RUNS (3),
# ROUTE_DURATION (10s), LOADWISE_JAVA_OPTS (JVM options of the dispatcher, e.g. "-XX:+UseSerialGC -Xmx128m": the
# idle row's memory with another heap setting; empty by default, the jar's defaults).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:?OUT: the results folder}"
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
ROWS="${ROWS:-idle cluster routes}"
CONNECTIONS="${CONNECTIONS:-100000}"
SETTLE="${SETTLE:-75}"
NODES="${NODES:-1000}"
SMALL_NODES="${SMALL_NODES:-10}"
RELOADS="${RELOADS:-20}"
HISTORY_WAIT="${HISTORY_WAIT:-60}" # seconds between the two heap readings at NODES nodes
ROUTES="${ROUTES:-1000}"
SMALL_ROUTES="${SMALL_ROUTES:-10}"
TOKEN="scale-benchmark-token-0123456789"
export PATH="$PATH:/usr/sbin"
for tool in haproxy nginx wrk jcmd python3 ss; do
  command -v "$tool" > /dev/null || { echo "$tool is not installed" >&2; exit 1; }
done
[ -f "$JAR" ] || { echo "$JAR does not exist: build it (mvn -B -q -DskipTests package)" >&2; exit 1; }

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-scale
mkdir -p "$OUT"
# every process started here inherits the highest descriptor limit this shell may set
HARD="$(ulimit -Hn)"
ulimit -n "$HARD"
echo "descriptor limit: $HARD (ulimit -Hn); the proxies and the client holders each get that much"

# --- the node: one NGINX worker serving 1k.html on NODE_PORT, and on 4 more ports on every loopback address
#     (the cluster row's 1,000 node addresses 127.0.0.<1..250>:<one of 4 ports>, all answering)
NODE_PORT="$(free_port)"
CLUSTER_PORTS=()
for _ in 1 2 3 4; do CLUSTER_PORTS+=("$(free_port)"); done
mkdir -p "$WORK/www" "$WORK/node"
head -c 1024 /dev/zero | tr '\0' 'x' > "$WORK/www/1k.html"
chmod 755 "$WORK" "$WORK/www"; chmod 644 "$WORK"/www/*
{
  echo "worker_processes 1; daemon off; pid $WORK/node/nginx.pid; error_log $WORK/node/error.log warn;"
  echo "worker_rlimit_nofile $HARD;"
  echo "events { worker_connections $(( HARD - 100 )); }"
  echo "http { access_log off; keepalive_requests 1000000; keepalive_timeout 600s;"
  echo "  server { listen 127.0.0.1:$NODE_PORT backlog=4096; root $WORK/www; }"
  for p in "${CLUSTER_PORTS[@]}"; do echo "  server { listen $p backlog=4096; root $WORK/www; }"; done
  echo "}"
} > "$WORK/node/nginx.conf"
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

start_loadwise() { # name config-file: sets LW_PID
  local dir="$WORK/$1"
  # shellcheck disable=SC2086 # LOADWISE_JAVA_OPTS is a list of options
  (cd "$dir" && LOADWISE_ADMIN_PASSWORD=scale-benchmark-password exec java ${LOADWISE_JAVA_OPTS:-} -jar "$JAR" run \
      --config "$2" --worker-threads 1) > "$dir/loadwise.log" 2>&1 &
  PIDS+=($!)
  LW_PID=$!
}

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
established() { ss -Htn state established "( sport = :$1 )" | wc -l; }

# --- idle keep-alive connections -------------------------------------------------------------------------
idle_row() {
  # Loadwise holds one descriptor per idle client connection (its node connections are pooled and shared);
  # HAProxy 2.6 reserves two per connection at start and refuses a maxconn that does not fit the limit
  local lw_cap=$(( HARD - 500 )) ha_maxconn=$(( (HARD - 200) / 2 )) ha_cap common why=""
  ha_cap=$(( ha_maxconn - 100 ))
  common=$CONNECTIONS
  if [ "$common" -gt "$ha_cap" ]; then
    common=$ha_cap; why="HAProxy's maxconn: 2 descriptors per connection under ulimit -Hn $HARD"
  fi
  if [ "$common" -gt "$lw_cap" ]; then
    common=$lw_cap; why="1 descriptor per connection under ulimit -Hn $HARD"
  fi
  local lw_count=$CONNECTIONS lw_why=""
  if [ "$lw_count" -gt "$lw_cap" ]; then lw_count=$lw_cap; lw_why="1 descriptor per connection under ulimit -Hn $HARD"; fi
  echo "idle: $CONNECTIONS connections asked; $common to both proxies${why:+ ($why)}, and $lw_count to Loadwise alone"

  local port ha_port lw_pid
  start_idle_loadwise idle-loadwise "$lw_count"
  port=$LW_PORT; lw_pid=$LW_PID

  ha_port="$(free_port)"
  cat > "$WORK/haproxy.cfg" <<CONF
global
  nbthread 1
  maxconn $ha_maxconn
defaults
  mode http
  option http-keep-alive
  option forwardfor
  timeout connect 2s
  timeout client 1h
  timeout http-keep-alive 1h
  timeout server 30s
frontend web
  bind 127.0.0.1:$ha_port
  default_backend nodes
backend nodes
  balance roundrobin
  server node1 127.0.0.1:$NODE_PORT
CONF
  haproxy -f "$WORK/haproxy.cfg" -db > "$WORK/haproxy.log" 2>&1 &
  PIDS+=($!)
  local ha_pid=$!
  wait_port "$ha_port" || { cat "$WORK/haproxy.log" >&2; exit 1; }
  sleep 5 # start-up settles (console, stores) before the first reading
  curl -sf -o /dev/null "http://127.0.0.1:$port/1k.html" && curl -sf -o /dev/null "http://127.0.0.1:$ha_port/1k.html"

  echo "proxy,pid,connections_asked,connections,limited_by,rss_start_mb,rss_answered_mb,established_answered,rss_settled_mb,established_settled,settle_s" > "$OUT/idle.csv"
  local runs=("loadwise:$lw_pid:$port:$common:$why" "haproxy:$ha_pid:$ha_port:$common:$why")
  local run name pid p count limit
  for run in "${runs[@]}"; do
    IFS=: read -r name pid p count limit <<< "$run"
    hold "$name" "$pid" "$p" "$count" "$limit"
  done
  if [ "$lw_count" -gt "$common" ]; then # as many as Loadwise alone can hold, on a fresh process again
    kill "$lw_pid"; wait "$lw_pid" 2>/dev/null || true
    start_idle_loadwise idle-loadwise-alone "$lw_count"
    sleep 5
    hold loadwise "$LW_PID" "$LW_PORT" "$lw_count" "$lw_why"
  fi
}

start_idle_loadwise() { # name max-connections: one node, a 1 h idle timeout; sets LW_PID and LW_PORT
  local admin
  mkdir -p "$WORK/$1"
  admin="$(free_port)"; LW_PORT="$(free_port)"
  python3 "$HERE/scale_config.py" nodes 1 --admin "$admin" --listen "$LW_PORT" --node-ports "$NODE_PORT" \
      --max-clients $(( $2 + 1000 )) --idle-timeout-ms 3600000 > "$WORK/$1/loadwise.json"
  start_loadwise "$1" "$WORK/$1/loadwise.json"
  wait_port "$LW_PORT" || { cat "$WORK/$1/loadwise.log" >&2; exit 1; }
}

hold() { # name pid port count limited-by
  local name=$1 pid=$2 port=$3 count=$4 limit=$5 per=19000 holders=() h n opened=0 start answered settled e1 e2
  start="$(rss_kb "$pid")"
  rm -f "$WORK"/ready-*
  # several holder processes when one's descriptor limit is too small; 4 source addresses each
  for (( h = 0; opened < count; h++ )); do
    n=$(( count - opened < per ? count - opened : per ))
    python3 "$ROOT/benchmarks/overhead/idle_connections.py" "$port" "$n" "$WORK/ready-$h" $(( 2 + h * 4 )) 4 &
    holders+=($!); opened=$(( opened + n ))
  done
  local deadline=$(( SECONDS + 600 ))
  for (( h = 0; h < ${#holders[@]}; h++ )); do
    while [ ! -f "$WORK/ready-$h" ]; do
      kill -0 "${holders[$h]}" 2>/dev/null || { echo "idle: a holder of $name connections failed" >&2; exit 1; }
      [ "$SECONDS" -lt "$deadline" ] || { echo "idle: $count connections to $name did not open in 600 s" >&2; exit 1; }
      sleep 0.2
    done
  done
  answered="$(rss_kb "$pid")"; e1="$(established "$port")"
  echo "  idle: $name holds $e1 connections in $((answered / 1024)) MB RSS (was $((start / 1024)) MB); again in ${SETTLE}s"
  sleep "$SETTLE" # a proxy holds idle connections for minutes: what does it keep once it is quiet?
  settled="$(rss_kb "$pid")"; e2="$(established "$port")"
  echo "  idle: $name holds $e2 connections in $((settled / 1024)) MB RSS after ${SETTLE}s"
  for h in "${holders[@]}"; do kill "$h"; wait "$h" 2>/dev/null || true; done
  awk -v n="$name" -v pid="$pid" -v asked="$CONNECTIONS" -v c="$count" -v l="$limit" -v s="$start" -v a="$answered" \
      -v e1="$e1" -v t="$settled" -v e2="$e2" -v settle="$SETTLE" \
      'BEGIN { printf "%s,%d,%d,%d,%s,%.1f,%.1f,%d,%.1f,%d,%d\n", n, pid, asked, c, l, s / 1024, a / 1024, e1, t / 1024, e2, settle }' \
      >> "$OUT/idle.csv"
  # wait until the proxy has closed them all before the next row
  for _ in $(seq 1 300); do [ "$(established "$port")" -le 1 ] && break; sleep 0.2; done
}

# --- a cluster of NODES nodes: heap per node and reload time -----------------------------------------------
heap_kb() { # pid: used heap after two full collections
  jcmd "$1" GC.run > /dev/null; jcmd "$1" GC.run > /dev/null
  jcmd "$1" GC.heap_info | sed -nE 's/.*heap +total [0-9]+K, used ([0-9]+)K.*/\1/p' | head -1
}

up_nodes() { # admin-port: nodes of cluster bench whose health checks say up
  curl -sf -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$1/api/clusters/bench" \
      | python3 -c 'import json,sys; n=json.load(sys.stdin)["nodes"]; print(sum(1 for x in n if (x.get("health") or {}).get("state") == "up"))'
}

cluster_row() {
  local admin port dir="$WORK/cluster" ports
  mkdir -p "$dir"
  admin="$(free_port)"; port="$(free_port)"
  ports="$(IFS=,; echo "${CLUSTER_PORTS[*]}")"
  gen() { python3 "$HERE/scale_config.py" nodes "$1" --admin "$admin" --listen "$port" --node-ports "$ports"; }
  gen "$SMALL_NODES" > "$dir/small.json"
  gen $(( SMALL_NODES - (SMALL_NODES / 100 > 1 ? SMALL_NODES / 100 : 1) )) > "$dir/small-b.json"
  gen "$NODES" > "$dir/large.json"
  gen $(( NODES - (NODES / 100 > 1 ? NODES / 100 : 1) )) > "$dir/large-b.json"
  cp "$dir/small.json" "$dir/loadwise.json"
  start_loadwise cluster "$dir/loadwise.json"
  local pid=$LW_PID
  wait_port "$port" || { cat "$dir/loadwise.log" >&2; exit 1; }
  echo "kind,nodes,value,unit" > "$OUT/cluster.csv"
  sleep 15 # start-up and the first health checks settle
  local heap
  heap="$(heap_kb "$pid")"
  echo "heap,$SMALL_NODES,$heap,KiB" >> "$OUT/cluster.csv"
  echo "  cluster: $SMALL_NODES nodes, heap after full GC $((heap / 1024)) MB; $RELOADS reloads $SMALL_NODES <-> fewer"
  python3 "$HERE/reload_timer.py" "$admin" "$TOKEN" "$dir/loadwise.json" "$dir/small.json" "$dir/small-b.json" "$RELOADS" \
      | awk -v n="$SMALL_NODES" '{ print "reload," n "," $2 ",ms" }' >> "$OUT/cluster.csv"
  python3 "$HERE/reload_timer.py" "$admin" "$TOKEN" "$dir/loadwise.json" "$dir/small.json" "$dir/large.json" 1 \
      | awk '{ print "grow," $1 "," $2 ",ms" }' >> "$OUT/cluster.csv"
  local grown=$SECONDS up=0
  for _ in $(seq 1 120); do # every node passes its health checks (rise 2, 10 s apart): about 20 s
    up="$(up_nodes "$admin")"
    [ "$up" -ge "$NODES" ] && break
    sleep 0.5
  done
  echo "all-up,$NODES,$(( SECONDS - grown )),s" >> "$OUT/cluster.csv"
  echo "  cluster: $up of $NODES nodes up $(( SECONDS - grown )) s after the reload that added them"
  heap="$(heap_kb "$pid")"
  echo "heap,$NODES,$heap,KiB" >> "$OUT/cluster.csv"
  jcmd "$pid" GC.class_histogram | head -25 > "$OUT/heap-histogram-$NODES-nodes.txt" # where the bytes per node go
  # the per-second metric history (MetricsHistory, an hour per node) fills as the dispatcher runs: read again
  sleep "$HISTORY_WAIT"
  echo "heap-later,$NODES,$(heap_kb "$pid"),KiB" >> "$OUT/cluster.csv"
  echo "heap-wait,$NODES,$HISTORY_WAIT,s" >> "$OUT/cluster.csv"
  echo "  cluster: $NODES nodes, heap after full GC $((heap / 1024)) MB, $HISTORY_WAIT s later" \
      "$(( $(tail -2 "$OUT/cluster.csv" | head -1 | cut -d, -f3) / 1024 )) MB; $RELOADS reloads $NODES <-> fewer"
  python3 "$HERE/reload_timer.py" "$admin" "$TOKEN" "$dir/loadwise.json" "$dir/large.json" "$dir/large-b.json" "$RELOADS" \
      | awk -v n="$NODES" '{ print "reload," n "," $2 ",ms" }' >> "$OUT/cluster.csv"
  up="$(up_nodes "$admin")" # a reload keeps the health of the nodes it does not change
  echo "up,$NODES,$up,nodes" >> "$OUT/cluster.csv"
  echo "  cluster: $up of $NODES nodes up right after the reloads"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

# --- routes: run-overhead.sh's rows with SMALL_ROUTES and ROUTES routes ------------------------------------
routes_row() {
  TARGETS="loadwise-routes$SMALL_ROUTES-1t loadwise-routes$ROUTES-1t" SIZES=1k CONNECTIONS=50 IDLE_CONNECTIONS=0 \
      RUNS="${ROUTE_RUNS:-3}" DURATION="${ROUTE_DURATION:-10s}" OUT="$OUT/routes" JAR="$JAR" \
      bash "$ROOT/benchmarks/overhead/run-overhead.sh"
}

for row in $ROWS; do
  case "$row" in
    idle) idle_row ;;
    cluster) cluster_row ;;
    routes) routes_row ;;
    *) echo "unknown row $row (known: idle cluster routes)" >&2; exit 2 ;;
  esac
done
echo "scale: rows $ROWS written to $OUT"
