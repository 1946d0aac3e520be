#!/usr/bin/env bash
# Builds the JMH jar and measures RouteTable.match at 10, 100 and 1,000 routes (a host and prefix mix), with the
# GC profiler for allocation per match. Writes benchmarks/results/route-matching/{jmh.csv,jmh.log,README.md}.
# The aim (issue 30): at most 100 ns per match at 1,000 routes, 0 B/op. Override through the environment,
# e.g. FORKS=3 ITERATIONS=10 ./run-route-bench.sh
set -euo pipefail

FORKS=${FORKS:-2}
WARMUP_ITERATIONS=${WARMUP_ITERATIONS:-3}
ITERATIONS=${ITERATIONS:-5}
ITERATION_TIME=${ITERATION_TIME:-1s}

repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/benchmarks/results/route-matching"
jar="$repo/benchmarks/jmh/target/benchmarks.jar"
mkdir -p "$out"

(cd "$repo" && mvn -B -q -pl benchmarks/jmh -am package -DskipTests -Dfuzz.skip=true)

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
java -jar "$jar" 'RouteMatchBenchmark' \
    -f "$FORKS" -wi "$WARMUP_ITERATIONS" -w "$ITERATION_TIME" -i "$ITERATIONS" -r "$ITERATION_TIME" \
    -prof gc -rf csv -rff "$out/jmh.csv" | tee "$out/jmh.log"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/jmh.log"
