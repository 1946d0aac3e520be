#!/usr/bin/env bash
# Builds the JMH jar and measures Picker.pick for every built-in policy at 3, 16, 100 and 1,000 nodes, with
# the GC profiler for allocation per pick. Writes benchmarks/results/policy-selection/{jmh.csv,
# jmh.log,summary.csv,summary.md}. Modest defaults for a shared machine; override through the
# environment, e.g. FORKS=3 ITERATIONS=10 ITERATION_TIME=2s ./run-policy-bench.sh
set -euo pipefail

FORKS=${FORKS:-1}
WARMUP_ITERATIONS=${WARMUP_ITERATIONS:-3}
ITERATIONS=${ITERATIONS:-3}
ITERATION_TIME=${ITERATION_TIME:-1s}
THREADS=${THREADS:-1}

repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/benchmarks/results/policy-selection"
jar="$repo/benchmarks/jmh/target/benchmarks.jar"
mkdir -p "$out"

(cd "$repo" && mvn -B -q -pl benchmarks/jmh -am package -DskipTests)

java -jar "$jar" 'PolicySelectionBenchmark|NodeScanBaselineBenchmark' \
    -f "$FORKS" -wi "$WARMUP_ITERATIONS" -w "$ITERATION_TIME" -i "$ITERATIONS" -r "$ITERATION_TIME" \
    -t "$THREADS" -prof gc -rf csv -rff "$out/jmh.csv" | tee "$out/jmh.log"

settings="JMH 1.37, $(java -version 2>&1 | head -1 | tr -d '"'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
settings="$settings; forks $FORKS, warmup ${WARMUP_ITERATIONS}×$ITERATION_TIME, measurement ${ITERATIONS}×$ITERATION_TIME, $THREADS thread(s), -prof gc"
settings="$settings; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); run $(date -u +%Y-%m-%dT%H:%MZ)"
java -cp "$jar" io.loadwise.bench.policy.PolicyBenchSummary "$out/jmh.csv" "$out" "$settings"
echo "summary: $out/summary.md"
