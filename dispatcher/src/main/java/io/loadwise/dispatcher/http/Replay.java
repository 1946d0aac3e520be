package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.http.codec.ProxiedRequest;
import io.netty.handler.codec.http.HttpMethod;

/**
 * Whether a request whose node failed before any response byte may be sent again, to another node
 * (issue 15, item 5). Only what the proxy can send again whole, and only what the first node cannot have
 * acted on in a way a second attempt would repeat:
 * <ul>
 *   <li>an idempotent request (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, PUT, DELETE, and TRACE) without a body:
 *   its head is all there is, and the proxy still has it;</li>
 *   <li>any request with a body of which no byte went to the node yet: the node had only a head that
 *   announced a body, which no server acts on before the body arrives; the body then goes to the second
 *   node as it comes.</li>
 * </ul>
 * A request with a body partly or wholly sent is never replayed (the proxy keeps no copy of a body), nor
 * a bodyless POST or PATCH, which the node may have acted on.
 */
final class Replay {

    private Replay() {
    }

    static boolean idempotent(HttpMethod method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method) || HttpMethod.OPTIONS.equals(method)
                || HttpMethod.PUT.equals(method) || HttpMethod.DELETE.equals(method)
                || HttpMethod.TRACE.equals(method);
    }

    /**
     * @param bodyPiecesSent pieces of the body written to the node so far (the empty last piece of a
     *     bodyless request counts)
     */
    static boolean allowed(ProxiedRequest head, long bodyPiecesSent) {
        if (head.upgrade()) {
            return false; // the client may already speak the new protocol
        }
        return head.bodyless() ? idempotent(head.method()) : bodyPiecesSent == 0;
    }
}
