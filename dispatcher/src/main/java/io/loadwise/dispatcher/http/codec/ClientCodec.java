package io.loadwise.dispatcher.http.codec;

import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpStatusClass;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * The client side's HTTP/1.1 codec: the strict {@link RequestDecoder} and a response encoder that knows
 * which responses answer a HEAD (their body is never written, whatever their headers announce).
 */
public final class ClientCodec extends CombinedChannelDuplexHandler<RequestDecoder, HttpResponseEncoder> {

    public ClientCodec(int maxHeadBytes) {
        Queue<HttpMethod> methods = new ArrayDeque<>(4);
        init(new RequestDecoder(maxHeadBytes, methods), new ResponseEncoder(methods));
    }

    public RequestDecoder requestDecoder() {
        return inboundHandler();
    }

    /** Pairs each final response with the method of the request it answers, in order. */
    private static final class ResponseEncoder extends HttpResponseEncoder {

        private final Queue<HttpMethod> methods;

        ResponseEncoder(Queue<HttpMethod> methods) {
            this.methods = methods;
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpResponse msg) {
            if (msg.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                return super.isContentAlwaysEmpty(msg);
            }
            HttpMethod method = methods.poll();
            return HttpMethod.HEAD.equals(method) || super.isContentAlwaysEmpty(msg);
        }
    }
}
