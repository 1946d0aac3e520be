package io.loadwise.dispatcher.config;

import java.util.ArrayList;
import java.util.List;

/** The configuration with one of {@code listeners[]} added, replaced or removed; nothing is validated here. */
public final class ListenerEdits {

    private ListenerEdits() {
    }

    public static LoadwiseConfig add(LoadwiseConfig config, ListenerConfig listener) {
        List<ListenerConfig> list = new ArrayList<>(config.listenersOrEmpty());
        list.add(listener);
        return config.withListeners(list, config.rateLimits());
    }

    /** @throws ConfigValidationException when no listener has this name */
    public static LoadwiseConfig replace(LoadwiseConfig config, String name, ListenerConfig listener)
            throws ConfigValidationException {
        List<ListenerConfig> list = new ArrayList<>(config.listenersOrEmpty());
        list.set(indexOf(config, name), listener);
        return config.withListeners(list, config.rateLimits());
    }

    /** The last listener removed leaves no {@code listeners} at all. */
    public static LoadwiseConfig remove(LoadwiseConfig config, String name) throws ConfigValidationException {
        List<ListenerConfig> list = new ArrayList<>(config.listenersOrEmpty());
        list.remove(indexOf(config, name));
        return config.withListeners(list.isEmpty() ? null : list, config.rateLimits());
    }

    private static int indexOf(LoadwiseConfig config, String name) throws ConfigValidationException {
        List<ListenerConfig> list = config.listenersOrEmpty();
        for (int i = 0; i < list.size(); i++) {
            if (name.equals(list.get(i).name())) {
                return i;
            }
        }
        throw new ConfigValidationException("listener '" + name + "': no such listener");
    }
}
