#!/bin/sh
# Re-runs every simulation quoted in docs/simulator.md and docs/capacity-planning.md.
# Usage: benchmarks/simulator/reproductions/reproduce.sh   (after mvn -pl benchmarks/simulator -am package)
# About 15 minutes on one core. Outputs land next to this script; fixed seeds make them repeatable.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${JAR:-$HERE/../target/loadwise-simulator.jar}
sim() { java -Djava.awt.headless=true -jar "$JAR" simulate "$@"; }

# seed 004 Table 5: 4 servers, SURGE-like load, RR vs LC vs the oracle baseline. The teo-ayani
# L/K + C profile scaled by 1/2.6366 so the mean demand is the 3.62 ms Table 5 implies
# (utilisation 0.226 at 250 req/s on 4 servers); see docs/simulator.md.
SCALED=size-linear:1.5688e8,0.341345,1.5688e6,1.592943
sim --workload surge --requests 1000000 --nodes 4 --service $SCALED --rate 250,500,750,1000,1250 \
    --policy round-robin,least-connections --out "$HERE/seed004-table5" > "$HERE/seed004-table5.txt"
sim --workload surge --burstiness 1.53,0.48 --requests 1000000 --nodes 4 --service $SCALED \
    --rate 250,500,750,1000,1250 --policy round-robin,least-connections \
    --out "$HERE/seed004-table5-bursty" > "$HERE/seed004-table5-bursty.txt"
# beyond the paper: every built-in policy at 750 req/s, agents every 1000 ms and every 100 ms
for period in 1000 100; do
  sim --workload surge --requests 300000 --nodes 4 --service $SCALED --rate 750 --agent-period-ms $period \
      --policy round-robin,static-wrr,random,least-connections,weighted-least-connections,least-sessions,least-loaded,fastest-response-time,f5-dynamic-ratio,jvm-aware \
      > "$HERE/all-policies-agents-${period}ms.txt"
done

# seeds 000/003: 2 blades at μ = 104.13 req/s, Poisson arrivals (Table 6.2 rates)
for service in deterministic exponential; do
  sim --nodes 2 --service $service --service-rate 104.13 --requests 300000 --warmup 10000 \
      --rate 2,10,50,100,150,160,170,180,190,200,202,204 --policy round-robin,least-connections,random \
      --out "$HERE/seed003-two-nodes-$service" > "$HERE/seed003-two-nodes-$service.txt"
done
# knees: 1..5 blades, round-robin, ρ = 0.5 and 0.80 .. 0.99
for n in 1 2 3 4 5; do
  rates=$(awk -v n=$n 'BEGIN { mu = 104.13; printf "%.4f", 0.5*n*mu; for (i = 0; i < 20; i++) printf ",%.4f", (0.80+0.01*i)*n*mu }')
  for service in deterministic exponential; do
    sim --nodes $n --service $service --service-rate 104.13 --requests 200000 --warmup 10000 --rate "$rates" \
        --policy round-robin --out "$HERE/seed003-knee/n$n-$service" > "$HERE/seed003-knee/n$n-$service.txt"
  done
done
rm -f "$HERE"/seed003-knee/*/*.png  # only the CSVs of the 20 knee sweeps are kept

# seed 003's RR → LC switch question: RR vs LC vs oracle over load, 5 blades, equal and unequal speeds
for service in deterministic exponential; do
  sim --nodes 5 --service $service --service-rate 104.13 --requests 200000 --warmup 10000 \
      --rate 52.06,156.19,260.32,364.45,416.52,442.55,468.58,494.62 --policy round-robin,least-connections \
      --out "$HERE/seed003-rr-lc-switch/homo-$service" > "$HERE/seed003-rr-lc-switch/homo-$service.txt"
  sim --speeds 0.5,0.625,0.75,0.875,1 --service $service --service-rate 104.13 --requests 200000 --warmup 10000 \
      --rate 39.05,117.15,195.24,273.34,312.39,331.91,351.44,370.96 --policy round-robin,least-connections \
      --out "$HERE/seed003-rr-lc-switch/inhomo-$service" > "$HERE/seed003-rr-lc-switch/inhomo-$service.txt"
done
# seed 002: response scheduling on one server's 10 and 100 Mbit/s link, SURGE-like static files
for mbps in 10 100; do
  sim --scheduling ps,srpt,srrt,fifo --workload surge --dynamic-fraction 0 --requests 200000 --warmup 10000 \
      --link-mbps $mbps --link-load 0.1,0.3,0.5,0.6,0.7,0.8,0.85,0.9,0.95 > "$HERE/seed002-srrt/link-${mbps}mbps.txt"
done
rm -f "$HERE"/seed003-rr-lc-switch/*/*.png  # CSVs and tables only
echo "done; tables: python3 seed004_tables.py seed004-table5, python3 seed003_table62.py, python3 seed003_knee_tables.py"
