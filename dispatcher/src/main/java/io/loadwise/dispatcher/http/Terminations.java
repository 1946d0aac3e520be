package io.loadwise.dispatcher.http;

import io.loadwise.dispatcher.acquire.Outcome.Refusal;
import io.loadwise.dispatcher.http.Exchange.RequestPhase;
import io.loadwise.dispatcher.http.Exchange.ResponsePhase;
import io.loadwise.dispatcher.http.ExchangeDeadlines.Deadline;
import io.loadwise.dispatcher.metrics.Termination;

/**
 * Which {@link Termination} state each way an HTTP request can end is: the table of docs/operations.md, in code.
 * Every result is one of {@link Termination}'s interned strings: naming it allocates nothing.
 */
final class Terminations {

    static final String NORMAL = Termination.OK;
    /** The head could not be read, was over a limit, or no route takes it. */
    static final String BAD_HEAD = Termination.state(Termination.PROXY, Termination.HEAD);
    /** The client's request body is malformed (a bad chunk). */
    static final String BAD_REQUEST_BODY = Termination.state(Termination.PROXY, Termination.DATA);
    static final String HEAD_TIMEOUT = Termination.state(Termination.TIMEOUT, Termination.HEAD);
    static final String CLIENT_LEFT_IN_HEAD = Termination.state(Termination.CLIENT, Termination.HEAD);
    static final String RATE_LIMITED = Termination.state(Termination.RATE_LIMIT, Termination.HEAD);

    private Terminations() {
    }

    /** Node acquisition found no node. */
    static String of(Refusal refusal) {
        return switch (refusal) {
            case QUEUE_FULL, NODES_FULL -> Termination.state(Termination.PROXY, Termination.QUEUE);
            case NO_NODE, UNREACHABLE, NO_ROUTE -> Termination.state(Termination.NODE, Termination.CONNECT);
        };
    }

    /** The client closed its connection during {@code exchange}. */
    static String client(Exchange exchange) {
        return of(Termination.CLIENT, exchange.requestPhase(), exchange.responsePhase(), false);
    }

    /** The node failed {@code exchange}: in its response head, or in its body. */
    static String node(Exchange exchange) {
        return of(Termination.NODE, exchange.requestPhase(), exchange.responsePhase(), true);
    }

    /** {@code deadline} passed during {@code exchange}. */
    static String of(Deadline deadline, Exchange exchange) {
        return switch (deadline) {
            case QUEUE -> Termination.state(Termination.TIMEOUT, Termination.QUEUE);
            case CONNECT -> Termination.state(Termination.TIMEOUT, Termination.CONNECT);
            case RESPONSE -> Termination.state(Termination.TIMEOUT, Termination.RESPONSE_HEAD);
            case UPLOAD_IDLE, RESPONSE_IDLE -> Termination.state(Termination.TIMEOUT, Termination.DATA);
            case EXCHANGE -> of(Termination.TIMEOUT, exchange.requestPhase(), exchange.responsePhase(), false);
        };
    }

    /**
     * {@code who} ended the request in these phases. While the request body is still being sent, the client's side
     * is in its body ({@code D}) and the node's still owes its response head ({@code R}).
     */
    static String of(char who, RequestPhase request, ResponsePhase response, boolean nodeSide) {
        char phase;
        if (response == ResponsePhase.STREAMING) {
            phase = Termination.DATA;
        } else {
            phase = switch (request) {
                case QUEUED -> Termination.QUEUE;
                case CONNECTING -> Termination.CONNECT;
                case SENDING -> nodeSide ? Termination.RESPONSE_HEAD : Termination.DATA;
                case SENT -> Termination.RESPONSE_HEAD;
                case IDLE -> Termination.HEAD;
            };
        }
        return Termination.state(who, phase);
    }

    /**
     * A request the listener answered from its head: {@code route} is null when no route took it, and unnamed when
     * the route table refused the head itself; a configured {@code respond} or {@code redirect} is a normal end.
     */
    static String answered(Route route, int status) {
        if (status == 429) {
            return RATE_LIMITED;
        }
        if (route == null || route.name() == null || status == 400) {
            return BAD_HEAD; // no route, a target the table refuses, or a redirect that cannot be built
        }
        return NORMAL;
    }
}
