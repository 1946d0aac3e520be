package io.loadwise.console.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DsNamesTest {

    @Test
    void everyDataSourceNameFitsRrd4jAndIsUniqueInItsStore() {
        for (SeriesCatalog catalog : new SeriesCatalog[] {SeriesCatalog.CLUSTER, SeriesCatalog.NODE}) {
            Set<String> seen = new HashSet<>();
            for (Series s : catalog.series()) {
                assertTrue(s.dsName().length() <= DsNames.MAX_LENGTH, s.dsName());
                assertTrue(s.dsName().matches("[A-Z][A-Z0-9_]*"), s.dsName());
                assertTrue(seen.add(s.dsName()), "duplicate " + s.dsName());
            }
        }
    }

    @Test
    void percentagesMapToPSuffixAndPlainNamesToThemselves() {
        assertEquals("JVM_HEAP_USED_P", DsNames.of("JVM_HEAP_USED%"));
        assertEquals("AMX_CONNS_Q_THRBSY_P", DsNames.of("AMX_CONNS_Q_THRBSY%"));
        assertEquals("NODE_AVAILABILITY_P", DsNames.of("NODE_AVAILABILITY%"));
        assertEquals("NET_TCP_RETRANS_SEGS", DsNames.of("NET_TCP_RETRANS_SEGS"));
        assertEquals("TD_AVE_SRV_CONN_WAIT", DsNames.of("TD_AVE_SRV_CONN_WAIT"));
    }

    @Test
    void aNameThatWouldNotFitIsRefusedUntilTheTableHasIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DsNames.of("AMX_CONNS_Q_THRBSY_EXTRA"));
        assertTrue(e.getMessage().contains("DsNames"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DsNames.of("NEW_METRIC%%"));
    }

    @Test
    void docsListEveryDataSourceOfBothStoresInOrder() throws Exception {
        String docs = Files.readString(Path.of("..", "docs", "metrics.md"));
        for (SeriesCatalog catalog : new SeriesCatalog[] {SeriesCatalog.CLUSTER, SeriesCatalog.NODE}) {
            for (int i = 0; i < catalog.size(); i++) {
                Series s = catalog.series().get(i);
                String row = "| " + i + " | `" + s.metric() + "` | `" + s.dsName() + "` | " + s.group().key() + " |";
                assertTrue(docs.contains(row), "docs/metrics.md lacks " + row);
            }
        }
    }

    @Test
    void everyTableEntryIsUsedAndEveryPercentageIsInTheTable() {
        Set<String> metrics = new HashSet<>(SeriesCatalog.NODE.metricNames());
        assertTrue(metrics.containsAll(DsNames.table().keySet()), DsNames.table().keySet().toString());
        for (String metric : metrics) {
            assertEquals(metric.contains("%"), DsNames.table().containsKey(metric), metric);
        }
    }
}
