package io.loadwise.dispatcher.tls;

import io.loadwise.dispatcher.config.ClusterCheck;
import io.loadwise.dispatcher.config.ClusterConfig;
import java.util.List;

/** {@link TlsConfigCheck} as the {@link ClusterCheck} service {@code ConfigValidator} runs on every cluster. */
public final class TlsClusterCheck implements ClusterCheck {

    @Override
    public void check(String at, ClusterConfig cluster, List<String> errors) {
        TlsConfigCheck.check(at, cluster, errors);
    }
}
