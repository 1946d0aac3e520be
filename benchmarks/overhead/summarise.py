#!/usr/bin/env python3
"""Medians of the overhead runs (runs.csv) and their ratios to HAProxy at the same thread count, into
README.md and summary.csv of the results folder.

    summarise.py OUT RUNS DURATION STARTED LOAD_BEFORE LOAD_AFTER LOADWISE_JAVA_OPTS
"""
import csv
import os
import platform
import statistics
import subprocess
import sys

out, runs, duration, started, load_before, load_after, java_opts = sys.argv[1:8]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
order = []
for r in rows:
    key = (r["size"], int(r["connections"]))
    if key not in order:
        order.append(key)
CANONICAL = ["direct", "haproxy-1t", "haproxy-2t", "nginx-1w", "nginx-2w", "loadwise-l7-1t", "loadwise-l7-2t",
             "loadwise-l7-uring-1t", "loadwise-l7-uring-2t", "dispatcher-l7-1t", "haproxy-tcp-1t", "haproxy-tcp-2t", "loadwise-l4-1t", "loadwise-l4-2t", "loadwise-l4-uring-1t", "loadwise-l4-uring-2t"]
seen = {r["target"] for r in rows}
targets = [t for t in CANONICAL if t in seen] + sorted(seen - set(CANONICAL))
# user and sys: the proxy's CPU split into user space and kernel (utime and stime of /proc/<pid>/stat); absent
# from runs.csv files written before the split, and then left empty
FIELDS = ["requests_per_s", "p50_ms", "p99_ms", "p999_ms", "cpu_us_per_request", "user_us_per_request",
          "sys_us_per_request"]


def med(size, conns, target, field):
    values = [float(r[field]) for r in rows
              if r["size"] == size and int(r["connections"]) == conns and r["target"] == target and r.get(field)]
    return statistics.median(values) if values else None


def baseline(target):
    """HAProxy at the same thread count and mode; none for HAProxy itself and direct."""
    threads = target[-2]
    if target.startswith(("loadwise-l4", "haproxy-tcp")):
        return f"haproxy-tcp-{threads}t"
    if target.startswith(("loadwise-l7", "dispatcher-l7", "nginx", "haproxy-")):
        return f"haproxy-{threads}t"
    return None


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else ""


summary = []
for size, conns in order:
    for t in targets:
        m = {f: med(size, conns, t, f) for f in FIELDS}
        base = baseline(t)
        b = {f: med(size, conns, base, f) for f in FIELDS} if base in targets else {}
        summary.append((size, conns, t, m, base if b else "", b))

with open(os.path.join(out, "summary.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["size", "connections", "target"] + FIELDS + ["baseline", "rps_vs_baseline", "p99_vs_baseline",
                                                             "cpu_vs_baseline", "user_vs_baseline", "sys_vs_baseline"])
    for size, conns, t, m, base, b in summary:
        w.writerow([size, conns, t] + [f"{m[x]:.3f}" if m[x] is not None else "" for x in FIELDS]
                   + [base] + [ratio(m[x], b.get(x)) for x in ("requests_per_s", "p99_ms", "cpu_us_per_request",
                                                                "user_us_per_request", "sys_us_per_request")])


def version(cmd):
    try:
        run = subprocess.run(cmd, capture_output=True, text=True)
        return ((run.stdout or "") + (run.stderr or "")).strip().splitlines()[0]
    except Exception:
        return "?"


cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
with open(os.path.join(out, "README.md"), "w") as f:
    f.write("# Proxy overhead of the shipped product\n\n")
    f.write(f"Measured from {started} UTC by `./loadwise bench overhead` (`benchmarks/overhead/run-overhead.sh`) on "
            f"{platform.node()} ({platform.machine()}, {cores} cores). {runs} rounds of {duration} per cell; in each "
            "round every target runs once per size and connection count, in a shuffled order; the figures are "
            "medians over the rounds.\n\n")
    f.write("- The node: one NGINX worker serving static files of 1 KB, 16 KB and 256 KB, keep-alive.\n"
            "- The client: `wrk -t1` with 50 or 200 keep-alive connections.\n"
            "- `loadwise-*`: `java -jar admin-console/target/loadwise.jar run --worker-threads N` with a one-node "
            "round-robin cluster, console and metric stores on, JVM options: "
            f"`{java_opts or 'none (as shipped)'}`. `loadwise-l7-uring-*`, `loadwise-l4-uring-*`: the same with `--transport io_uring` "
            "(the others: auto, so epoll). `dispatcher-*`: the same with the dispatcher-only jar.\n"
            "- HAProxy `nbthread N` (`mode http` with keep-alive and `option forwardfor`, or `mode tcp`); NGINX "
            "`worker_processes N` with an upstream keep-alive pool and `X-Forwarded-For`.\n"
            "- CPU/request: user + system CPU time of the proxy process (all threads, workers included) during "
            "the run, divided by the requests it served; user and sys split it into user space and kernel (utime "
            "and stime of `/proc/<pid>/stat`, in clock ticks, so short runs are coarse). The ratio columns compare "
            "with HAProxy at the same thread count (`mode tcp` for L4 rows).\n\n")
    f.write(f"Load average (1/5/15 min) at the start: {load_before}; at the end: {load_after}. On {cores} "
            "cores wrk, the node and the proxy compete for the CPUs: compare ratios and CPU/request.\n\n")
    for size, conns in order:
        f.write(f"## {size}, {conns} connections\n\n")
        f.write("| target | req/s | p50 ms | p99 ms | p99.9 ms | CPU µs/req | user µs/req | sys µs/req | vs "
                "| req/s ratio | p99 ratio | CPU ratio | user ratio | sys ratio |\n")
        f.write("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n")
        for s, c, t, m, base, b in summary:
            if (s, c) != (size, conns):
                continue
            cells = [f"{m['requests_per_s']:.0f}", f"{m['p50_ms']:.2f}", f"{m['p99_ms']:.2f}",
                     f"{m['p999_ms']:.2f}" if m["p999_ms"] is not None else "", f"{m['cpu_us_per_request']:.1f}"]
            cells += [f"{m[x]:.1f}" if m[x] is not None else "" for x in ("user_us_per_request", "sys_us_per_request")]
            ratios = [ratio(m[x], b.get(x)) for x in ("requests_per_s", "p99_ms", "cpu_us_per_request",
                                                       "user_us_per_request", "sys_us_per_request")]
            f.write(f"| {t} | " + " | ".join(cells) + f" | {base} | " + " | ".join(ratios) + " |\n")
        f.write("\n")
    idle = os.path.join(out, "idle.csv")
    if os.path.exists(idle):
        idle_rows = list(csv.DictReader(open(idle)))
        if idle_rows:
            f.write("## Idle keep-alive connections\n\n| target | connections | RSS before MB | RSS holding them MB | "
                    "KB/connection | RSS after holding them a while MB |\n|---|---:|---:|---:|---:|---:|\n")
            for r in idle_rows:
                f.write(f"| {r['target']} | {r['connections']} | {r['rss_before_mb']} | {r['rss_after_mb']} | "
                        f"{r['kb_per_connection']} | {r.get('rss_settled_mb') or ''} |\n")
            f.write("\n")
    f.write("Raw runs: `runs.csv` (with the 1-minute load average after each); medians and ratios: `summary.csv`; "
            "idle connections: `idle.csv`.\n\n")
    f.write(f"Versions: {version(['haproxy', '-v'])}; {version(['nginx', '-v'])}; {version(['java', '-version'])}; "
            f"{version(['wrk', '-v'])}.\n")
print(open(os.path.join(out, "README.md")).read())
