package io.loadwise.agent.register;

import io.loadwise.agent.AgentConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where and as what the node registers itself ({@code loadwise.agent.register*}, docs/agent.md).
 *
 * @param admin the dispatcher's admin URL ({@code http://lb:8111})
 * @param cluster the cluster to join
 * @param token the registration token (never the admin token)
 * @param name the node's name in the cluster; {@code null} until the address is known when derived from it
 * @param address {@code ip:port} the dispatcher connects to; {@code null} until the server's HTTP port is known
 *     (a web application starts before the server's connector), see {@link #resolve}
 * @param host the host of a derived address
 * @param route the session route, or {@code null}
 * @param contexts the context paths served, this application's first
 * @param heartbeatMillis between two registration calls
 * @param deregisterWaitMillis how long the agent lets requests already on their way finish after deregistering
 */
public record RegistrationSettings(URI admin, String cluster, String token, String name, String address,
        String host, String route, List<String> contexts, long heartbeatMillis, long deregisterWaitMillis) {

    public static final String REGISTER = "loadwise.agent.register";
    public static final String CLUSTER = "loadwise.agent.cluster";
    public static final String TOKEN = "loadwise.agent.register.token";
    public static final String TOKEN_ENV = "LOADWISE_REGISTRATION_TOKEN";
    public static final String NAME = "loadwise.agent.name";
    public static final String ADDRESS = "loadwise.agent.address";
    public static final String HOST = "loadwise.agent.host";
    public static final String ROUTE = "loadwise.agent.route";
    public static final String CONTEXTS = "loadwise.agent.contexts";
    public static final String HEARTBEAT = "loadwise.agent.heartbeat.ms";
    public static final String DEREGISTER_WAIT = "loadwise.agent.deregister.wait.ms";

    /**
     * The settings, or {@code null} when {@value #REGISTER} is not set (the node does not register).
     *
     * @param contextPath this web application's context path ({@code ""} for the root application)
     * @param server what the server itself tells (route, HTTP port), for what the settings leave out
     * @throws IllegalArgumentException naming the setting that is missing or wrong
     */
    public static RegistrationSettings from(AgentConfig config, String contextPath, ServerFacts server) {
        Properties p = config.properties();
        String admin = value(p, REGISTER);
        if (admin == null) {
            return null;
        }
        URI uri;
        try {
            uri = URI.create(admin.endsWith("/") ? admin.substring(0, admin.length() - 1) : admin);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(REGISTER + ": '" + admin + "' is not a URL", e);
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException(REGISTER + ": '" + admin + "' must be an http:// or https:// URL "
                    + "of the dispatcher's admin endpoint");
        }
        String cluster = required(p, CLUSTER);
        String token = value(p, TOKEN);
        if (token == null) {
            String env = System.getenv(TOKEN_ENV);
            token = env == null || env.isBlank() ? null : env.strip();
        }
        if (token == null) {
            throw new IllegalArgumentException(TOKEN + " (or " + TOKEN_ENV + "): missing; the dispatcher's "
                    + "admin.registrationToken");
        }
        String route = value(p, ROUTE);
        if (route == null) {
            route = server.route();
        }
        String address = value(p, ADDRESS);
        String host = value(p, HOST);
        if (host == null) {
            host = server.host();
        }
        String name = value(p, NAME);
        if (name == null && route != null) {
            name = route;
        }
        List<String> contexts = new ArrayList<>();
        contexts.add(contextPath == null || contextPath.isEmpty() ? "/" : contextPath);
        String extra = value(p, CONTEXTS);
        if (extra != null) {
            for (String c : extra.split(",")) {
                if (!c.isBlank() && !contexts.contains(c.strip())) {
                    contexts.add(c.strip());
                }
            }
        }
        long heartbeat = positive(p, HEARTBEAT, 5_000);
        long wait = positive(p, DEREGISTER_WAIT, 1_000);
        return new RegistrationSettings(uri, cluster, token, name, address, host, route, List.copyOf(contexts),
                heartbeat, wait).resolve(server);
    }

    /**
     * These settings with the address (and a name derived from it) filled in from the server's HTTP port once
     * it is known; unchanged while it is not.
     */
    public RegistrationSettings resolve(ServerFacts server) {
        if (address != null && name != null) {
            return this;
        }
        String a = address;
        if (a == null) {
            int port = server.httpPort();
            if (port <= 0) {
                return this;
            }
            a = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
        String n = name != null ? name : a.replace(':', '-').replace("[", "").replace("]", "");
        return new RegistrationSettings(admin, cluster, token, n, a, host, route, contexts, heartbeatMillis,
                deregisterWaitMillis);
    }

    /** Whether name and address are known. */
    public boolean resolved() {
        return address != null && name != null;
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null || v.isBlank() ? null : v.strip();
    }

    private static String required(Properties p, String key) {
        String v = value(p, key);
        if (v == null) {
            throw new IllegalArgumentException(key + ": missing (needed with " + REGISTER + ")");
        }
        return v;
    }

    private static long positive(Properties p, String key, long defaultValue) {
        String v = value(p, key);
        if (v == null) {
            return defaultValue;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + " must be a whole number of milliseconds, got '" + v + "'");
    }

    /** The JSON body of a registration call. */
    String json() {
        StringBuilder b = new StringBuilder("{\"name\":").append(quote(name)).append(",\"address\":")
                .append(quote(address));
        if (route != null) {
            b.append(",\"route\":").append(quote(route));
        }
        b.append(",\"contexts\":[");
        for (int i = 0; i < contexts.size(); i++) {
            b.append(i == 0 ? "" : ",").append(quote(contexts.get(i)));
        }
        return b.append("]}").toString();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
