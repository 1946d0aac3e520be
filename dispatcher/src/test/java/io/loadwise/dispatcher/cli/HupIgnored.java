package io.loadwise.dispatcher.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this JVM started with SIGHUP ignored (under {@code nohup}, say): such a JVM, and every process it starts,
 * can never receive one, so the tests that reload by SIGHUP cannot run in it. Read from Linux's {@code
 * /proc/self/status} ({@code SigIgn}, a hexadecimal mask whose lowest bit is SIGHUP); false elsewhere.
 */
final class HupIgnored {

    private HupIgnored() {
    }

    static boolean inThisProcess() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 1) != 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false; // not Linux: assume the signal arrives
        }
        return false;
    }

    /** A child JVM's main: installs the reload handler as {@code loadwise run} does and prints whether it took. */
    public static void main(String[] args) {
        System.out.println("ignored=" + ReloadSignal.install().ignored());
    }
}
