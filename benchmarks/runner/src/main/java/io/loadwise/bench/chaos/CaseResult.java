package io.loadwise.bench.chaos;

import java.util.List;
import java.util.Map;

/**
 * What one chaos case measured. Times are milliseconds, {@code null} when the case has no such event (no
 * fault, or the event never came). Failures are client requests that got anything but a 200.
 *
 * @param name the case, as {@code --cases} names it
 * @param what what the case does, one line
 * @param seconds how long the load ran
 * @param sent requests sent
 * @param failed requests that failed, all phases
 * @param failedByCause failures by what the client saw ({@code HTTP 502}, {@code connection reset}, ...)
 * @param failedByNode failures after the warm-up by the node the dispatcher's access log names for them: a node's name (the
 *     request went to it), {@code dispatcher} (the dispatcher answered by itself: no usable node, or none could
 *     be reached) or {@code no access-log line} (the request never reached the dispatcher)
 * @param failedByPhase failures by when the request was sent: {@code warm-up}, {@code fault} (from 1 s before
 *     the fault, the response timeout, until the node left selection: sent to, or in flight to, the faulty
 *     node), {@code out} (the node out of selection), {@code return} (from the repair on)
 * @param toOutMs from the fault to the first poll that shows the node out of selection
 * @param outBy why it left: {@code ejected}, {@code health down}, {@code connect failure} (several joined by +)
 * @param toReadmissionMs from the repair to the first poll that shows the node back in selection
 * @param toFirstAnswerMs from the repair to the first request the node answered
 * @param rampShare the node's share of the answers in each second from its readmission on
 * @param rampExpected the share round robin gives it with the slow-start factor at the middle of that second
 * @param loadAverage the machine's one-minute load average at the start and at the end of the case
 * @param note the case's own figures (policies switched, reloads applied, ...)
 */
record CaseResult(String name, String what, double seconds, long sent, long failed, Map<String, Long> failedByCause,
        Map<String, Long> failedByNode, Map<String, Long> failedByPhase, Long toOutMs, String outBy, Long toReadmissionMs, Long toFirstAnswerMs,
        List<Double> rampShare, List<Double> rampExpected, String loadAverage, String note) {
}
