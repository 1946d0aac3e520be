#!/usr/bin/env bash
# The node agent filter's per-request cost (JMH, FilterOverheadBenchmark of node-agent/jakarta: the real
# filter on a real Tomcat response), written to benchmarks/results/agent-filter/. Modest defaults for a
# shared machine; override through the environment, e.g. FORKS=3 ITERATIONS=10 ./run-agent-filter-bench.sh
set -euo pipefail

FORKS=${FORKS:-1}
WARMUP_ITERATIONS=${WARMUP_ITERATIONS:-3}
ITERATIONS=${ITERATIONS:-5}
ITERATION_TIME=${ITERATION_TIME:-1s}

repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/benchmarks/results/agent-filter"
mkdir -p "$out"
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT

(cd "$repo" && mvn -B -q -Dstyle.color=never -pl node-agent/core,node-agent/jakarta -am test-compile \
    dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test)

agent="$repo/node-agent/jakarta"
java -cp "$agent/target/test-classes:$agent/target/classes:$(cat "$cp_file")" org.openjdk.jmh.Main \
    FilterOverheadBenchmark -f "$FORKS" -wi "$WARMUP_ITERATIONS" -w "$ITERATION_TIME" -i "$ITERATIONS" \
    -r "$ITERATION_TIME" -prof gc -rf csv -rff "$out/jmh.csv" | tee "$out/jmh.log"

{
  echo "# Agent filter per-request cost (JMH)"
  echo
  echo "FilterOverheadBenchmark (node-agent/jakarta), JMH 1.37, $(java -version 2>&1 | head -1 | tr -d '"'),"
  echo "$(nproc) CPUs; forks $FORKS, warmup ${WARMUP_ITERATIONS}x$ITERATION_TIME, measurement ${ITERATIONS}x$ITERATION_TIME;"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); run $(date -u +%Y-%m-%dT%H:%MZ)."
  echo
  echo '```'
  sed -n '/^Benchmark/,$p' "$out/jmh.log"
  echo '```'
} > "$out/summary.md"
echo "summary: $out/summary.md"
