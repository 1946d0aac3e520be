package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.cluster.NodeState;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.http.Exchange.RequestPhase;
import io.loadwise.dispatcher.http.Exchange.ResponsePhase;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of one exchange at a time, and the progress that moves its idle ones: progress is counted
 * on the hot path (a counter increment) and turned into time only when the connection's one timer fires
 * ({@link #check}), so a stalled peer is caught between one and two timeouts after its last byte. Knows
 * nothing of what a passed deadline does to the exchange: {@link #check} only says which one passed.
 */
final class ExchangeDeadlines {

    /** Which deadline passed. */
    enum Deadline {
        /** {@code exchangeTimeoutMs}: the whole exchange. */
        EXCHANGE,
        /** {@code queueTimeoutMs}: no node came free. */
        QUEUE,
        /** {@code responseTimeoutMs}, while waiting for a node connection. */
        CONNECT,
        /** {@code requestIdleTimeoutMs}: the request body stalled. */
        UPLOAD_IDLE,
        /** {@code responseIdleTimeoutMs}: the response body stalled. */
        RESPONSE_IDLE,
        /** {@code responseTimeoutMs}: the node has not answered the whole request. */
        RESPONSE
    }

    private final ClusterConfig config;
    private final long responseTimeoutNanos;
    private final long requestIdleNanos;
    private final long responseIdleNanos;
    /** 0: no limit on a whole exchange. */
    private final long exchangeTimeoutNanos;
    /** The soonest any deadline of a new exchange can fall, after its start. */
    private final long firstDeadlineNanos;
    private final long queueTimeoutNanos;
    private long startNanos;
    /** The whole exchange's limit in force: {@code exchangeTimeoutMs}, or a gRPC call's shorter timeout; 0: none. */
    private long exchangeNanos;
    /** The call's own timeout set {@link #exchangeNanos}. */
    private boolean callDeadline;
    private long sentNanos;
    private long requestDoneNanos;
    private long uploadProgress;
    private long uploadProgressSeen;
    private long uploadedBytes;
    private long uploadSeenNanos;
    private long responseProgress;
    private long responseProgressSeen;
    private long responseSeenNanos;
    /** When the final response head came; {@link Long#MIN_VALUE} before. */
    private long responseHeadNanos = Long.MIN_VALUE;
    /** When the next deadline falls, as of the last {@link #check} that found none passed. */
    private long nextDue;

    ExchangeDeadlines(ClusterConfig config, long queueTimeoutNanos) {
        this.config = config;
        this.responseTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.responseTimeoutMsOrDefault());
        this.requestIdleNanos = TimeUnit.MILLISECONDS.toNanos(config.requestIdleTimeoutMsOrDefault());
        this.responseIdleNanos = TimeUnit.MILLISECONDS.toNanos(config.responseIdleTimeoutMsOrDefault());
        this.exchangeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.exchangeTimeoutMsOrDefault());
        long first = Math.min(responseTimeoutNanos, Math.min(requestIdleNanos, responseIdleNanos));
        this.firstDeadlineNanos = exchangeTimeoutNanos > 0 ? Math.min(first, exchangeTimeoutNanos) : first;
        this.queueTimeoutNanos = queueTimeoutNanos;
    }

    /**
     * A new exchange starts at {@code now}; returns the soonest any of its deadlines can fall.
     *
     * @param callNanos the deadline the request sets itself ({@code grpc-timeout}), capped by the cluster's
     *     {@code exchangeTimeoutMs}; -1: none
     */
    long started(long now, long callNanos) {
        startNanos = now;
        callDeadline = callNanos >= 0 && (exchangeTimeoutNanos <= 0 || callNanos < exchangeTimeoutNanos);
        exchangeNanos = callDeadline ? Math.max(callNanos, 1) : exchangeTimeoutNanos;
        uploadSeenNanos = now;
        uploadProgress = 0;
        uploadProgressSeen = 0;
        uploadedBytes = 0;
        responseHeadNanos = Long.MIN_VALUE;
        responseProgress = 0;
        responseProgressSeen = 0;
        return now + (callDeadline ? Math.min(firstDeadlineNanos, exchangeNanos) : firstDeadlineNanos);
    }

    long startNanos() {
        return startNanos;
    }

    /** The request head went to a node at {@code now}, returned: the node's processing time (PT) starts. */
    long sent(long now) {
        sentNanos = now;
        return now;
    }

    long sentNanos() {
        return sentNanos;
    }

    /** A piece of the request body, {@code bytes} long, went to the node. */
    void uploaded(int bytes) {
        uploadProgress++;
        uploadedBytes += bytes;
    }

    /** Request body bytes received from the client and passed on to the node (the access log's bytes in). */
    long uploadedBytes() {
        return uploadedBytes;
    }

    /** Pieces of the request body sent so far (the empty last piece of a bodyless request counts). */
    long uploadProgress() {
        return uploadProgress;
    }

    /** The whole request went to the node at {@code now}: the node's time to answer starts. */
    void requestDone(long now) {
        requestDoneNanos = now;
    }

    /** Something of the response moved: a message from the node, or the client reading again. */
    void responded() {
        responseProgress++;
    }

    /** The client connection's writability changed: writable again counts as response progress (it reads). */
    void clientWritable(boolean writable) {
        if (writable) {
            responded();
        }
    }

    /** The final response head went to the client at {@code now}: the response body's idle time starts. */
    void responseStarted(long now) {
        responseSeenNanos = now;
        responseHeadNanos = now;
    }

    /** Milliseconds from the request head sent (the last time, after a retry) to the final response head; -1: none. */
    long nodeResponseMillis() {
        return responseHeadNanos == Long.MIN_VALUE ? -1 : (responseHeadNanos - sentNanos) / 1_000_000;
    }

    /**
     * Which deadline of the exchange has passed at {@code now}, or {@code null}: then {@link #nextDue} says when
     * the next one falls. Progress counted since the last check moves the idle deadlines forward.
     *
     * @param waitingSince when the wait in the queue or for a connection began (QUEUED, CONNECTING)
     */
    Deadline check(long now, RequestPhase request, ResponsePhase response, long waitingSince) {
        long next = Long.MAX_VALUE;
        if (exchangeNanos > 0) {
            long due = startNanos + exchangeNanos;
            if (now - due >= 0) {
                return Deadline.EXCHANGE;
            }
            next = due;
        }
        long due = Long.MAX_VALUE;
        Deadline which = null;
        switch (request) {
            case QUEUED -> {
                due = waitingSince + queueTimeoutNanos;
                which = Deadline.QUEUE;
            }
            case CONNECTING -> {
                due = waitingSince + responseTimeoutNanos;
                which = Deadline.CONNECT;
            }
            case SENDING -> {
                if (uploadProgress != uploadProgressSeen) {
                    uploadProgressSeen = uploadProgress;
                    uploadSeenNanos = now;
                }
                due = uploadSeenNanos + requestIdleNanos;
                which = Deadline.UPLOAD_IDLE;
            }
            default -> {
            }
        }
        if (which != null) {
            if (now - due >= 0) {
                return which;
            }
            next = Math.min(next, due);
        }
        if (response == ResponsePhase.STREAMING) {
            if (responseProgress != responseProgressSeen) {
                responseProgressSeen = responseProgress;
                responseSeenNanos = now;
            }
            due = responseSeenNanos + responseIdleNanos;
            which = Deadline.RESPONSE_IDLE;
        } else if (request == RequestPhase.SENT) {
            due = requestDoneNanos + responseTimeoutNanos;
            which = Deadline.RESPONSE;
        } else {
            which = null;
        }
        if (which != null) {
            if (now - due >= 0) {
                return which;
            }
            next = Math.min(next, due);
        }
        nextDue = next;
        return null;
    }

    long nextDue() {
        return nextDue;
    }

    /** The configured limit of {@code deadline}, for messages. */
    private int limitMs(Deadline deadline) {
        return switch (deadline) {
            case EXCHANGE -> config.exchangeTimeoutMsOrDefault();
            case QUEUE -> config.queueTimeoutMsOrDefault();
            case CONNECT, RESPONSE -> config.responseTimeoutMsOrDefault();
            case UPLOAD_IDLE -> config.requestIdleTimeoutMsOrDefault();
            case RESPONSE_IDLE -> config.responseIdleTimeoutMsOrDefault();
        };
    }

    /** What the client is answered when {@code deadline} passed ({@code streaming}: the response had begun). */
    static HttpResponseStatus status(Deadline deadline, boolean streaming) {
        return switch (deadline) {
            case QUEUE -> HttpResponseStatus.SERVICE_UNAVAILABLE;
            case EXCHANGE -> streaming ? HttpResponseStatus.GATEWAY_TIMEOUT : HttpResponseStatus.REQUEST_TIMEOUT;
            case UPLOAD_IDLE -> HttpResponseStatus.REQUEST_TIMEOUT;
            default -> HttpResponseStatus.GATEWAY_TIMEOUT;
        };
    }

    /** Why {@code deadline} ended the exchange, for logs and error pages; {@code node} may be null while queued. */
    String reason(Deadline deadline, NodeState node, String cluster) {
        int ms = limitMs(deadline);
        return switch (deadline) {
            case EXCHANGE -> callDeadline ? "grpc-timeout of " + exchangeNanos / 1_000_000 + " ms passed"
                    : "exchange not complete within " + ms + " ms";
            case QUEUE -> "no node of cluster " + cluster + " free within " + ms + " ms";
            case CONNECT -> (node != null ? "node " + node.name() : "cluster " + cluster) + ": no connection within "
                    + ms + " ms";
            case UPLOAD_IDLE -> "request body stalled for " + ms + " ms";
            case RESPONSE_IDLE -> "response from node " + node.name() + " stalled for " + ms + " ms";
            case RESPONSE -> "node " + node.name() + " did not answer within " + ms + " ms";
        };
    }
}
