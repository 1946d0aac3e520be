package io.loadwise.console.store;

import java.io.IOException;
import org.rrd4j.core.RrdBackend;
import org.rrd4j.core.RrdBackendAnnotation;
import org.rrd4j.core.RrdFileBackendFactory;

/**
 * Creates {@link JournaledBackend}s for files. rrd4j's own caching of file sections is off: a sample
 * that fails half-way is rolled back in the backend, and a cache would still hold its values.
 */
@RrdBackendAnnotation(name = "LOADWISE_JOURNALED", cachingAllowed = true, scheme = "file", shouldValidateHeader = true)
final class JournaledBackendFactory extends RrdFileBackendFactory {

    @Override
    protected RrdBackend open(String path, boolean readOnly) throws IOException {
        return new JournaledBackend(path, readOnly);
    }
}
