/**
 * The L7 side of the dispatcher: {@link io.loadwise.dispatcher.http.HttpProxyServer}, an HTTP/1.1 reverse
 * proxy for one virtual cluster.
 *
 * <p>Shape: a client connection's pipeline is bytes meter, {@code HttpServerCodec},
 * {@link io.loadwise.dispatcher.http.FrontendHandler} (the connection: queueing, pausing, idle timeout,
 * per-connection binding), which drives one reusable {@link io.loadwise.dispatcher.http.Exchange} per
 * connection (one request's life: node choice, connection, relay, errors, counters). Node connections
 * come from {@link io.loadwise.dispatcher.http.NodePool}s, one per event loop and node, and are always
 * made on the client connection's event loop, so an exchange never crosses threads and needs no locks.
 *
 * <p>Decisions worth knowing:
 * <ul>
 *   <li>Bodies are never aggregated: chunks are relayed as they come, with backpressure by toggling the
 *       peer's auto-read on writability (64 KB high water mark).
 *   <li>{@code Expect: 100-continue} is forwarded and the node's {@code 100} relayed, so a node that
 *       refuses a request does so before the client sends the body.
 *   <li>Hop-by-hop headers are dropped both ways, except {@code Transfer-Encoding}: each codec frames
 *       its own side from it. {@code X-Forwarded-For} is appended to; {@code X-Forwarded-Proto} and
 *       {@code -Host} are set, this dispatcher being the edge.
 *   <li>After a {@code 101} both codecs are removed and raw bytes relayed ({@link
 *       io.loadwise.dispatcher.http.TunnelRelay}).
 *   <li>A connect failure marks the node down for the cluster's retry interval and the request goes to
 *       another node (nothing was sent yet); once a request was sent, a lost node means {@code 502}.
 *   <li>The response timeout runs from the end of the request (an upload that keeps moving does not time
 *       out) to the response head; it and the idle timeout are checked by timers armed once per
 *       connection, not per request.
 * </ul>
 */
package io.loadwise.dispatcher.http;
