#!/usr/bin/env python3
"""Opens N keep-alive connections to 127.0.0.1:PORT, makes one request on each and reads its response,
then holds them all open (idle) until killed. Touches READY_FILE once every connection has its answer.
With FIRST and SOURCES, each socket is bound (before connect) to one of SOURCES loopback source addresses
127.0.0.FIRST, 127.0.0.FIRST+1, ... in turn: one source address has only ~28k ephemeral ports towards one
port, so more connections than that need several (bench scale spreads 100,000 over 127.0.0.2..N).

    idle_connections.py PORT N READY_FILE [FIRST SOURCES]
"""
import signal
import resource
import selectors
import socket
import sys

port, count, ready = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
first, sources = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0, 0)
IP_BIND_ADDRESS_NO_PORT = 24  # Linux: pick the port at connect, by the whole 4-tuple, not at bind
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 100)), hard))
request = b"GET /1k.html HTTP/1.1\r\nHost: bench\r\n\r\n"
selector = selectors.DefaultSelector()
sockets = []
pending = {}
batch = 500  # connect in batches so that the proxy's accept queue never overflows
opened = 0
while opened < count or pending:
    while opened < count and len(pending) < batch:
        if sources:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
            s.bind((f"127.0.0.{first + opened % sources}", 0))
            s.connect(("127.0.0.1", port))
        else:
            s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request)
        s.setblocking(False)
        sockets.append(s)
        pending[s] = b""
        selector.register(s, selectors.EVENT_READ)
        opened += 1
    for key, _ in selector.select(timeout=10):
        s = key.fileobj
        data = s.recv(65536)
        if not data:
            sys.exit(f"connection closed by the proxy after {opened} opened")
        got = pending[s] + data
        head, sep, body = got.partition(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), None)
        if sep and length is not None and len(body) >= length:
            if not head.startswith(b"HTTP/1.1 200"):
                sys.exit("unexpected answer: " + head.split(b"\r\n", 1)[0].decode(errors="replace"))
            selector.unregister(s)
            del pending[s]
        else:
            pending[s] = got
open(ready, "w").close()
while True:
    signal.pause()
