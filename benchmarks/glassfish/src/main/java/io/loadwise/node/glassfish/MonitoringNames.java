package io.loadwise.node.glassfish;

/**
 * ObjectNames of the GlassFish 7 AMX MBeans that carry the seed's application-server metrics (see
 * docs/glassfish.md). They exist only after {@code bootAMX} was invoked on {@link #BOOT_AMX} and while
 * the module's monitoring level is LOW or HIGH. Monitoring attributes are lower-case and hold
 * {@code CountStatistic} (field {@code count}) or {@code RangeStatistic} (field {@code current})
 * composite data; configuration attributes are CamelCase strings.
 */
public final class MonitoringNames {

    /** Invoke {@code bootAMX} (no arguments) here once; it returns {@code amx:pp=,type=domain-root}. */
    public static final String BOOT_AMX = "amx-support:type=boot-amx";

    private static final String MON = "amx:pp=/mon/server-mon[server],";

    private MonitoringNames() {
    }

    /** currentthreadsbusy, maxthreads, corethreads, currentthreadcount (CountStatistic); needs http-service. */
    public static String threadPool(String listener) {
        return MON + "type=thread-pool-mon,name=network/" + listener + "/thread-pool";
    }

    /** countqueued, maxqueued, countqueued{1minute,5minutes,15minutes}average, countopenconnections, countoverflows. */
    public static String connectionQueue(String listener) {
        return MON + "type=connection-queue-mon,name=network/" + listener + "/connection-queue";
    }

    /** maxrequests, countconnections, countrefusals, counttimeouts; needs http-service. */
    public static String keepAlive(String listener) {
        return MON + "type=keep-alive-mon,name=network/" + listener + "/keep-alive";
    }

    /** countrequests, errorcount, maxtime (ms), processingtime (average ms) of virtual server "server". */
    public static String httpRequests() {
        return MON + "type=request-mon,name=http-service/server/request";
    }

    /** requestcount, errorcount, maxtime, processingtime of all web applications; needs web-container. */
    public static String webRequests() {
        return MON + "type=web-request-mon,name=web/request";
    }

    /** activesessionscurrent (RangeStatistic) of all web applications; needs web-container. */
    public static String sessions() {
        return MON + "type=session-mon,name=web/session";
    }

    /** numconnused, numconnfree (RangeStatistic), waitqueuelength, numconnacquired; needs jdbc-connection-pool. */
    public static String jdbcPool(String pool) {
        return MON + "type=jdbc-connection-pool-mon,name=resources/" + pool;
    }

    /** Configuration: MaxPoolSize, SteadyPoolSize (strings). The monitoring MBean has no maximum. */
    public static String jdbcPoolConfig(String pool) {
        return "amx:pp=/domain/resources,type=jdbc-connection-pool,name=" + pool;
    }

    /** usedheapsize-count, maxheapsize-count (bytes); needs jvm. */
    public static String memory() {
        return MON + "type=memory-mon,name=jvm/memory";
    }
}
