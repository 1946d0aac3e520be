package io.loadwise.node.process;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a child JVM when its parent is gone: the parent keeps our standard input open and never
 * writes to it, so end-of-file (or a broken pipe) means the parent exited, even by a crash.
 */
public final class ParentWatch {

    private ParentWatch() {
    }

    /** Starts a daemon thread that calls {@code System.exit(0)} at the end of {@code stdin}. */
    public static void exitAtEndOf(InputStream stdin) {
        Thread watcher = new Thread(() -> {
            try {
                while (stdin.read() >= 0) {
                    // Nothing is sent on this pipe; only its end matters.
                }
            } catch (IOException e) {
                // A broken pipe means the same as end-of-file.
            }
            System.exit(0);
        }, "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }
}
