package io.loadwise.dispatcher.config;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * TLS from the dispatcher to the nodes of a cluster ({@code "nodeTls"}).
 *
 * @param ca PEM file of the CA certificates node certificates must chain to; default the JDK's trust store
 * @param verifyHostname whether the node's certificate must name the host of its address; default true
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeTlsConfig(String ca, Boolean verifyHostname) {

    public boolean verifyHostnameOrDefault() {
        return verifyHostname == null || verifyHostname;
    }
}
