package io.loadwise.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.jmx.InvalidMappingException;
import io.loadwise.agent.sample.MetricsSnapshot;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.SeedMetric;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The assembled agent on this JVM's platform MBean server and /proc, without a servlet container. */
class AgentRuntimeTest {

    @Test
    void fullSampleHasEveryJvmMetricAndOperatorMappedAppServerMetrics() {
        Properties p = new Properties();
        p.setProperty(AgentConfig.OS_SOURCE, "java");
        p.setProperty(AgentConfig.JMX_ADAPTER, "none");
        // a worked mapping against a platform MBean every JVM has
        p.setProperty("jmx.map.AMX_CONNS_Q_THRBSY", "java.lang:type=Threading | ThreadCount");
        p.setProperty("jmx.map.AMX_CONNS_Q_THRDSMAX", "java.lang:type=Threading | PeakThreadCount");
        p.setProperty("jmx.map.AMX_CONNS_Q_THRBSY%", "AMX_CONNS_Q_THRBSY / AMX_CONNS_Q_THRDSMAX");
        try (AgentRuntime runtime = AgentRuntime.create(AgentConfig.of(p), ManagementFactory.getPlatformMBeanServer(), Path.of("/proc"))) {
            runtime.sampler().sampleFull();
            MetricsSnapshot s = runtime.sampler().latest();
            for (SeedMetric m : SeedMetric.values()) {
                if (m.group() == MetricGroup.JVM) {
                    assertTrue(s.metrics().containsKey(m.seedName()), m.seedName() + " missing");
                }
            }
            assertTrue(s.metrics().get("AMX_CONNS_Q_THRBSY%") > 0 && s.metrics().get("AMX_CONNS_Q_THRBSY%") <= 100);
            assertEquals("jmx:custom", s.sources().get("appserver"));
            assertEquals("mxbean", s.sources().get("jvm"));
            assertTrue(s.sources().get("os").startsWith("java"));
            assertTrue(s.metrics().containsKey("OS_MEM_USED%"));
            assertTrue(s.orcaHeader().contains("named_metrics.jvm_heap_used="));
        }
    }

    @Test
    void badMappingFailsAtStartWithTheKey() {
        Properties p = new Properties();
        p.setProperty("jmx.map.AMX_SESSIONS_ACT", "*:type=Manager,* | a / b / c");
        InvalidMappingException e = assertThrows(InvalidMappingException.class, () ->
                AgentRuntime.create(AgentConfig.of(p), ManagementFactory.getPlatformMBeanServer(), Path.of("/proc")));
        assertTrue(e.getMessage().contains("jmx.map.AMX_SESSIONS_ACT"), e.getMessage());
    }
}
