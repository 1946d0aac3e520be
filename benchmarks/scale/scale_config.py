#!/usr/bin/env python3
"""Loadwise configurations for the scale benchmarks (`./loadwise bench scale`, and run-overhead.sh's
loadwise-routes10-1t and loadwise-routes1000-1t rows): one generator, so that every script measures the same
shapes. Prints the JSON on stdout.

    scale_config.py nodes N --admin PORT --listen PORT --node-ports P1,P2,... [--hosts H] [--max-clients C]
            [--idle-timeout-ms T]
        one HTTP cluster "bench" of N nodes, node i at 127.0.0.<1 + i // len(ports) % H>:<ports[i % len(ports)]>
        (unique addresses; one NGINX listening on the ports answers all of them); TCP health checks every 10 s,
        what an operator of 1,000 nodes would run (100 checks a second in all, not 500 at the 2 s default)
    scale_config.py routes N --admin PORT --listen PORT --node HOST:PORT [--max-clients C]
        one listener with N routes: N - 1 for other hosts and paths (app<i>.example, /p<i>), then the one every
        benchmark request takes (pathPrefix "/", with a request header set and a rate limit that never
        triggers), as run-overhead.sh's loadwise-routes row has with 20
"""
import argparse
import json
import sys

TOKEN = "scale-benchmark-token-0123456789"


def nodes_config(count, admin, listen, node_ports, hosts=250, max_clients=None, idle_timeout_ms=None):
    nodes = []
    for i in range(count):
        host = 1 + (i // len(node_ports)) % hosts
        nodes.append({"name": f"n{i + 1}", "address": f"127.0.0.{host}:{node_ports[i % len(node_ports)]}"})
    if len(set(n["address"] for n in nodes)) != count:
        sys.exit(f"{count} nodes need more than {hosts} hosts x {len(node_ports)} ports")
    cluster = {"name": "bench", "mode": "http", "listen": f"127.0.0.1:{listen}", "policy": "round-robin",
               "healthCheck": {"intervalMs": 10000, "timeoutMs": 2000},
               "nodes": nodes}
    config = {"admin": {"listen": f"127.0.0.1:{admin}", "token": TOKEN}, "clusters": [cluster]}
    if max_clients:
        config["maxClientConnections"] = max_clients
        cluster["maxClientConnections"] = max_clients
    if idle_timeout_ms:
        cluster["idleTimeoutMs"] = idle_timeout_ms
    return config


def routes_config(count, admin, listen, node, max_clients=None):
    routes = [{"match": {"host": f"app{i}.example", "pathPrefix": f"/p{i}"}, "cluster": "bench"}
              for i in range(1, count)]
    routes.append({"match": {"pathPrefix": "/"}, "cluster": "bench", "requestHeaders": {"set": {"x-env": "bench"}},
                   "rateLimit": "never"})
    listener = {"name": "edge", "listen": f"127.0.0.1:{listen}", "routes": routes}
    config = {"admin": {"listen": f"127.0.0.1:{admin}", "token": TOKEN},
              "clusters": [{"name": "bench", "mode": "http", "policy": "round-robin",
                            "nodes": [{"name": "node1", "address": node}]}],
              "listeners": [listener],
              "rateLimits": {"never": {"key": "clientIp", "requestsPerSecond": 1000000, "burst": 10000000}}}
    if max_clients:
        config["maxClientConnections"] = max_clients
        listener["maxClientConnections"] = max_clients
    return config


def main():
    parser = argparse.ArgumentParser(description="Loadwise configurations for the scale benchmarks")
    parser.add_argument("shape", choices=["nodes", "routes"])
    parser.add_argument("count", type=int)
    parser.add_argument("--admin", type=int, required=True)
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--node-ports", default="")
    parser.add_argument("--hosts", type=int, default=250)
    parser.add_argument("--node", default="")
    parser.add_argument("--max-clients", type=int)
    parser.add_argument("--idle-timeout-ms", type=int, help="nodes: the cluster's idleTimeoutMs")
    a = parser.parse_args()
    if a.count < 1:
        sys.exit("count must be at least 1")
    if a.shape == "nodes":
        ports = [int(p) for p in a.node_ports.split(",") if p]
        if not ports:
            sys.exit("nodes: --node-ports is required")
        config = nodes_config(a.count, a.admin, a.listen, ports, a.hosts, a.max_clients, a.idle_timeout_ms)
    else:
        if not a.node:
            sys.exit("routes: --node is required")
        config = routes_config(a.count, a.admin, a.listen, a.node, a.max_clients)
    json.dump(config, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
