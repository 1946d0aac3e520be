"""Prints the seed 003 tables of docs/capacity-planning.md from the CSVs of the simulate runs (run from this directory)."""
import csv, math
mu=104.13
def erlangc(a,c):
    b=1.0
    for k in range(1,c+1): b=a*b/(k+a*b)
    r=a/c; return b/(1-r*(1-b))
def mmn(l,n):
    r=l/(n*mu)
    if r>=1: return float('inf')
    return (1/mu)*(1+erlangc(l/mu,n)/(n*(1-r)))*1e3
def mm1n(l,n):
    x=mu-l/n
    return 1e3/x if x>0 else float('inf')
def load(n,p):
    rows={}
    for r in csv.DictReader(open(f'seed003-knee/n{n}-{p}/results.csv')):
        rows.setdefault(float(r['rate']),{})[r['policy']]=float(r['resp_mean_ms'])
    return rows
print("| n | ρ | λ req/s | M/M/n | (M/M/1)^n | sim RR, deterministic (= M/D/n) | sim RR, exponential | sim oracle, exponential |")
print("|---|---|---|---|---|---|---|---|")
for n in range(1,6):
    d=load(n,'deterministic'); e=load(n,'exponential')
    for f in (0.5,0.8,0.9,0.95):
        lam=min(d.keys(), key=lambda k: abs(k-f*n*mu))
        print(f"| {n} | {f:.2f} | {lam:.1f} | {mmn(lam,n):.2f} | {mm1n(lam,n):.2f} | {d[lam]['round-robin']:.2f} | {e[lam]['round-robin']:.2f} | {e[lam]['oracle-lwl']:.2f} |")
print()
thr=5e3/mu
print(f"threshold R = 5/mu = {thr:.2f} ms")
print("| n | seeds' knee req/s (share of n·μ) | M/M/n | (M/M/1)^n | sim RR deterministic | sim RR exponential |")
print("|---|---|---|---|---|---|")
knees={1:None,2:200,3:300,4:400,5:480}
def cross(f):
    lo,hi=1.0,0.999
    # bisection on rho for models
    a,b=0.01,0.9999
    for _ in range(100):
        m=(a+b)/2
        if f(m)>thr: b=m
        else: a=m
    return a
for n in range(1,6):
    d=load(n,'deterministic'); e=load(n,'exponential')
    def simcross(rows):
        ks=sorted(rows)
        prev=None
        for k in ks:
            v=rows[k]['round-robin']
            if v>thr and prev:
                pk,pv=prev
                return pk+(k-pk)*(thr-pv)/(v-pv)
            prev=(k,v)
        return float('nan')
    rm=cross(lambda r: mmn(r*n*mu,n)); r1=cross(lambda r: mm1n(r*n*mu,n))
    sd=simcross(d); se=simcross(e)
    kn=knees[n]
    ks=f"{kn} ({kn/(n*mu)*100:.0f} %)" if kn else "≈100-105 (capacity)"
    print(f"| {n} | {ks} | {rm*n*mu:.0f} ({rm*100:.1f} %) | {r1*n*mu:.0f} ({r1*100:.1f} %) | {sd:.0f} ({sd/(n*mu)*100:.1f} %) | {se:.0f} ({se/(n*mu)*100:.1f} %) |")
