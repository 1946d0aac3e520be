package io.loadwise.dispatcher.cluster;

import io.loadwise.dispatcher.config.ClusterConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what operators must see once, when it happens: a switch of the active priority groups (INFO), entering
 * panic (WARN) and leaving it (INFO). Picker rebuilds that change neither log nothing.
 */
final class GroupLog {

    private static final Logger log = LoggerFactory.getLogger(GroupLog.class);

    private GroupLog() {
    }

    static void changed(String cluster, PriorityGroups.Verdict previous, PriorityGroups.Verdict now,
            ClusterConfig config) {
        if (previous == null) {
            return; // the first verdict, at start: the status shows it; nothing switched
        }
        if (now.activePriority() != previous.activePriority()) {
            log.info("cluster {}: active priority groups now down to {}{} ({} of {} nodes usable in them;"
                    + " minActive {})", cluster, now.activePriority(), now.backupActive() ? " (backup)" : "",
                    now.usableNodes(), now.countedNodes(), config.minActiveOrDefault());
        }
        if (now.panic() && !previous.panic()) {
            log.warn("cluster {}: panic: {} of {} nodes usable in the active groups, below panicThresholdPercent {};"
                    + " picking among all of them that accept connections", cluster, now.usableNodes(),
                    now.countedNodes(), config.panicThresholdPercentOrDefault());
        } else if (previous.panic() && !now.panic()) {
            log.info("cluster {}: panic over: {} of {} nodes usable in the active groups", cluster,
                    now.usableNodes(), now.countedNodes());
        }
    }
}
