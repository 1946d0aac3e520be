package io.loadwise.dispatcher.metrics;

/**
 * What a listener's HTTP/3 (QUIC) side counted since it started: an immutable reading.
 *
 * @param connections QUIC connections accepted (address validated, handshake begun)
 * @param open QUIC connections open now
 * @param connectionsRefused connections closed at once: the client address held its limit, or the listener its
 * @param retries Retry packets sent (address validation, one per first Initial)
 * @param invalidTokens Initials whose token was forged, expired, for another address or malformed (dropped)
 * @param streams request streams opened
 * @param streamsRefused request streams refused: malformed (H3_MESSAGE_ERROR) or answered by the adapter itself
 * @param excessiveLoad connections closed with H3_EXCESSIVE_LOAD: too many streams abandoned (a reset flood)
 */
public record QuicCounts(long connections, long open, long connectionsRefused, long retries, long invalidTokens,
        long streams, long streamsRefused, long excessiveLoad) {
}
