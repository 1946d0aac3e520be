package io.loadwise.agent.servlet;

import io.loadwise.agent.AgentRuntime;
import io.loadwise.agent.http.HeaderGate;
import io.loadwise.wire.OrcaLoadReport;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Attaches the latest pre-encoded {@code endpoint-load-metrics} header to responses, at most once per
 * configured interval. It never collects anything: the sampler thread did that already. The header is
 * set before the chain runs, while the response cannot yet be committed.
 */
public class LoadwiseAgentFilter implements Filter {

    private volatile HeaderGate gate;

    @Override
    public void init(FilterConfig config) {
        Object runtime = config.getServletContext().getAttribute(LoadwiseAgentListener.RUNTIME_ATTRIBUTE);
        gate = runtime instanceof AgentRuntime ? ((AgentRuntime) runtime).headerGate() : null;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HeaderGate g = gate;
        if (g != null && response instanceof HttpServletResponse) {
            String value = g.valueToAttach();
            if (value != null) {
                ((HttpServletResponse) response).setHeader(OrcaLoadReport.HEADER_NAME, value);
            }
        }
        chain.doFilter(request, response);
    }

    @Override
    public void destroy() {
        gate = null;
    }
}
