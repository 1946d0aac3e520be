package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A listener's {@code proxyProtocol}: the PROXY protocol header (v1 text, v2 binary) that an L4 balancer in
 * front (AWS NLB, HAProxy {@code send-proxy-v2}) puts before the client's bytes. From a trusted source the
 * header is required and its source address becomes the client's; from every other source a header is
 * refused (the connection is closed).
 *
 * @param accept {@code v1}, {@code v2} or {@code any}; default {@code any}
 * @param trustedSources IP addresses or CIDR blocks of the balancers; required, not empty
 * @param headerTimeoutMs the header must arrive whole within this long of the connection; default 3 s
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProxyProtocolConfig(String accept, List<String> trustedSources, Integer headerTimeoutMs) {

    public static final int DEFAULT_HEADER_TIMEOUT_MS = 3_000;

    public String acceptOrDefault() {
        return accept == null ? "any" : accept;
    }

    public List<String> trustedSourcesOrEmpty() {
        return trustedSources == null ? List.of() : trustedSources;
    }

    public int headerTimeoutMsOrDefault() {
        return headerTimeoutMs == null ? DEFAULT_HEADER_TIMEOUT_MS : headerTimeoutMs;
    }

    /** What the listener runs with; call after validation. */
    public io.loadwise.dispatcher.net.ProxyProtocolSettings settings() {
        return new io.loadwise.dispatcher.net.ProxyProtocolSettings(
                io.loadwise.dispatcher.net.ProxyProtocolSettings.Accept.parse(acceptOrDefault()),
                io.loadwise.dispatcher.net.AddressBlock.parseAll(trustedSourcesOrEmpty()), headerTimeoutMsOrDefault(),
                io.loadwise.dispatcher.net.ProxyProtocolSettings.DEFAULT_MAX_TLV_BYTES);
    }
}
