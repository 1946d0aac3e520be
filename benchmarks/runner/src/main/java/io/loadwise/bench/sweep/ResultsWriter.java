package io.loadwise.bench.sweep;

import java.io.IOException;

/**
 * Rewrites a sweep's tables and plots from the cell files in its results folder. The runner calls it
 * after every cell, so a long sweep can be read while it runs; the report package implements it, which
 * keeps the runner from depending on the report (and the two packages out of a cycle).
 */
@FunctionalInterface
public interface ResultsWriter {

    void write() throws IOException;
}
