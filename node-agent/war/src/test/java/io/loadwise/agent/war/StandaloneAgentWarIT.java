package io.loadwise.agent.war;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.loadwise.wire.AgentMetricsDocument;
import io.loadwise.wire.MetricsJson;
import io.loadwise.wire.OrcaLoadReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built WAR deployed as it is on a real embedded Tomcat 11: metrics endpoint, no filter. */
class StandaloneAgentWarIT {

    @TempDir
    Path base;

    @Test
    void servesTheMetricsOfTheServerItIsDeployedOn() throws Exception {
        Path war = Path.of(System.getProperty("loadwise.agent.war"));
        assertTrue(Files.isRegularFile(war), "build the WAR first: " + war);
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Context context = tomcat.addWebapp("/loadwise-agent", war.toString());
        try {
            tomcat.start();
            assertEquals(LifecycleState.STARTED, context.getState());
            String url = "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/loadwise-agent/loadwise-agent/metrics";
            HttpClient http = HttpClient.newHttpClient();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            AgentMetricsDocument doc;
            HttpResponse<String> response;
            while (true) {
                response = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), response.body());
                doc = MetricsJson.parse(response.body());
                if (doc.metrics().containsKey("AMX_CONNS_Q_THRDSMAX")) {
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "no app-server metrics: " + doc);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // poll interval
            }
            assertEquals("jmx:tomcat", doc.sources().get("appserver"));
            assertTrue(doc.metrics().containsKey("JVM_HEAP_USED%"));
            assertFalse(response.headers().firstValue(OrcaLoadReport.HEADER_NAME).isPresent(),
                    "the standalone WAR installs no filter");
        } finally {
            tomcat.stop();
            tomcat.destroy();
        }
    }
}
