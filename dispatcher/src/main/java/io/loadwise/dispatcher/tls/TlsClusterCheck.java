package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.ClusterCheck;
import io.loadwise.dispatcher.config.ClusterConfig;
import io.loadwise.dispatcher.config.ListenerConfig;
import java.util.List;

/** {@link TlsConfigCheck} as the {@link ClusterCheck} service {@code ConfigValidator} runs on every cluster. */
public final class TlsClusterCheck implements ClusterCheck {

    @Override
    public void check(String at, ClusterConfig cluster, List<String> errors) {
        TlsConfigCheck.check(at, cluster, errors);
    }

    @Override
    public void checkListener(String at, ListenerConfig listener, List<String> errors) {
        TlsConfigCheck.checkListener(at, listener, errors);
    }
}
