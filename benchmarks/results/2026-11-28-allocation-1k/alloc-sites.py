#!/usr/bin/env python3
"""Prints the busiest thread's exact allocation in the recording window, then sums JFR's jdk.ObjectAllocationSample weights by allocating site: the first frame in io.loadwise (else the
top frame), and by object class. Usage: alloc-sites.py REC.jfr [REQUESTS_IN_WINDOW]"""
import collections, json, subprocess, sys

rec = sys.argv[1]
requests = float(sys.argv[2]) if len(sys.argv) > 2 else None
out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "24", "--events", "jdk.ObjectAllocationSample", rec],
                     capture_output=True, text=True, check=True).stdout
events = json.loads(out)["recording"]["events"]
by_site, by_class, total = collections.Counter(), collections.Counter(), 0
for e in events:
    v = e["values"]
    if "loop" not in (v.get("eventThread") or {}).get("javaName", "") and "EventLoop" not in (v.get("eventThread") or {}).get("javaName", ""):
        continue
    w = v["weight"]
    total += w
    frames = (v.get("stackTrace") or {}).get("frames") or []
    names = [f["method"]["type"]["name"].replace("/", ".").split(".")[-1] + "." + f["method"]["name"] for f in frames]
    site = next((n for f, n in zip(frames, names) if f["method"]["type"]["name"].replace("/", ".").startswith("io.loadwise")), names[0] if names else "?")
    by_site[site] += w
    by_class[v["objectClass"]["name"]] += w
# exact: the event loop's allocated-bytes counter at the window's two ends (jdk.ThreadAllocationStatistics)
stats = json.loads(subprocess.run(["jfr", "print", "--json", "--events", "jdk.ThreadAllocationStatistics", rec],
                                  capture_output=True, text=True, check=True).stdout)["recording"]["events"]
counts = collections.defaultdict(list)
for e in stats:
    v = e["values"]
    counts[(v.get("thread") or {}).get("javaName", "")].append(v["allocated"])
exact = max((max(c) - min(c) for c in counts.values()), default=0)
print(f"event-loop allocation in the window (exact): {exact / 1e6:.0f} MB" + (f", {exact / requests:.0f} B a request" if requests else ""))
print(f"event-loop allocation sampled: {total / 1e6:.0f} MB" + (f", {total / requests:.0f} B a request" if requests else ""))
print("\n| site (first io.loadwise frame) | share |\n|---|---:|")
for k, w in by_site.most_common(15):
    print(f"| `{k}` | {100 * w / total:.1f} % |")
print("\n| class | share |\n|---|---:|")
for k, w in by_class.most_common(10):
    print(f"| `{k}` | {100 * w / total:.1f} % |")
