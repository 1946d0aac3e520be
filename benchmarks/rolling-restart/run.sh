#!/usr/bin/env bash
# Rolling restart of three trade-app Tomcat nodes (sessions in memory, no replication) under a session
# workload, through the dispatcher: `loadwise rollout` with the session drain, then with today's
# "drain": true (--drain-mode immediate). Writes a table to $OUT.
#
#   mvn -B -q -o -DskipTests package -pl admin-console,benchmarks/node-launcher,node-agent/jakarta -am
#   benchmarks/rolling-restart/run.sh
#
# Then the same nodes behind HAProxy (when `haproxy` is on the PATH): cookie persistence (`cookie LWSRV insert`),
# and per node `set server trade/tN state drain` on the runtime API, HAPROXY_DRAIN_S seconds (HAProxy cannot
# tell when the sessions are gone), the same restart, `state ready` once the node answers.
#
# Environment: MODES ("sessions immediate haproxy"), USERS (30), THINK_MS (500), WARM_S (20), AFTER_S (20),
# DEADLINE_MS (180000), HAPROXY_DRAIN_S (30), OUT. A mode's row replaces its row of an earlier run in
# $OUT/runs.txt; the table holds every mode run so far.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/2026-11-28-rolling-restart}"
USERS="${USERS:-30}"; THINK_MS="${THINK_MS:-500}"; WARM_S="${WARM_S:-20}"; AFTER_S="${AFTER_S:-20}"
DEADLINE_MS="${DEADLINE_MS:-180000}"; HAPROXY_DRAIN_S="${HAPROXY_DRAIN_S:-30}"
MODES="${MODES:-sessions immediate haproxy}"
if [[ " $MODES " == *" haproxy "* ]]; then
  "$ROOT/.ci/install-deps" haproxy # the Debian package, as the overhead benchmark installs it
  export PATH="$PATH:/usr/sbin"
