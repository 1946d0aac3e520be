package io.loadwise.sim.workload;

/**
 * A trace read from a file, with what the reader left out so that nothing is dropped silently.
 *
 * @param malformed records that could not be parsed
 * @param firstMalformed where the first one was and why, or {@code null}
 * @param excludedErrors well-formed records of failed requests (status ≥ 400), left out as seed 004 did
 */
public record LoadedTrace(Trace trace, long malformed, String firstMalformed, long excludedErrors) {
}
