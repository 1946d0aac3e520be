package io.loadwise.node.tomcat;

import org.apache.tomcat.util.descriptor.web.ContextResource;

/**
 * The container-managed {@code jdbc/TradeDB} resource: a Tomcat DBCP pool ({@code BasicDataSource})
 * that the trade app reaches through its web.xml resource-ref. Tomcat's NamingContextListener
 * registers it as the MBean {@code Catalina:type=DataSource,...}, whose {@code numActive},
 * {@code numIdle} and {@code maxTotal} the agent reads.
 */
final class TradeDataSourceResource {

    static final String NAME = "jdbc/TradeDB";

    private TradeDataSourceResource() {
    }

    /** The pool of {@code poolSize} connections; a borrower waits at most {@code maxWaitMillis}, then fails. */
    static ContextResource create(String jdbcUrl, int poolSize, long maxWaitMillis) {
        ContextResource resource = new ContextResource();
        resource.setName(NAME);
        resource.setType("javax.sql.DataSource");
        resource.setAuth("Container");
        resource.setScope("Shareable");
        resource.setCloseMethod("close");
        resource.setProperty("factory", "org.apache.tomcat.dbcp.dbcp2.BasicDataSourceFactory");
        resource.setProperty("driverClassName", driverFor(jdbcUrl));
        resource.setProperty("url", jdbcUrl);
        resource.setProperty("username", "sa");
        resource.setProperty("password", "");
        resource.setProperty("maxTotal", Integer.toString(poolSize));
        resource.setProperty("maxIdle", Integer.toString(poolSize));
        resource.setProperty("minIdle", "0");
        resource.setProperty("initialSize", "0");
        resource.setProperty("maxWaitMillis", Long.toString(maxWaitMillis));
        resource.setProperty("testOnBorrow", "true");
        return resource;
    }

    /** H2 is the driver the launcher ships. */
    private static String driverFor(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:h2:")) {
            return "org.h2.Driver";
        }
        throw new IllegalArgumentException("no JDBC driver known for " + jdbcUrl + ": use a jdbc:h2: URL");
    }
}
