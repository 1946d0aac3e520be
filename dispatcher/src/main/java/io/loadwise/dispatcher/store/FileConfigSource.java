package io.loadwise.dispatcher.store;

import io.loadwise.dispatcher.config.ConfigStore;
import io.loadwise.dispatcher.config.ConfigValidationException;
import io.loadwise.dispatcher.config.LoadwiseConfig;
import java.io.IOException;

/** The configuration file: read on reload, rewritten atomically by {@link ConfigStore} on every change. */
public final class FileConfigSource implements ConfigSource {

    private final ConfigStore store;

    public FileConfigSource(ConfigStore store) {
        this.store = store;
    }

    @Override
    public LoadwiseConfig read() throws ConfigValidationException {
        return store.load();
    }

    @Override
    public void write(LoadwiseConfig previous, LoadwiseConfig next) throws ConfigValidationException {
        try {
            store.write(next);
        } catch (IOException e) {
            throw new ConfigValidationException("cannot write " + store.file() + ": " + e.getMessage());
        }
    }

    @Override
    public String describe() {
        return store.file().toString();
    }
}
