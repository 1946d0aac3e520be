package io.loadwise.agent.servlet;

import io.loadwise.agent.AgentRuntime;
import io.loadwise.agent.http.HeaderGate;
import io.loadwise.agent.load.RequestRecorder;
import io.loadwise.wire.OrcaLoadReport;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
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
 * configured interval, and records each request's time in the application for the agent's own load
 * figures ({@link RequestRecorder}: two clock reads and a few atomic adds; an answer of 500 or above, or an
 * exception, counts as an error). It never collects anything:
 * the sampler thread does that. The header is set before the chain runs, while the response cannot yet
 * be committed. An asynchronous request counts until its {@code AsyncContext} completes.
 */
public class LoadwiseAgentFilter implements Filter {

    private volatile HeaderGate gate;
    private volatile RequestRecorder requests;

    @Override
    public void init(FilterConfig config) {
        Object runtime = config.getServletContext().getAttribute(LoadwiseAgentListener.RUNTIME_ATTRIBUTE);
        if (runtime instanceof AgentRuntime) {
            gate = ((AgentRuntime) runtime).headerGate();
            requests = ((AgentRuntime) runtime).requests();
        }
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
        RequestRecorder recorder = requests;
        if (recorder == null) {
            chain.doFilter(request, response);
            return;
        }
        long start = recorder.begin();
        boolean async = false;
        boolean threw = true; // an exception leaving the application becomes the container's 500
        try {
            chain.doFilter(request, response);
            threw = false;
            if (request.isAsyncStarted()) {
                try {
                    request.getAsyncContext().addListener(new EndOnComplete(recorder, start, response));
                    async = true;
                } catch (IllegalStateException e) {
                    // the context completed meanwhile: the request is over, end its record now
                }
            }
        } finally {
            if (!async) {
                recorder.end(start, threw || serverError(response));
            }
        }
    }

    /** An answer ORCA's {@code eps} counts: status 500 or above. */
    static boolean serverError(ServletResponse response) {
        return response instanceof HttpServletResponse && ((HttpServletResponse) response).getStatus() >= 500;
    }

    @Override
    public void destroy() {
        gate = null;
        requests = null;
    }

    /** Ends an asynchronous request's record when its context completes (also after a timeout or error). */
    private static final class EndOnComplete implements AsyncListener {

        private final RequestRecorder recorder;
        private final long start;
        private final ServletResponse response;

        EndOnComplete(RequestRecorder recorder, long start, ServletResponse response) {
            this.recorder = recorder;
            this.start = start;
            this.response = response;
        }

        @Override
        public void onComplete(AsyncEvent event) {
            recorder.end(start, serverError(response));
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            // the container completes the context next, and onComplete ends the record
        }

        @Override
        public void onError(AsyncEvent event) {
            // as for a timeout
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // a new async cycle drops the listeners that do not add themselves again
            event.getAsyncContext().addListener(this);
        }
    }
}
