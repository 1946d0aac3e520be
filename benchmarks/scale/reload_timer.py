#!/usr/bin/env python3
"""Times reloads of a running Loadwise: writes config A or B (in turn, starting with B) over CONFIG, POSTs
/api/reload, and polls GET /api/clusters/bench until it shows the node count of the config just written.
Prints one line per reload: "<nodes after> <milliseconds>" (from the POST to the first answer showing them).

    reload_timer.py ADMIN_PORT TOKEN CONFIG A_FILE B_FILE RELOADS
"""
import json
import shutil
import sys
import time
import urllib.request

admin, token, config, a_file, b_file, reloads = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
api = f"http://127.0.0.1:{admin}/api"


def call(method, path):
    request = urllib.request.Request(api + path, method=method, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def nodes_in(file):
    with open(file) as f:
        return len(json.load(f)["clusters"][0]["nodes"])


for i in range(reloads):
    source = b_file if i % 2 == 0 else a_file
    expected = nodes_in(source)
    shutil.copyfile(source, config + ".tmp")
    shutil.move(config + ".tmp", config)
    start = time.monotonic()
    call("POST", "/reload")
    deadline = start + 60
    while True:
        if len(json.loads(call("GET", "/clusters/bench"))["nodes"]) == expected:
            break
        if time.monotonic() > deadline:
            sys.exit(f"reload {i + 1}: {expected} nodes not visible after 60 s")
        time.sleep(0.005)
    print(expected, f"{(time.monotonic() - start) * 1000:.1f}", flush=True)
