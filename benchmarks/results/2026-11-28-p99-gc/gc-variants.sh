#!/usr/bin/env bash
# Issue 35 item 2: does the garbage collector make Loadwise's p99 at 1 KB worse than HAProxy's?
# One run-overhead.sh run per JVM variant (HAProxy and Loadwise with one thread each, 1 KB, -c50 and -c200,
# RUNS interleaved rounds inside each run), each with a GC log, so that the p99 ratio to HAProxy of the
# same run can be set beside the pauses that fell in it. jdk17-g1-young7g is the control: a young generation
# so large that a collection comes about once a minute, so most measured seconds have no pause at all. Usage: bash gc-variants.sh [variant ...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64
declare -A OPTS=(
  [jdk17-g1]=""
  [jdk17-parallel]="-XX:+UseParallelGC"
  [jdk25-g1]=""
  [jdk25-zgc]="-XX:+UseZGC"
  [jdk17-g1-young7g]="-Xms8g -Xmx8g -Xmn7g"
)
variants=("${@:-jdk17-g1 jdk25-zgc jdk17-parallel jdk25-g1}")
for v in ${variants[*]}; do
  out="$HERE/$v"
  rm -rf "$out"; mkdir -p "$out"
  path="$PATH"
  [[ "$v" == jdk25-* ]] && path="$JDK25/bin:$PATH"
  echo "== $v ($(PATH="$path" java -version 2>&1 | head -1)) ${OPTS[$v]}"
  PATH="$path" OUT="$out" TARGETS="haproxy-1t loadwise-l7-1t" SIZES=1k CONNECTIONS="50 200" \
    RUNS="${RUNS:-3}" WARMUP="${WARMUP:-30s}" DURATION="${DURATION:-10s}" IDLE_CONNECTIONS=0 \
    LOADWISE_JAVA_OPTS="${OPTS[$v]} -Xlog:gc:file=$out/gc-%p.log:uptime" \
    bash "$ROOT/benchmarks/overhead/run-overhead.sh" > "$out/run.log" 2>&1
  tail -n 3 "$out/run.log"
done
