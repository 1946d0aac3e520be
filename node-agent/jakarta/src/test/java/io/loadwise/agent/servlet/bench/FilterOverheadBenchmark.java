package io.loadwise.agent.servlet.bench;

import io.loadwise.agent.AgentConfig;
import io.loadwise.agent.AgentRuntime;
import io.loadwise.agent.servlet.LoadwiseAgentFilter;
import io.loadwise.agent.servlet.LoadwiseAgentListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.Response;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Per-request cost of the agent filter on a real Tomcat response object (header set through Tomcat's
 * own ResponseFacade and MimeHeaders), against a chain that does nothing. The sampler does not run:
 * the filter only ever reads its published header, which is what this measures.
 *
 * <p>Run (see docs/agent.md): {@code java -cp <test classpath> org.openjdk.jmh.Main FilterOverheadBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FilterOverheadBenchmark {

    /** Header interval in ms: 100 is the default (NMAW-03b), 0 attaches to every response. */
    @Param({"100", "0"})
    public long headerIntervalMillis;

    private AgentRuntime runtime;
    private LoadwiseAgentFilter filter;
    private HttpServletResponse response;
    private final FilterChain chain = (req, res) -> { };

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Properties p = new Properties();
        p.setProperty(AgentConfig.HEADER_INTERVAL, Long.toString(headerIntervalMillis));
        runtime = AgentRuntime.create(AgentConfig.of(p), ManagementFactory.getPlatformMBeanServer(), Path.of("/proc"));
        runtime.sampler().sampleFull();
        runtime.sampler().sampleFull(); // CPU needs two readings
        ServletContext context = proxy(ServletContext.class, (m, a) ->
                m.getName().equals("getAttribute") && LoadwiseAgentListener.RUNTIME_ATTRIBUTE.equals(a[0]) ? runtime : null);
        FilterConfig config = proxy(FilterConfig.class, (m, a) -> m.getName().equals("getServletContext") ? context : null);
        filter = new LoadwiseAgentFilter();
        filter.init(config);
        Response tomcatResponse = new Response(new org.apache.coyote.Response());
        response = tomcatResponse.getResponse();
        if (runtime.sampler().latest().orcaHeader() == null) {
            throw new IllegalStateException("no header to attach");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        runtime.close();
    }

    @Benchmark
    public void chainOnly() throws Exception {
        chain.doFilter(null, response);
    }

    @Benchmark
    public void agentFilter() throws Exception {
        filter.doFilter(null, response, chain);
    }

    private interface Handler {
        Object handle(java.lang.reflect.Method method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Handler handler) {
        return (T) Proxy.newProxyInstance(FilterOverheadBenchmark.class.getClassLoader(), new Class<?>[] {type},
                (p, m, a) -> handler.handle(m, a));
    }
}
