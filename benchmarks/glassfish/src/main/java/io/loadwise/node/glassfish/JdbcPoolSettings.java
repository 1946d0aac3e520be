package io.loadwise.node.glassfish;

import java.util.Objects;

/**
 * A container-managed JDBC connection pool and the JNDI resource that applications look up, rendered as
 * a {@code glassfish-resources.xml} for {@code asadmin add-resources}. That file, unlike
 * {@code create-jdbc-connection-pool --property}, can say "empty password", which the trade database's
 * {@code sa} user has and without which GlassFish refuses to open connections.
 *
 * @param poolName    GlassFish pool name; also the monitoring name {@code resources/<poolName>}
 * @param jndiName    JNDI name of the DataSource resource, e.g. "jdbc/TradeDB"
 * @param url         JDBC URL; H2 only (the DataSource class is chosen from it)
 * @param user        database user
 * @param password    database password, may be empty
 * @param maxPoolSize most connections the pool opens
 * @param maxWaitMillis how long a request waits for a free connection before failing (max-wait-time-in-millis)
 */
public record JdbcPoolSettings(String poolName, String jndiName, String url, String user, String password,
        int maxPoolSize, long maxWaitMillis) {

    /** How long a request waits for a free connection before failing by default, as the Tomcat node does. */
    public static final long MAX_WAIT_MILLIS = 10_000;

    /** A pool with the default wait. */
    public JdbcPoolSettings(String poolName, String jndiName, String url, String user, String password, int maxPoolSize) {
        this(poolName, jndiName, url, user, password, maxPoolSize, MAX_WAIT_MILLIS);
    }

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
        if (maxWaitMillis < 1) {
            throw new IllegalArgumentException("maxWaitMillis must be at least 1, got " + maxWaitMillis);
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

    /** The pool (connections opened on demand, up to the maximum) and its resource. */
    String resourcesXml() {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE resources PUBLIC "-//GlassFish.org//DTD GlassFish Application Server 3.1 Resource Definitions//EN" \
                "http://glassfish.org/dtds/glassfish-resources_1_5.dtd">
                <resources>
                  <jdbc-connection-pool name="%s" res-type="javax.sql.DataSource" datasource-classname="%s"
                      steady-pool-size="0" max-pool-size="%d" max-wait-time-in-millis="%d">
                    <property name="url" value="%s"/>
                    <property name="user" value="%s"/>
                    <property name="password" value="%s"/>
                  </jdbc-connection-pool>
                  <jdbc-resource jndi-name="%s" pool-name="%s"/>
                </resources>
                """.formatted(poolName, dataSourceClass(url), maxPoolSize, maxWaitMillis, xml(url), xml(user),
                xml(password), jndiName, poolName);
    }

    private static String xml(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}
