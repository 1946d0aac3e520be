package io.loadwise.dispatcher.adversarial;

import io.loadwise.dispatcher.adversarial.NodeRequest.Header;
import java.util.List;

/**
 * One response as the raw client read it.
 *
 * @param complete false when the connection ended before the body's framing said it was over
 */
record ClientResponse(String statusLine, List<Header> headers, byte[] body, List<Header> trailers,
        boolean complete) {

    int status() {
        String[] parts = statusLine.split(" ", 3);
        return parts.length > 1 && parts[1].length() == 3 ? Integer.parseInt(parts[1]) : -1;
    }

    List<String> values(String name) {
        return NodeRequest.valuesIn(headers, name);
    }

    List<String> trailerValues(String name) {
        return NodeRequest.valuesIn(trailers, name);
    }

    @Override
    public String toString() {
        return statusLine + " " + headers + " body " + Escapes.show(body) + (trailers.isEmpty() ? "" : " trailers "
                + trailers) + (complete ? "" : " (cut off)");
    }
}
