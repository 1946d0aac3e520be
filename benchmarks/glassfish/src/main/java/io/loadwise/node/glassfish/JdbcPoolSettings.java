package io.loadwise.node.glassfish;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A container-managed JDBC connection pool and the JNDI resource that applications look up.
 *
 * @param poolName    GlassFish pool name; also the monitoring name {@code resources/<poolName>}
 * @param jndiName    JNDI name of the DataSource resource, e.g. "jdbc/TradeDB"
 * @param url         JDBC URL; H2 only (the DataSource class is chosen from it)
 * @param user        database user
 * @param password    database password, may be empty
 * @param maxPoolSize most connections the pool opens
 */
public record JdbcPoolSettings(String poolName, String jndiName, String url, String user, String password,
        int maxPoolSize) {

    /** How long a request waits for a free connection before failing, as the Tomcat node does. */
    static final int MAX_WAIT_MILLIS = 10_000;

    public JdbcPoolSettings {
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(jndiName, "jndiName");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!poolName.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("pool name must be letters, digits, '-' or '_', got '" + poolName + "'");
        }
        if (!jndiName.matches("[A-Za-z][A-Za-z0-9_/.-]*")) {
            throw new IllegalArgumentException("JNDI name must be letters, digits and '/._-', got '" + jndiName + "'");
        }
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException("maxPoolSize must be at least 1, got " + maxPoolSize);
        }
        dataSourceClass(url);
    }

    /** The DataSource implementation GlassFish instantiates for the URL. */
    static String dataSourceClass(String url) {
        if (url.startsWith("jdbc:h2:")) {
            return "org.h2.jdbcx.JdbcDataSource";
        }
        throw new IllegalArgumentException("no DataSource class known for '" + url + "': only jdbc:h2: URLs are"
                + " supported (put the H2 jar in the node's extraLibs)");
    }

    /** DataSource bean properties, in the order asadmin gets them. */
    Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("url", url);
        properties.put("user", user);
        // asadmin rejects an empty property value; GlassFish reads "()" as the empty string.
        properties.put("password", password.isEmpty() ? "()" : password);
        return properties;
    }
}
