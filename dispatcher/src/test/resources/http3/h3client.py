"""An HTTP/3 test client on aioquic's API, for the dispatcher's HTTP/3 tests (Http3EndToEndTest).

Reads one JSON job on stdin, sends its requests concurrently on one QUIC connection, prints one JSON result:
{"retry": n, "peerCertificate": subject, "responses": [{"status", "headers", "body", "reset", "error"}...], "terminated": {...} | null}.

Job fields: host, port, serverName, cafile, timeout (s), requests [{method, path, headers [[n, v]], body}],
token (hex: an address-validation token to send in the first Initial), violateStreamLimit (open streams beyond
the server's initial_max_streams_bidi), connectionIds (issue this many connection IDs to the server), resetStreams
(open this many request streams and reset each right after its head), replay (resume the session on a second
connection and send the first request on it; reports whether it resumed and whether early data was accepted),
awaitClose (after the answers, wait for the server to end the connection, up to the timeout).
"""
import asyncio
import json
import sys

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import ConnectionTerminated, StreamReset


class Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.h3 = H3Connection(self._quic)
        self.waiters = {}
        self.terminated = None
        self.closed = asyncio.Event()

    def quic_event_received(self, event):
        if isinstance(event, ConnectionTerminated):
            self.terminated = {"errorCode": event.error_code, "reason": event.reason_phrase}
            self.closed.set()
            for fut, resp in self.waiters.values():
                if not fut.done():
                    resp["error"] = "connection closed: %d" % event.error_code
                    fut.set_result(resp)
            return
        if isinstance(event, StreamReset):
            waiter = self.waiters.get(event.stream_id)
            if waiter and not waiter[0].done():
                waiter[1]["reset"] = event.error_code
                waiter[0].set_result(waiter[1])
        for e in self.h3.handle_event(event):
            waiter = self.waiters.get(getattr(e, "stream_id", None))
            if waiter is None:
                continue
            fut, resp = waiter
            if isinstance(e, HeadersReceived):
                fields = [[n.decode(), v.decode()] for n, v in e.headers]
                if "status" not in resp:
                    resp["status"] = int(dict(fields)[":status"])
                    resp["headers"] = [f for f in fields if not f[0].startswith(":")]
                else:
                    resp["trailers"] = fields
            elif isinstance(e, DataReceived):
                resp["body"] += e.data.decode("latin-1")
            if getattr(e, "stream_ended", False) and not fut.done():
                fut.set_result(resp)

    def start(self, authority, spec):
        stream_id = self._quic.get_next_available_stream_id()
        body = spec.get("body")
        headers = [(b":method", spec.get("method", "GET").encode()), (b":scheme", b"https"),
                   (b":authority", authority.encode()), (b":path", spec["path"].encode())]
        headers += [(n.encode(), v.encode()) for n, v in spec.get("headers", [])]
        self.h3.send_headers(stream_id, headers, end_stream=body is None)
        if body is not None:
            self.h3.send_data(stream_id, body.encode("latin-1"), end_stream=True)
        fut = asyncio.get_running_loop().create_future()
        self.waiters[stream_id] = (fut, {"body": ""})
        return fut


async def replay(job, ticket):
    """A second connection resuming the first's session (the server's tickets say whether 0-RTT is allowed)."""
    config = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, idle_timeout=job.get("timeout", 10),
                               server_name=job.get("serverName", "localhost"))
    config.load_verify_locations(job["cafile"])
    config.session_ticket = ticket
    async with connect(job["host"], job["port"], configuration=config, create_protocol=Client,
                       wait_connected=True) as client:
        authority = "%s:%d" % (job.get("serverName", "localhost"), job["port"])
        responses = [await asyncio.wait_for(client.start(authority, spec), job.get("timeout", 10))
                     for spec in job.get("requests", [])[:1]]
        return {"resumed": client._quic.tls.session_resumed,
                "earlyDataAccepted": client._quic.tls.early_data_accepted, "responses": responses}


async def run(job):
    timeout = job.get("timeout", 10)
    config = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, idle_timeout=timeout,
                               server_name=job.get("serverName", "localhost"))
    config.load_verify_locations(job["cafile"])
    if job.get("token"):
        config.token = bytes.fromhex(job["token"])
    result = {"retry": 0, "responses": [], "terminated": None}
    tickets = []
    try:
        async with connect(job["host"], job["port"], configuration=config, create_protocol=Client,
                           session_ticket_handler=tickets.append, wait_connected=True) as client:
            quic = client._quic
            result["retry"] = quic._retry_count
            peer = getattr(quic.tls, "_peer_certificate", None)
            result["peerCertificate"] = peer.subject.rfc4514_string() if peer is not None else None
            if job.get("violateStreamLimit"):
                quic._remote_max_streams_bidi = 1 << 20
            if job.get("connectionIds"):
                quic._remote_active_connection_id_limit = job["connectionIds"]
                quic._replenish_connection_ids()
            authority = "%s:%d" % (job.get("serverName", "localhost"), job["port"])
            if job.get("resetStreams"):  # a rapid-reset flood: request heads, each stream reset at once
                for i in range(job["resetStreams"]):
                    stream_id = quic.get_next_available_stream_id()
                    client.h3.send_headers(stream_id, [(b":method", b"GET"), (b":scheme", b"https"),
                                                       (b":authority", authority.encode()),
                                                       (b":path", b"/reset/%d" % i)], end_stream=False)
                    quic.reset_stream(stream_id, 0x10C)  # H3_REQUEST_CANCELLED
                    if i % 20 == 19:
                        client.transmit()
                        await asyncio.sleep(0)
            futures = [client.start(authority, spec) for spec in job.get("requests", [])]
            client.transmit()
            if futures:
                done = await asyncio.wait_for(asyncio.gather(*futures), timeout)
                if job.get("awaitClose"):  # then wait for the server to end the connection (a drain)
                    try:
                        await asyncio.wait_for(client.closed.wait(), timeout)
                    except asyncio.TimeoutError:
                        pass
            else:
                try:  # nothing to ask: wait for the server to end the connection, or the timeout
                    await asyncio.wait_for(client.closed.wait(), timeout)
                except asyncio.TimeoutError:
                    pass
                done = []
            result["responses"] = done
            result["terminated"] = client.terminated
        result["tickets"] = [t.max_early_data_size for t in tickets]
        if job.get("replay") and tickets:
            result["replay"] = await replay(job, tickets[-1])
    except Exception as e:  # noqa: BLE001 - the test reads the failure
        result["error"] = "%s: %s" % (type(e).__name__, e)
    return result


if __name__ == "__main__":
    job = json.load(sys.stdin)
    print(json.dumps(asyncio.run(run(job))))
