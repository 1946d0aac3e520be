package io.loadwise.dispatcher.adversarial;

import java.util.List;

/**
 * One case of a corpus file: the cluster it runs against, how the raw node answers, what the client
 * does and expects (in order), and what the node must have seen at the end.
 */
record CorpusCase(String group, String name, int line, String spec, ClusterOverrides cluster,
        List<Directive> nodeScript, List<Directive> clientSteps, List<Directive> nodeChecks, int readTimeoutMs,
        List<String> accessLog) {

    String id() {
        return group + "/" + name;
    }
}
