package io.loadwise.dispatcher.http;

import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.ssl.SslHandler;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLSession;

/**
 * Who a request came from, as the route and filter stages see it: the connection's peer, whether the listener
 * trusts it as a proxy ({@code trustedProxies}), and whether the client reached a TLS listener. One per client
 * connection.
 */
public final class RequestSource {

    private final String peerIp;
    private final boolean trustedPeer;
    private final boolean secure;
    /** The client connection (an HTTP/2 stream's parent holds the TLS); null in tests without one. */
    private final Channel channel;
    private String serverName;
    private boolean serverNameRead;

    public RequestSource(String peerIp, boolean trustedPeer, boolean secure) {
        this(peerIp, trustedPeer, secure, null);
    }

    public RequestSource(String peerIp, boolean trustedPeer, boolean secure, Channel channel) {
        this.peerIp = peerIp;
        this.trustedPeer = trustedPeer;
        this.secure = secure;
        this.channel = channel;
    }

    /** The host name the client asked for in its TLS handshake (SNI), or null: none, or clear text. */
    public String serverName() {
        if (!serverNameRead) {
            serverNameRead = true;
            serverName = readServerName();
        }
        return serverName;
    }

    private String readServerName() {
        for (Channel c = channel; c != null; c = c.parent()) {
            SslHandler ssl = c.pipeline().get(SslHandler.class);
            if (ssl != null) {
                SSLSession session = ssl.engine().getSession();
                if (session instanceof ExtendedSSLSession extended) {
                    for (SNIServerName name : extended.getRequestedServerNames()) {
                        if (name instanceof SNIHostName host) {
                            return host.getAsciiName();
                        }
                    }
                }
                return null;
            }
        }
        return null;
    }

    /** The connection's peer address. */
    public String peerIp() {
        return peerIp;
    }

    /** The client reached a TLS listener: {@code https} for redirects that keep the scheme. */
    public boolean secure() {
        return secure;
    }

    /**
     * The client's address: the peer's, unless the peer is a trusted proxy and names one in the last entry of
     * {@code X-Forwarded-For} (what that proxy appended: anything before it the client could have written).
     */
    public String clientIp(HttpRequest request) {
        if (!trustedPeer) {
            return peerIp;
        }
        String forwardedFor = lastValue(request);
        if (forwardedFor == null) {
            return peerIp;
        }
        int comma = forwardedFor.lastIndexOf(',');
        String last = forwardedFor.substring(comma + 1).trim();
        return isAddress(last) ? last : peerIp;
    }

    private static String lastValue(HttpRequest request) {
        java.util.List<String> all = request.headers().getAll("x-forwarded-for");
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }

    /** An IPv4 or IPv6 literal's characters only, so that a key is never more than an address. */
    private static boolean isAddress(String s) {
        if (s.isEmpty() || s.length() > 45) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '.' || c == ':')) {
                return false;
            }
        }
        return true;
    }
}
