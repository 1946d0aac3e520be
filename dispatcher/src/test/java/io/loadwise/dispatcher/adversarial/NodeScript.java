package io.loadwise.dispatcher.adversarial;

import java.io.IOException;
import java.io.OutputStream;

/** How the raw node answers: called on the node's connection thread, in request order per connection. */
interface NodeScript {

    /** What the node connection does after an answer. */
    enum After {
        /** Parse and answer the next request. */
        KEEP,
        /** Close the connection. */
        CLOSE,
        /** Answer nothing more, but keep reading (and recording) until the proxy closes. */
        STALL,
        /** From now on echo every byte back: a tunnel after {@code 101}. */
        ECHO
    }

    /** The head was parsed; the body (if any) has not been read. A real server sends {@code 100 Continue} here. */
    default void onHead(NodeRequest head, OutputStream out) throws IOException {
        if (head.expectsContinue()) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            out.flush();
        }
    }

    /** Answers a complete request. */
    After answer(NodeRequest request, OutputStream out) throws IOException;

    /** {@code 200} with the request line as the body: the proxy's routing shows in what the client reads. */
    static byte[] echoLine(NodeRequest request) {
        byte[] body = request.requestLine().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        String head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    /** The default node: answers every request with {@link #echoLine} and keeps the connection. */
    NodeScript ECHO_LINE = (request, out) -> {
        out.write(echoLine(request));
        out.flush();
        return After.KEEP;
    };
}
