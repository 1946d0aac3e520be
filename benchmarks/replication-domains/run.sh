#!/usr/bin/env bash
# Replication domains (issue 32, item 5): four trade-app Tomcat nodes on loopback replicating their sessions in
# pairs, {n1,n2} and {n3,n4} (SimpleTcpCluster with static membership, DeltaManager: SessionReplication in the node
# launcher), behind the dispatcher with cookie affinity (JSESSIONID route). Under the 30-user session workload of
# the rolling-restart benchmark, n1 is killed with SIGKILL; the workload counts the users logged out. Once with
# "domain" set on the nodes (n1's users go to n2, which holds their sessions), once without (they go anywhere).
# Writes a table to $OUT.
#
#   mvn -B -q -o -DskipTests package -pl admin-console,benchmarks/node-launcher,node-agent/jakarta -am
#   benchmarks/replication-domains/run.sh
#
# Environment: MODES ("domains none"), USERS (30), THINK_MS (500), WARM_S (20), AFTER_S (30), OUT. A mode's row
# replaces its row of an earlier run in $OUT/runs.txt; the table holds every mode run so far.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/2026-11-28-replication-domains}"
USERS="${USERS:-30}"; THINK_MS="${THINK_MS:-500}"; WARM_S="${WARM_S:-20}"; AFTER_S="${AFTER_S:-30}"
MODES="${MODES:-domains none}"
LAUNCHER="$ROOT/benchmarks/node-launcher/target/loadwise-node-launcher.jar"
CONSOLE="$ROOT/admin-console/target/loadwise.jar"
AGENT="$(find "$ROOT/node-agent/jakarta/target" -maxdepth 1 -name 'loadwise-agent-jakarta-*.jar' ! -name '*-tests.jar' | head -n 1)"
for f in "$LAUNCHER" "$CONSOLE" "$AGENT"; do [[ -f "$f" ]] || { echo "missing $f: build first (see above)" >&2; exit 1; }; done
W="$(mktemp -d /tmp/replication-domains.XXXXXX)"
mkdir -p "$OUT"
TOKEN="replication-domains-token-$RANDOM$RANDOM"
PROXY_PORT=9290; ADMIN_PORT=8291; DB_PORT=9292
NODES=(n1 n2 n3 n4); PORTS=(9281 9282 9283 9284); TRIBES=(9381 9382 9383 9384); PARTNER=(1 0 3 2)
DOMAIN=(east east west west)
pids=()
stop_nodes() {
  local n
  for n in "${NODES[@]}"; do [[ -f "$W/$n.pid" ]] && kill "$(cat "$W/$n.pid")" 2>/dev/null || true; rm -f "$W/$n.pid"; done
}
cleanup() {
  stop_nodes
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

start_node() { # index run
  local i="$1" n="${NODES[$1]}"
  rm -rf "$W/$n"
  nohup java -Xmx384m -Dloadwise.replication.port="${TRIBES[$i]}" \
      -Dloadwise.replication.members="${TRIBES[${PARTNER[$i]}]}" \
      -jar "$LAUNCHER" --name "$n" --port "${PORTS[$i]}" --db-url "$DB" --agent-jar "$AGENT" \
      --work-dir "$W/$n" > "$W/$2-$n.out" 2>&1 &
  echo $! > "$W/$n.pid"
}

run() { # mode: domains or none
  local mode="$1" stop="$W/stop-$1" i nodes="" kill_at code=0
  for i in 0 1 2 3; do start_node "$i" "$mode"; done
  for i in 0 1 2 3; do await_line "$W/$mode-${NODES[$i]}.out" LOADWISE_NODE_READY 180; done
  [[ -f "$W/db-built" ]] || { curl -sf "http://127.0.0.1:${PORTS[0]}/trade/config?action=buildDB&users=500&quotes=100" \
      > /dev/null; touch "$W/db-built"; }
  for i in 0 1 2 3; do
    nodes+="${nodes:+,}{\"name\": \"${NODES[$i]}\", \"address\": \"127.0.0.1:${PORTS[$i]}\", \"route\": \"${NODES[$i]}\""
    [[ "$mode" == domains ]] && nodes+=", \"domain\": \"${DOMAIN[$i]}\""
    nodes+="}"
  done
  cat > "$W/loadwise-$mode.json" <<JSON
{"admin": {"listen": "127.0.0.1:$ADMIN_PORT", "token": "$TOKEN", "dataDir": "$W/admin-$mode"},
 "clusters": [{"name": "trade", "mode": "http", "listen": "127.0.0.1:$PROXY_PORT", "policy": "round-robin",
   "affinity": "cookie", "agentPath": "/trade/loadwise-agent/metrics", "agentPollIntervalMs": 1000,
   "nodes": [$nodes]}]}
JSON
  java -Xmx256m -jar "$CONSOLE" run --config "$W/loadwise-$mode.json" > "$W/dispatcher-$mode.out" 2>&1 &
  local dispatcher=$!
  await_line "$W/dispatcher-$mode.out" "admin console listening" 60
  java "$ROOT/benchmarks/rolling-restart/SessionLoad.java" --url "http://127.0.0.1:$PROXY_PORT" --users "$USERS" \
      --think-ms "$THINK_MS" --stop-file "$stop" > "$OUT/$mode-load.json" &
  local load=$!
  sleep "$WARM_S"
  kill_at=$(date -u +%T)
  kill -KILL "$(cat "$W/n1.pid")"
  rm -f "$W/n1.pid"
  echo "$kill_at SIGKILL n1 ($mode)" | tee -a "$W/kills.log"
  sleep "$AFTER_S"
  touch "$stop"
  wait "$load" || code=$?
  curl -s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$ADMIN_PORT/api/clusters/trade" > "$OUT/$mode-cluster.json" || true
  curl -s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$ADMIN_PORT/metrics" | grep -E '^loadwise_cluster_domain_partner' > "$OUT/$mode-metrics.txt" || true
  kill "$dispatcher"; wait "$dispatcher" 2>/dev/null || true
  stop_nodes
  sleep 2
  echo "$mode: $(cat "$OUT/$mode-load.json")"
  { grep -v "^$mode " "$OUT/runs.txt" 2>/dev/null || true; echo "$mode $code"; } > "$W/runs.new"
  mv "$W/runs.new" "$OUT/runs.txt"
  cp "$W/dispatcher-$mode.out" "$OUT/$mode-dispatcher.log"
  grep -hE "replicating sessions|DeltaManager|expire|Member|member" "$W/$mode-n2.out" | head -40 > "$OUT/$mode-n2-replication.log" || true
}
for mode in $MODES; do run "$mode"; done

{
  echo "| domain set | requests | failed | users logged out | logins | sent to a domain partner |"
  echo "|---|---|---|---|---|---|"
  while read -r mode code; do
    j="$OUT/$mode-load.json"
    val() { sed -E "s/.*\"$1\":([0-9.]+).*/\1/" "$j"; }
    partner="$(awk '{print $2}' "$OUT/$mode-metrics.txt" 2>/dev/null | head -1)"
    echo "| $mode | $(val requests) | $(val failed) | $(val loggedOut) | $(val logins) | ${partner:-?} |"
  done < "$OUT/runs.txt"
} | tee "$OUT/table.md"
echo "users $USERS, think $THINK_MS ms, n1 killed (SIGKILL) after $WARM_S s, load went on $AFTER_S s after" >> "$OUT/table.md"
