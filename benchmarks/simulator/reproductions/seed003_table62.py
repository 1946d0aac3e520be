"""Prints the seed 003 tables of docs/capacity-planning.md from the CSVs of the simulate runs (run from this directory)."""
import csv
mu=104.13
measured={2:9.89,10:9.87,50:10.45,100:12.49,150:17.64,160:20.12,170:24.40,180:31.40,190:41.08,200:66.04,202:78.44,204:97.91}
def erlangc(a,c):
    b=1.0
    for k in range(1,c+1): b=a*b/(k+a*b)
    r=a/c; return b/(1-r*(1-b))
def mmn(l,n):
    r=l/(n*mu); return (1/mu)*(1+erlangc(l/mu,n)/(n*(1-r)))*1e3
def load(p):
    rows={}
    for r in csv.DictReader(open(f'seed003-two-nodes-{p}/results.csv')):
        rows.setdefault(round(float(r['rate'])),{})[r['policy']]=float(r['resp_mean_ms'])
    return rows
d=load('deterministic'); e=load('exponential')
print("| λ req/s | measured RR (seed 000 Table 6.2) | M/M/2 | (M/M/1)^2 | sim RR, deterministic 9.60 ms | sim RR, exponential | sim LC, exponential | sim random, exponential |")
print("|---|---|---|---|---|---|---|---|")
for l,m in measured.items():
    print(f"| {l} | {m:.2f} | {mmn(l,2):.2f} | {1e3/(mu-l/2):.2f} | {d[l]['round-robin']:.2f} | {e[l]['round-robin']:.2f} | {e[l]['least-connections']:.2f} | {e[l]['random']:.2f} |")
