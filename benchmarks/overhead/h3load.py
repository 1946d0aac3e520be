"""HTTP/3 load for the overhead benchmark's h3 rows (run-h3.sh): aioquic, CONNECTIONS connections with STREAMS
requests in flight on each, GET of one URL for DURATION seconds. Prints one JSON line:
{"requests": n, "requests_per_s": r, "p50_ms": x, "p99_ms": y, "failed": f}.

aioquic is pure Python: one process saturates a core long before a proxy does, so the h3 rows measure the client
as much as the proxy; compare them with each other (the same client), not with h2load's h2 rows.

    python h3load.py HOST PORT PATH CAFILE CONNECTIONS STREAMS DURATION
"""
import asyncio
import json
import sys
import time

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration


class Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.h3 = H3Connection(self._quic)
        self.waiters = {}

    def quic_event_received(self, event):
        for e in self.h3.handle_event(event):
            if isinstance(e, (HeadersReceived, DataReceived)):
                waiter = self.waiters.get(e.stream_id)
                if waiter is None:
                    continue
                if isinstance(e, HeadersReceived) and dict(e.headers).get(b":status") != b"200":
                    waiter[1] = False
                if e.stream_ended and not waiter[0].done():
                    waiter[0].set_result(waiter[1])
                    del self.waiters[e.stream_id]

    async def get(self, authority, path):
        stream_id = self._quic.get_next_available_stream_id()
        fut = asyncio.get_running_loop().create_future()
        self.waiters[stream_id] = [fut, True]
        self.h3.send_headers(stream_id, [(b":method", b"GET"), (b":scheme", b"https"),
                                         (b":authority", authority), (b":path", path)], end_stream=True)
        self.transmit()
        return await fut


async def worker(client, authority, path, deadline, latencies, failures):
    while time.monotonic() < deadline:
        start = time.monotonic()
        ok = await client.get(authority, path)
        latencies.append(time.monotonic() - start)
        if not ok:
            failures.append(1)


async def connection(host, port, path, cafile, streams, deadline, latencies, failures):
    config = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name="localhost")
    config.load_verify_locations(cafile)
    async with connect(host, port, configuration=config, create_protocol=Client) as client:
        authority = ("localhost:%d" % port).encode()
        await asyncio.gather(*(worker(client, authority, path.encode(), deadline, latencies, failures)
                               for _ in range(streams)))


async def main(host, port, path, cafile, connections, streams, duration):
    latencies, failures = [], []
    start = time.monotonic()
    deadline = start + duration
    await asyncio.gather(*(connection(host, port, path, cafile, streams, deadline, latencies, failures)
                           for _ in range(connections)))
    elapsed = time.monotonic() - start
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0
    print(json.dumps({"requests": len(latencies), "requests_per_s": round(len(latencies) / elapsed, 1),
                      "p50_ms": round(pick(0.50), 3), "p99_ms": round(pick(0.99), 3), "failed": len(failures)}))


if __name__ == "__main__":
    a = sys.argv[1:]
    asyncio.run(main(a[0], int(a[1]), a[2], a[3], int(a[4]), int(a[5]), float(a[6])))
