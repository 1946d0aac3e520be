package io.loadwise.dispatcher.http.codec;

import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpRequestEncoder;

/**
 * The node side's HTTP/1.1 codec: the strict {@link ResponseDecoder} and Netty's request encoder. A node
 * connection carries one request at a time, so the decoder is told directly whether the request was a
 * HEAD, and can say whether bytes are left over after a response: a node that sends more than one
 * response per request must not have the extra bytes handed to the next request on the connection.
 */
public final class NodeCodec extends CombinedChannelDuplexHandler<ResponseDecoder, HttpRequestEncoder> {

    public NodeCodec(int maxHeadBytes) {
        init(new ResponseDecoder(maxHeadBytes), new HttpRequestEncoder());
    }

    /** The next response answers a HEAD request (or not). */
    public void expectResponseTo(boolean head) {
        inboundHandler().expectResponseTo(head);
    }

    /** Whether the decoder holds bytes it has not turned into messages yet. */
    public boolean hasLeftoverBytes() {
        return inboundHandler().leftover() > 0;
    }
}
