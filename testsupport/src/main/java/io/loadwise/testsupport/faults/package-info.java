/**
 * A node that fails on command ({@link io.loadwise.testsupport.faults.FaultNode}: 500s, 2 s answers, resets) in a
 * process of its own ({@link io.loadwise.testsupport.faults.FaultNodeProcess}: SIGKILL, SIGSTOP, restart on the
 * same port). One copy for the dispatcher's fault-injection suite and {@code loadwise bench chaos}, which ships it
 * in the bench jar.
 */
package io.loadwise.testsupport.faults;
