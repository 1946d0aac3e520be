package io.loadwise.dispatcher.http.codec;

import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;

/**
 * The node side's HTTP/1.1 codec. A node connection carries one request at a time, so the response
 * decoder is told directly whether the request was a HEAD, and can say whether bytes are left over after
 * a response: a node that sends more than one response per request must not have the extra bytes
 * handed to the next request that reuses the connection.
 */
public final class NodeCodec extends CombinedChannelDuplexHandler<NodeCodec.ResponseDecoder, HttpRequestEncoder> {

    public NodeCodec(HttpDecoderConfig config) {
        init(new ResponseDecoder(config), new HttpRequestEncoder());
    }

    /** The next response answers a HEAD request (or not). */
    public void expectResponseTo(boolean head) {
        inboundHandler().head = head;
    }

    /** Whether the decoder holds bytes it has not turned into messages yet. */
    public boolean hasLeftoverBytes() {
        return inboundHandler().leftover() > 0;
    }

    static final class ResponseDecoder extends HttpResponseDecoder {

        private boolean head;

        ResponseDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            int code = ((HttpResponse) msg).status().code();
            if (code >= 200 && head) {
                return true;
            }
            return super.isContentAlwaysEmpty(msg);
        }

        int leftover() {
            return actualReadableBytes();
        }
    }
}
