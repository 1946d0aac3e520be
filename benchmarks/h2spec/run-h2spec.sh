#!/usr/bin/env bash
# h2spec (the HTTP/2 conformance tester) against the shipped Loadwise: one h2c listener (prior knowledge,
# HTTP/1.1 on the same port), one h2c listener with http2.priorKnowledgeOnly, and one TLS listener (h2 by
# ALPN), in front of one NGINX node, with a throw-away certificate.
# Results: benchmarks/results/<date>-h2spec/ (h2c.txt, h2c-prior-knowledge-only.txt, tls.txt: h2spec's reports).
#
#   benchmarks/h2spec/run-h2spec.sh
#
# Environment: OUT (results folder), JAR (the loadwise.jar to test), H2SPEC (an h2spec binary; default: built
# with `go install github.com/summerwind/h2spec/cmd/h2spec@latest` into /tmp/gobin), TIMEOUT (h2spec's
# per-test timeout in seconds, default 2; the machine may be busy).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${OUT:-$ROOT/benchmarks/results/$(date -u +%F)-h2spec}"
JAR="${JAR:-$ROOT/admin-console/target/loadwise.jar}"
TIMEOUT="${TIMEOUT:-2}"

"$ROOT/.ci/install-deps" nginx openssl curl python3
export PATH="$PATH:/usr/sbin:/usr/local/go/bin"
command -v go > /dev/null || "$ROOT/.ci/install-deps" golang-go
H2SPEC="${H2SPEC:-/tmp/gobin/h2spec}"
if [ ! -x "$H2SPEC" ]; then
  GOBIN="$(dirname "$H2SPEC")" go install github.com/summerwind/h2spec/cmd/h2spec@latest
fi
if [ ! -f "$JAR" ]; then
  (cd "$ROOT" && mvn -B -q -pl admin-console -am package -DskipTests -Dfuzz.skip=true)
fi

source "$ROOT/benchmarks/lib/processes.sh"
bench_workdir loadwise-h2spec

# the node: NGINX answering every method on every path with a short body
NODE_PORT="$(free_port)"
mkdir -p "$WORK/node"
cat > "$WORK/node/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $WORK/node/nginx.pid;
error_log $WORK/node/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$NODE_PORT;
    location / { return 200 "ok\n"; }
  }
}
CONF
nginx -c "$WORK/node/nginx.conf" -p "$WORK/node" &
PIDS+=($!)
wait_port "$NODE_PORT"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/server.key" \
    -out "$WORK/server.pem" -days 2 -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    2>/dev/null

H2C_PORT="$(free_port)"; PK_PORT="$(free_port)"; TLS_PORT="$(free_port)"; ADMIN_PORT="$(free_port)"
cat > "$WORK/loadwise.json" <<JSON
{ "admin": { "listen": "127.0.0.1:$ADMIN_PORT", "token": "h2spec-benchmark-token-0123456789" },
  "clusters": [
    { "name": "h2c", "mode": "http", "listen": "127.0.0.1:$H2C_PORT", "policy": "round-robin",
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] },
    { "name": "h2c-only", "mode": "http", "listen": "127.0.0.1:$PK_PORT", "policy": "round-robin",
      "http2": { "priorKnowledgeOnly": true },
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] },
    { "name": "tls", "mode": "http", "listen": "127.0.0.1:$TLS_PORT", "policy": "round-robin",
      "tls": { "certificate": "$WORK/server.pem", "key": "$WORK/server.key" },
      "nodes": [ { "name": "node1", "address": "127.0.0.1:$NODE_PORT" } ] } ] }
JSON
(cd "$WORK" && LOADWISE_ADMIN_PASSWORD=h2spec-benchmark-password exec java -jar "$JAR" run \
    --config "$WORK/loadwise.json") > "$WORK/loadwise.log" 2>&1 &
PIDS+=($!)
wait_port "$H2C_PORT" || { cat "$WORK/loadwise.log" >&2; exit 1; }
wait_port "$TLS_PORT"
wait_port "$PK_PORT"

mkdir -p "$OUT"
status=0
"$H2SPEC" -h 127.0.0.1 -p "$H2C_PORT" -o "$TIMEOUT" > "$OUT/h2c.txt" 2>&1 || status=$?
"$H2SPEC" -h 127.0.0.1 -p "$PK_PORT" -o "$TIMEOUT" > "$OUT/h2c-prior-knowledge-only.txt" 2>&1 || status=$?
"$H2SPEC" -h 127.0.0.1 -p "$TLS_PORT" -t -k -o "$TIMEOUT" > "$OUT/tls.txt" 2>&1 || status=$?
for f in "$OUT/h2c.txt" "$OUT/h2c-prior-knowledge-only.txt" "$OUT/tls.txt"; do
  sed -i 's/\x1b\[[0-9;]*m//g' "$f" # no colour codes in the committed report
  echo "$(basename "$f" .txt): $(tail -n 3 "$f" | grep -E 'tests,' || echo 'no summary')"
done
grep -E "WARN|ERROR" "$WORK/loadwise.log" | grep -v "expired\|expires" > "$OUT/loadwise-warnings.txt" || true
echo "h2spec exit $status; reports in $OUT"
