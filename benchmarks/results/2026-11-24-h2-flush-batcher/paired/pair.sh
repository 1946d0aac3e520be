#!/usr/bin/env bash
# How this folder was made: the TLS/h2 benchmark's h2 rows with two jars, one after the other, HAProxy in every
# run. base.jar = a13e402 (no batching), new.jar = the same with ConnectionFlushBatcher. Rounds 1-2 ran base first,
# rounds 3-4 new first. Each run: RUNS=2 rounds of 10 s per cell after a 30 s warm-up per target.
#   JARS=/path/with/base.jar+new.jar OUT=/somewhere benchmarks/results/2026-11-24-h2-flush-batcher/paired/pair.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
JARS="${JARS:?directory holding base.jar and new.jar}"
OUT="${OUT:?output directory}"
for round in 1 2 3 4; do
  order="base new"; [ "$round" -gt 2 ] && order="new base"
  for v in $order; do
    echo "=== $v round $round $(date +%T)"
    OUT="$OUT/round$round-$v" RUNS=2 WARMUP=30 ROWS="h2-1k h2-16k" TARGETS="haproxy-1t loadwise-l7-1t" \
      JAR="$JARS/$v.jar" "$ROOT/benchmarks/overhead/run-tls-h2.sh" > "$OUT/round$round-$v.log" 2>&1
  done
done
python3 "$(dirname "$0")/combine.py" "$OUT"
