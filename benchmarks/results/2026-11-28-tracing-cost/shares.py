#!/usr/bin/env python3
"""CPU-sample shares of a JFR recording, grouped as in ../2026-11-28-tracing-profile: the event loop proxying, the
event loop in OpenTelemetry frames, the batch processor's thread, the HTTP sender's threads, the rest.
Usage: shares.py recording.jfr"""
import collections, json, subprocess, sys

ev = json.loads(subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ExecutionSample', sys.argv[1]],
                               capture_output=True, text=True, check=True).stdout)['recording']['events']
g = collections.Counter()
for e in ev:
    v = e['values']
    t = (v.get('sampledThread') or {}).get('javaName') or '?'
    frames = v['stackTrace']['frames'] if v.get('stackTrace') else []
    otel = any('opentelemetry' in f['method']['type']['name'] for f in frames)
    if t.startswith('multiThreadIo'):
        g['event loop: OpenTelemetry (spans, attributes, propagation)' if otel else 'event loop: proxying'] += 1
    elif t.startswith('BatchSpan'):
        g['export: batching and sizing (BatchSpanProcessor)'] += 1
    elif t.startswith('jdkhttp') or t.startswith('HttpClient'):
        g['export: protobuf writing and HTTP (sender threads)'] += 1
    else:
        g['other'] += 1
n = sum(g.values())
print('| where | samples | share |\n|---|---:|---:|')
for k, c in sorted(g.items(), key=lambda x: -x[1]):
    print(f'| {k} | {c} | {100 * c / n:.0f} % |')
print(f'| total | {n} | 100 % |')
tracing = n - g['event loop: proxying'] - g['other']
print(f'\ntracing / proxying = {tracing / max(g["event loop: proxying"], 1):.2f}')
