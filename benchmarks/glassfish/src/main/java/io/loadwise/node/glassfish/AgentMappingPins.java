package io.loadwise.node.glassfish;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loadwise agent mappings ({@code jmx.map.*}, docs/agent.md) that pin the agent's GlassFish adapter to
 * the HTTP listener and JDBC pool this provisioner set up. Wildcards are wrong on a real domain:
 * {@code http-listener-*} also sums the idle HTTPS listener's own thread pool and queue, and every
 * domain has two more JDBC pools (DerbyPool, __TimerPool) whose maximum sizes would swell
 * AMX_JDBC_MAXC. The request counter of {@code request-mon} is {@code countrequests}.
 */
final class AgentMappingPins {

    private AgentMappingPins() {
    }

    /** The mappings as a properties file body for {@code loadwise.agent.config}. */
    static String properties(String listener, String pool) {
        StringBuilder text = new StringBuilder("# Written by the Loadwise GlassFish provisioner: listener ")
                .append(listener).append(", pool ").append(pool).append('\n');
        for (Map.Entry<String, String> mapping : mappings(listener, pool).entrySet()) {
            text.append("jmx.map.").append(mapping.getKey()).append(" = ")
                    .append(mapping.getValue()).append('\n');
        }
        return text.toString();
    }

    static Map<String, String> mappings(String listener, String pool) {
        String threads = "amx:type=thread-pool-mon,name=network/" + listener + "/thread-pool,* | ";
        String queue = "amx:type=connection-queue-mon,name=network/" + listener + "/connection-queue,* | ";
        Map<String, String> m = new LinkedHashMap<>();
        m.put("AMX_CONNS_Q_THRDSMAX", threads + "maxthreads");
        m.put("AMX_CONNS_Q_THRDSMIN", threads + "corethreads");
        m.put("AMX_CONNS_Q_THRBSY", threads + "currentthreadsbusy");
        m.put("AMX_CONNS_Q_THRBSY%", threads + "currentthreadsbusy / maxthreads");
        m.put("AMX_CONNS_OPEN", queue + "countopenconnections");
        m.put("AMX_CONNS_DENIED", queue + "countoverflows");
        m.put("AMX_CONNS_QD", queue + "countqueued");
        m.put("AMX_CONNS_QD_1MAVE", queue + "countqueued1minuteaverage");
        m.put("AMX_CONNS_QD_5MAVE", queue + "countqueued5minutesaverage");
        m.put("AMX_CONNS_QD_15MAVE", queue + "countqueued15minutesaverage");
        m.put("AMX_CONNS_Q_MAXSIZE", queue + "maxqueued");
        m.put("AMX_CONNS_Q_USED%", queue + "countqueued / maxqueued");
        m.put("AMX_CONNS_KEEPALVMAX", "amx:type=keep-alive-mon,name=network/" + listener + "/keep-alive,* | maxrequests");
        m.put("AMX_RQST_TOTAL", "amx:type=request-mon,name=http-service/server/request,* | countrequests");
        m.put("AMX_JDBC_ACTC", "amx:type=jdbc-connection-pool-mon,name=resources/" + pool + ",* | numconnused");
        m.put("AMX_JDBC_MAXC", "amx:type=jdbc-connection-pool,name=" + pool + ",* | MaxPoolSize");
        return m;
    }
}
