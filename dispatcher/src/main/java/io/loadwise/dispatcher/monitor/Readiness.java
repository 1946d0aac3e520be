package io.loadwise.dispatcher.monitor;

/**
 * What one answer of a node's agent path says about its application (issue 32, item 0): whether it serves
 * (the node may be selected), or is being deployed or is gone (the node stays out and is asked again a
 * second later).
 *
 * <p>A node is <em>gated</em> once it has something that can say its application serves: an agent that
 * answered on it (200, or its own 401), or a health check in its cluster. For a gated node only the agent
 * itself answering readmits: 200, or 401 (it refused the poll's secret, so it runs, and with it the
 * application). Anything else, 404 and 503 above all, is the container answering for an application that is
 * not deployed. A node with a health check is readmitted by its health check alone: the agent, a filter, may
 * answer before the application's own servlets do.
 *
 * <p>An ungated node, on which no agent has ever answered in a cluster without a health check, has only its
 * server to go by, as before readiness existed: any 2xx or 3xx, 401, or a 404 (the path of an agent it does
 * not have) readmits it.
 */
enum Readiness {

    /** The application answers: the node may be selected. */
    READY,
    /** The server answers, its application does not (yet): the node stays out. */
    NOT_READY;

    static Readiness of(int status, boolean gated) {
        if (status == 200 || status == 401) {
            return READY;
        }
        if (gated) {
            return NOT_READY;
        }
        return (status > 200 && status < 400) || status == 404 ? READY : NOT_READY;
    }

    /**
     * Whether an answer of an agent that answered 200 before says its application went away: the container
     * answers for it (404, or 503 while it deploys or stops).
     */
    static boolean applicationGone(int status) {
        return status == 404 || status == 503;
    }
}
