package io.loadwise.agent.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.agent.metric.MetricSink;
import io.loadwise.agent.metric.MetricSource;
import io.loadwise.agent.sample.Sampler;
import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.MetricGroup;
import io.loadwise.wire.MetricsJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {

    private static Sampler sampler() {
        MetricSource source = new MetricSource() {
            @Override
            public MetricGroup group() {
                return MetricGroup.APP_SERVER;
            }

            @Override
            public void collect(MetricSink sink) {
                sink.put("OS_CPU_USED%", 23.5);
                sink.put("AMX_SESSIONS_ACT", 12);
                sink.put("CUSTOM_<b>", 1);
                sink.put("APP_RQST_RATE", 40);
                sink.put("APP_UTILIZATION%", 25);
            }
        };
        Sampler sampler = new Sampler(List.of(), List.of(source), () -> Map.of("os", "sigar", "appserver", "jmx:tomcat"),
                () -> 1763769600000L);
        sampler.sampleFull();
        return sampler;
    }

    @Test
    void jsonCarriesTimestampMetricsAndSources() throws Exception {
        EndpointResponse r = new MetricsEndpoint(sampler(), null).handle("/metrics", null, null);
        assertEquals(200, r.status());
        assertEquals("application/json;charset=UTF-8", r.contentType());
        AgentMetricsDocument doc = MetricsJson.parse(r.body());
        assertEquals(1763769600000L, doc.timestampMillis());
        assertEquals(23.5, doc.metrics().get("OS_CPU_USED%"));
        assertEquals(12.0, doc.metrics().get("AMX_SESSIONS_ACT"));
        assertEquals("jmx:tomcat", doc.sources().get("appserver"));
    }

    @Test
    void htmlIsATableWithEscapedNames() {
        EndpointResponse r = new MetricsEndpoint(sampler(), null).handle("/metrics.html", null, null);
        assertEquals(200, r.status());
        assertTrue(r.body().contains("<td>OS_CPU_USED%</td><td class=\"v\">23.50</td><td>%</td><td>OS CPU Utilization (%)</td>"), r.body());
        assertTrue(r.body().contains("APP_SERVER (source: jmx:tomcat)"));
        assertTrue(r.body().contains("CUSTOM_&lt;b&gt;"));
        assertTrue(r.body().contains("<td>APP_RQST_RATE</td><td class=\"v\">40.00</td><td>req/s</td>"), r.body());
        assertTrue(r.body().indexOf("Measured by the filter") < r.body().indexOf("APP_RQST_RATE"));
        int utilization = r.body().indexOf("<td>APP_UTILIZATION%</td><td class=\"v\">25.00</td><td>%</td>");
        assertTrue(utilization > r.body().indexOf("APP_RQST_RATE"), "with the filter's figures: " + r.body());
        assertTrue(r.body().indexOf("Operator-mapped") > utilization, "not as an operator's mapping");
        assertFalse(r.body().contains("CUSTOM_<b>"));
    }

    @Test
    void secretIsRequiredWhenConfigured() {
        MetricsEndpoint endpoint = new MetricsEndpoint(sampler(), "s3cret");
        EndpointResponse none = endpoint.handle("/metrics", null, null);
        assertEquals(401, none.status());
        assertTrue(none.challenge());
        assertFalse(none.body().contains("OS_CPU"));
        assertEquals(401, endpoint.handle("/metrics", "wrong", null).status());
        assertEquals(401, endpoint.handle("/metrics", null, "Basic czNjcmV0").status());
        assertEquals(401, endpoint.handle("/metrics.html", "s3cre", null).status());
        assertEquals(200, endpoint.handle("/metrics", "s3cret", null).status());
        assertEquals(200, endpoint.handle("/metrics.html", null, "Bearer s3cret").status());
    }

    @Test
    void unknownPathIs404() {
        EndpointResponse r = new MetricsEndpoint(sampler(), null).handle("/metrics.ser", null, null);
        assertEquals(404, r.status());
        assertTrue(r.body().contains("/loadwise-agent/metrics"));
        assertEquals(404, new MetricsEndpoint(sampler(), null).handle(null, null, null).status());
    }
}
