package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;

/**
 * Receives the load reports a node piggybacks on its responses in the {@code endpoint-load-metrics}
 * header (ORCA style). The proxy removes the header before the client sees it and hands its value here.
 *
 * <p>Called on an event loop for every response that carries the header: implementations must be quick
 * and must not block (parse later, off the loop, if parsing is costly).
 */
@FunctionalInterface
public interface LoadReportSink {

    /** The header every node response may carry; removed from requests too. */
    String HEADER = io.loadwise.wire.OrcaLoadReport.HEADER_NAME;

    /** Ignores every report. */
    LoadReportSink NONE = (node, headerValue) -> { };

    void onLoadReport(NodeState node, String headerValue);
}
