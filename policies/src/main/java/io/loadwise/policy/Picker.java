package io.loadwise.policy;

/**
 * The selection half of the SPI: picks one node for one connection or request.
 *
 * <p>Called concurrently from every event loop. Implementations must be thread-safe, lock-free and
 * allocation-free: arrays and atomics only, no streams, iterators, boxing or capturing lambdas.
 */
@FunctionalInterface
public interface Picker {

    /**
     * Returns a usable node that is below its limit of requests in flight ({@link NodeView#selectable()}),
     * or {@code null} when there is none.
     *
     * @param avoid a node that just failed for this request (connect refused, reset before any byte was
     *     sent), or {@code null}. It is returned only when no other selectable node exists.
     */
    NodeView pick(NodeView avoid);
}
