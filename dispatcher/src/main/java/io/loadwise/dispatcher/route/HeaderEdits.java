package io.loadwise.dispatcher.route;

import io.loadwise.dispatcher.config.HeaderEditsConfig;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import java.util.List;
import java.util.Map;

/**
 * A route's {@code requestHeaders} or {@code responseHeaders}, compiled: remove, then set, then add. The names
 * and values were checked by the validator (tokens; no control characters), so an edit can never split a
 * message.
 */
public final class HeaderEdits {

    public static final HeaderEdits NONE = new HeaderEdits(null);

    private final AsciiString[] remove;
    private final AsciiString[] setNames;
    private final AsciiString[] setValues;
    private final AsciiString[] addNames;
    private final AsciiString[] addValues;

    private HeaderEdits(HeaderEditsConfig config) {
        List<String> r = config == null ? List.of() : config.removeOrEmpty();
        Map<String, String> s = config == null ? Map.of() : config.setOrEmpty();
        Map<String, String> a = config == null ? Map.of() : config.addOrEmpty();
        remove = r.stream().map(AsciiString::cached).toArray(AsciiString[]::new);
        setNames = s.keySet().stream().map(AsciiString::cached).toArray(AsciiString[]::new);
        setValues = s.values().stream().map(AsciiString::cached).toArray(AsciiString[]::new);
        addNames = a.keySet().stream().map(AsciiString::cached).toArray(AsciiString[]::new);
        addValues = a.values().stream().map(AsciiString::cached).toArray(AsciiString[]::new);
    }

    public static HeaderEdits of(HeaderEditsConfig config) {
        return config == null ? NONE : new HeaderEdits(config);
    }

    public boolean isEmpty() {
        return remove.length == 0 && setNames.length == 0 && addNames.length == 0;
    }

    public void apply(HttpHeaders headers) {
        for (AsciiString name : remove) {
            headers.remove(name);
        }
        for (int i = 0; i < setNames.length; i++) {
            headers.set(setNames[i], setValues[i]);
        }
        for (int i = 0; i < addNames.length; i++) {
            headers.add(addNames[i], addValues[i]);
        }
    }
}
