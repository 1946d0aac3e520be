package io.loadwise.console.store;

import io.loadwise.dispatcher.control.AgentPolling;
import io.loadwise.dispatcher.control.AgentStatus;
import io.loadwise.dispatcher.metrics.MetricsSnapshot;
import io.loadwise.policy.AgentSample;
import java.util.Arrays;
import java.util.Map;

/** Turns what the dispatcher knows into one row of values per store, in catalog order. */
final class StoreSamples {

    private StoreSamples() {
    }

    /** A cluster store's row: Table 2, queue and retries of the last second, all unknown without a snapshot. */
    static double[] cluster(MetricsSnapshot latest) {
        double[] row = new double[SeriesCatalog.CLUSTER.size()];
        if (latest == null) {
            Arrays.fill(row, Double.NaN);
            return row;
        }
        double[] values = LastSecond.cluster(latest);
        System.arraycopy(values, 0, row, 0, values.length);
        return row;
    }

    /**
     * A node store's row: the agent's latest unexpired sample (tables 3-5), Table 6 and the node's Table 2.
     */
    static double[] node(AgentStatus agent, MetricsSnapshot latest) {
        SeriesCatalog catalog = SeriesCatalog.NODE;
        double[] row = new double[catalog.size()];
        Arrays.fill(row, Double.NaN);
        AgentSample sample = agent.freshSample();
        if (sample != null) {
            for (Map.Entry<String, Double> metric : sample.metrics().entrySet()) {
                int i = catalog.indexOf(metric.getKey());
                if (i >= 0 && i < SeriesCatalog.AGENT.size()) {
                    row[i] = metric.getValue();
                }
            }
        }
        int table6 = SeriesCatalog.AGENT.size();
        AgentPolling stats = agent.polling();
        if (stats != null) {
            row[table6] = stats.lastPollMillis();
            row[table6 + 1] = stats.availabilityPercent();
        }
        // TAP_NODE_LOAD% (table6 + 2) stays unknown: policies do not expose a load figure.
        if (latest != null) {
            row[table6 + 3] = latest.selections();
            row[table6 + 4] = latest.processingMillis();
        }
        fillTable2(row, table6 + SeriesCatalog.TABLE_6.size(), latest);
        return row;
    }

    private static void fillTable2(double[] row, int at, MetricsSnapshot s) {
        if (s == null) {
            Arrays.fill(row, at, at + SeriesCatalog.TABLE_2.size(), Double.NaN);
            return;
        }
        double[] values = LastSecond.table2(s);
        System.arraycopy(values, 0, row, at, values.length);
    }
}