fi
LAUNCHER="$ROOT/benchmarks/node-launcher/target/loadwise-node-launcher.jar"
CONSOLE="$ROOT/admin-console/target/loadwise.jar"
AGENT="$(find "$ROOT/node-agent/jakarta/target" -maxdepth 1 -name 'loadwise-agent-jakarta-*.jar' ! -name '*-tests.jar' | head -n 1)"
for f in "$LAUNCHER" "$CONSOLE" "$AGENT"; do [[ -f "$f" ]] || { echo "missing $f: build first (see above)" >&2; exit 1; }; done
W="$(mktemp -d /tmp/rolling-restart.XXXXXX)"
mkdir -p "$OUT"
TOKEN="rolling-restart-token-$RANDOM$RANDOM"
PROXY_PORT=9190; ADMIN_PORT=8191; DB_PORT=9192; HAPROXY_PORT=9193; HAPROXY_API=9194; PORTS=(9181 9182 9183); NODES=(t1 t2 t3)
pids=()
cleanup() {
  for n in "${NODES[@]}"; do [[ -f "$W/$n.pid" ]] && kill "$(cat "$W/$n.pid")" 2>/dev/null || true; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

await_line() { # file pattern timeout_s
  local i
  for ((i = 0; i < $3 * 10; i++)); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "timed out waiting for '$2' in $1" >&2; tail -20 "$1" >&2; return 1
}

java -cp "$LAUNCHER" io.loadwise.node.DatabaseMain --port "$DB_PORT" --data-dir "$W/db" > "$W/db.out" 2>&1 &
pids+=($!)
await_line "$W/db.out" LOADWISE_DB_READY 60
DB="jdbc:h2:tcp://127.0.0.1:$DB_PORT/trade"

cat > "$W/start-node.sh" <<SCRIPT
#!/usr/bin/env bash
# start-node.sh NAME PORT: a trade-app node in the background, on a fresh work directory; its pid in $W/NAME.pid
rm -rf "$W/\$1"
nohup java -Xmx384m -jar "$LAUNCHER" --name "\$1" --port "\$2" --db-url "$DB" --agent-jar "$AGENT" \
    --work-dir "$W/\$1" > "$W/\$1.out" 2>&1 &
echo \$! > "$W/\$1.pid"
SCRIPT
cat > "$W/restart.sh" <<SCRIPT
#!/usr/bin/env bash
# The rollout's restart command: SIGTERM the node, wait until it is gone, start it again.
pid=\$(cat "$W/\$LOADWISE_NODE.pid")
kill "\$pid"
while [ -e /proc/\$pid ] && [ "\$(awk '{print \$3}' /proc/\$pid/stat 2>/dev/null)" != Z ]; do sleep 0.2; done
echo "\$(date -u +%T) restart \$LOADWISE_NODE" >> "$W/restarts.log"
bash "$W/start-node.sh" "\$LOADWISE_NODE" "\$LOADWISE_NODE_PORT"
SCRIPT
for i in 0 1 2; do bash "$W/start-node.sh" "${NODES[$i]}" "${PORTS[$i]}"; done
for n in "${NODES[@]}"; do await_line "$W/$n.out" LOADWISE_NODE_READY 180; done
curl -sf "http://127.0.0.1:${PORTS[0]}/trade/config?action=buildDB&users=500&quotes=100" > /dev/null

cat > "$W/loadwise.json" <<JSON
{"admin": {"listen": "127.0.0.1:$ADMIN_PORT", "token": "$TOKEN", "dataDir": "$W/admin"},
 "clusters": [{"name": "trade", "mode": "http", "listen": "127.0.0.1:$PROXY_PORT", "policy": "round-robin",
   "affinity": "cookie", "agentPath": "/trade/loadwise-agent/metrics", "agentPollIntervalMs": 1000,
   "nodes": [{"name": "t1", "address": "127.0.0.1:${PORTS[0]}", "route": "t1"},
             {"name": "t2", "address": "127.0.0.1:${PORTS[1]}", "route": "t2"},
             {"name": "t3", "address": "127.0.0.1:${PORTS[2]}", "route": "t3"}]}]}
JSON
java -Xmx256m -jar "$CONSOLE" run --config "$W/loadwise.json" > "$W/dispatcher.out" 2>&1 &
pids+=($!)
await_line "$W/dispatcher.out" "admin console listening" 60

haproxy_api() { # command: HAProxy's runtime API over TCP
  exec 3<>"/dev/tcp/127.0.0.1/$HAPROXY_API"
  echo "$1" >&3
  cat <&3
  exec 3<&-
}

haproxy_rollout() { # the operator's loop with HAProxy: drain, wait, restart, wait until it answers, ready
  local i n
  for i in 0 1 2; do
    n="${NODES[$i]}"
    echo "$(date -u +%T) $n: set server trade/$n state drain; waiting $HAPROXY_DRAIN_S s"
    haproxy_api "set server trade/$n state drain"
    sleep "$HAPROXY_DRAIN_S"
    LOADWISE_NODE="$n" LOADWISE_NODE_PORT="${PORTS[$i]}" bash "$W/restart.sh"
    until curl -sf -o /dev/null "http://127.0.0.1:${PORTS[$i]}/trade/loadwise-agent/metrics"; do sleep 0.5; done
    haproxy_api "set server trade/$n state ready"
    echo "$(date -u +%T) $n: restarted, state ready"
  done
}

run() { # mode
  local mode="$1" stop="$W/stop-$1" start end code port="$PROXY_PORT"
  [[ "$mode" == haproxy ]] && port="$HAPROXY_PORT"
  java "$ROOT/benchmarks/rolling-restart/SessionLoad.java" --url "http://127.0.0.1:$port" --users "$USERS" \
      --think-ms "$THINK_MS" --stop-file "$stop" > "$OUT/$mode-load.json" &
  local load=$!
  sleep "$WARM_S"
  start=$(date +%s)
  set +e
  if [[ "$mode" == haproxy ]]; then
    haproxy_rollout > "$OUT/$mode-rollout.log" 2>&1
  else
  LOADWISE_ADMIN_TOKEN="$TOKEN" java -jar "$CONSOLE" rollout --admin-url "http://127.0.0.1:$ADMIN_PORT" \
      --cluster trade --restart-command "bash $W/restart.sh" --drain-mode "$mode" \
      $([[ "$mode" == sessions ]] && echo --drain-deadline-ms "$DEADLINE_MS") \
      --state-file "$W/state-$mode.json" --node-timeout-ms 300000 --max-failure-percent 100 \
      > "$OUT/$mode-rollout.log" 2>&1
  fi
  code=$?
  set -e
  end=$(date +%s)
  sleep "$AFTER_S"
  touch "$stop"
  wait "$load"
  echo "$mode rollout exit $code in $((end - start)) s: $(cat "$OUT/$mode-load.json")"
  { grep -v "^$mode " "$OUT/runs.txt" 2>/dev/null || true; echo "$mode $code $((end - start))"; } > "$W/runs.new"
  mv "$W/runs.new" "$OUT/runs.txt"
}
for mode in $MODES; do
  [[ "$mode" == haproxy ]] || run "$mode"
done
if [[ " $MODES " == *" haproxy "* ]] && command -v haproxy > /dev/null; then
  cat > "$W/haproxy.cfg" <<CFG
global
  stats socket ipv4@127.0.0.1:$HAPROXY_API level admin
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend fe
  bind 127.0.0.1:$HAPROXY_PORT
  default_backend trade
backend trade
  balance roundrobin
  cookie LWSRV insert indirect nocache
  server t1 127.0.0.1:${PORTS[0]} cookie t1 check inter 1s
  server t2 127.0.0.1:${PORTS[1]} cookie t2 check inter 1s
  server t3 127.0.0.1:${PORTS[2]} cookie t3 check inter 1s
CFG
  haproxy -f "$W/haproxy.cfg" > "$W/haproxy.out" 2>&1 &
  pids+=($!)
  sleep 1
  run haproxy
fi

{
  echo "| drain | rollout exit | rollout s | requests | failed | users logged out | logins |"
  echo "|---|---|---|---|---|---|---|"
  while read -r mode code secs; do
    j="$OUT/$mode-load.json"
    val() { sed -E "s/.*\"$1\":([0-9.]+).*/\1/" "$j"; }
    echo "| $mode | $code | $secs | $(val requests) | $(val failed) | $(val loggedOut) | $(val logins) |"
  done < "$OUT/runs.txt"
} | tee "$OUT/table.md"
cp "$W/restarts.log" "$OUT/restarts-$(echo $MODES | tr ' ' '-').log"
echo "users $USERS, think $THINK_MS ms, warm-up $WARM_S s, after $AFTER_S s, session drain deadline $DEADLINE_MS ms," \
    "HAProxy drain wait $HAPROXY_DRAIN_S s" >> "$OUT/table.md"
