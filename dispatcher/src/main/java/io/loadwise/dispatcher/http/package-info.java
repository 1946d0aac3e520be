/**
 * The L7 side of the dispatcher: {@link io.loadwise.dispatcher.http.HttpProxyServer}, an HTTP/1.1 reverse
 * proxy for one virtual cluster.
 *
 * <p>Shape: a client connection's pipeline is {@link io.loadwise.dispatcher.http.codec.ClientCodec}
 * (the strict request decoder, which decides each body's framing once; it also counts the bytes and tracks
 * the drain of hot reload, so that messages cross as few handlers as possible; with TLS a bytes meter and
 * the TLS handler come first),
 * {@link io.loadwise.dispatcher.http.FrontendHandler} (the connection: queueing, pausing, idle timeout),
 * which runs each request head through the route stage ({@link io.loadwise.dispatcher.http.RouteStage}) and
 * the filters ({@link io.loadwise.dispatcher.http.HttpFilters}), then hands it to one reusable
 * {@link io.loadwise.dispatcher.http.Exchange} per connection: the relay, which gets its node from a
 * {@code acquire.NodeAcquisition} (admit, queue, pick, retry), moves the request and the response
 * ({@link io.loadwise.dispatcher.http.ResponseRelay}) and keeps its deadlines in
 * {@link io.loadwise.dispatcher.http.ExchangeDeadlines}. Node connections come from
 * {@link io.loadwise.dispatcher.http.NodePool}s (codec {@link io.loadwise.dispatcher.http.codec.NodeCodec}),
 * one per event loop and node, and are always made on the client connection's event loop, so an exchange
 * never crosses threads and needs no locks. With {@code sendProxyProtocol} they are private to one client
 * connection instead ({@link io.loadwise.dispatcher.http.PrivateConnections}), still counted by that pool. HTTP/2 builds on this package through
 * {@link io.loadwise.dispatcher.http.Http2Support}; this package does not depend on {@code http2}.
 *
 * <p>Decisions worth knowing:
 * <ul>
 *   <li>Bodies are never aggregated: chunks are relayed as they come, with backpressure by toggling the
 *       peer's auto-read on writability (64 KB high water mark).
 *   <li>{@code Expect: 100-continue} is forwarded and the node's {@code 100} relayed, so a node that
 *       refuses a request does so before the client sends the body.
 *   <li>Hop-by-hop headers are dropped both ways, but never the framing headers or Host, whatever
 *       {@code Connection} names: the request's framing is written from the decoder's decision.
 *       {@code X-Forwarded-For} and {@code Forwarded} are appended to for trusted proxies and replaced
 *       otherwise; {@code X-Forwarded-Proto} and {@code -Host} are set, this dispatcher being the edge.
 *   <li>After a {@code 101} both codecs are removed and raw bytes relayed ({@link
 *       io.loadwise.dispatcher.http.TunnelRelay}).
 *   <li>A connect failure marks the node down for the cluster's retry interval (and, once the node is gated,
 *       until its application answers: {@code monitor.Readiness}) and the request goes to another node
 *       (nothing was sent yet); once a request was sent, a lost node means {@code 502}, unless the cluster's
 *       {@code retryOn} names the failure and the request can be sent again ({@link
 *       io.loadwise.dispatcher.http.Replay}).
 *   <li>The response timeout runs from the end of the request (an upload that keeps moving does not time
 *       out) to the response head. It, the header, request-idle, response-idle, exchange and idle
 *       timeouts are all checked by one timer per connection, not per request.
 * </ul>
 */
package io.loadwise.dispatcher.http;
