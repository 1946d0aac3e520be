"""Medians over every run of every round: Loadwise against HAProxy in the same round, per jar and row."""
import csv, glob, os, statistics, sys

folder = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
pairs = {}
for d in sorted(glob.glob(os.path.join(folder, 'round*-*'))):
    if not os.path.isdir(d):
        continue
    jar = os.path.basename(d).split('-', 1)[1]
    for r in csv.DictReader(open(os.path.join(d, 'runs.csv'))):
        pairs.setdefault((jar, r['row'], d, r['round']), {})[r['target']] = r
cells = {}
for (jar, row, _, _), t in pairs.items():
    h, l = t['haproxy-1t'], t['loadwise-l7-1t']
    c = cells.setdefault((jar, row), {k: [] for k in ('rps', 'p99', 'cpu', 'lrps', 'lcpu', 'hcpu')})
    c['rps'].append(float(l['requests_per_s']) / float(h['requests_per_s']))
    c['p99'].append(float(l['p99_ms']) / float(h['p99_ms']))
    c['cpu'].append(float(l['cpu_us_per_request']) / float(h['cpu_us_per_request']))
    c['lrps'].append(float(l['requests_per_s']))
    c['lcpu'].append(float(l['cpu_us_per_request']))
    c['hcpu'].append(float(h['cpu_us_per_request']))
m = statistics.median
print('| row | jar | runs | req/s vs HAProxy | p99 vs HAProxy | CPU vs HAProxy | Loadwise req/s | Loadwise CPU µs/req | HAProxy CPU µs/req |')
print('|---|---|---:|---:|---:|---:|---:|---:|---:|')
for row in ('h2-1k', 'h2-16k'):
    for jar in ('base', 'new'):
        c = cells.get((jar, row))
        if c:
            print(f"| {row} | {jar} | {len(c['rps'])} | {m(c['rps']):.2f} | {m(c['p99']):.2f} | {m(c['cpu']):.2f} "
                  f"| {m(c['lrps']):,.0f} | {m(c['lcpu']):.1f} | {m(c['hcpu']):.1f} |")
print()
for row in ('h2-1k', 'h2-16k'):
    for jar in ('base', 'new'):
        c = cells.get((jar, row))
        if c:
            print(f"- {row} {jar}: CPU vs HAProxy, every run: {', '.join(f'{x:.2f}' for x in sorted(c['cpu']))}")
