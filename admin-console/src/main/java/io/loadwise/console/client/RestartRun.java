package io.loadwise.console.client;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the operator's restart command for one node: {@code /bin/sh -c COMMAND}, with the node in the environment
 * ({@code LOADWISE_CLUSTER}, {@code LOADWISE_NODE}, {@code LOADWISE_NODE_ADDRESS}, {@code LOADWISE_NODE_HOST},
 * {@code LOADWISE_NODE_PORT}), its output on this process's. A command that has not ended after the timeout is
 * killed with its child processes. A command may leave a server it started running in the background.
 */
final class RestartRun {

    private RestartRun() {
    }

    /** The environment the command gets for this node. */
    static Map<String, String> environment(String cluster, String node, String address) {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? address : address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return Map.of("LOADWISE_CLUSTER", cluster, "LOADWISE_NODE", node, "LOADWISE_NODE_ADDRESS", address,
                "LOADWISE_NODE_HOST", host, "LOADWISE_NODE_PORT", colon < 0 ? "" : address.substring(colon + 1));
    }

    /** Runs it; {@code null} when it exited 0, else why not (exit status, timeout, could not start). */
    static String run(String command, Map<String, String> env, long timeoutMillis) throws InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).inheritIO();
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            return "the restart command could not start: " + e.getMessage();
        }
        if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
            return "the restart command did not end within " + timeoutMillis + " ms (killed)";
        }
        int status = process.exitValue();
        return status == 0 ? null : "the restart command exited with status " + status;
    }
}
