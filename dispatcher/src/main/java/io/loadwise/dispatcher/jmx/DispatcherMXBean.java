package io.loadwise.dispatcher.jmx;

/** {@code io.loadwise:type=Dispatcher}: the process as a whole. */
public interface DispatcherMXBean {

    String getVersion();

    int getClusterCount();

    /** HTTP requests and TCP tunnels in flight on every listener. */
    int getInFlight();

    /** Access-log lines dropped because the writer fell behind. */
    long getAccessLogDropped();

    /** Re-reads the configuration file and applies it, as {@code POST /api/reload}; returns what changed. */
    String reload();
}
