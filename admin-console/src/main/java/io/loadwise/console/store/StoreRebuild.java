package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.rrd4j.ConsolFun;
import org.rrd4j.core.Archive;
import org.rrd4j.core.RrdBackendFactory;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.RrdDef;
import org.rrd4j.core.Robin;

/**
 * Rewrites a closed store with other data sources or into the current archive layout, keeping its history.
 *
 * <p>Why a rewrite: an rrd4j file's data sources are fixed when it is created (there is no "add data
 * source" in place). A node store holds only the series its node reports, so when a node reports a new
 * metric its store is rewritten with one more data source. The other ways were worse: a file per series
 * costs an open file and a memory map per series (60 per node), a file per series group still needs
 * rewrites within a group, and creating every series up front is what made a node cost 29 MB. A rewrite
 * happens once per new metric of a node (the catalog bounds it) and copies a few MB.
 *
 * <p>The new file is written as {@code <file>.partial} and renamed over the old one only when complete,
 * so a crash in between leaves the old store as it was (the partial file is removed later). Data
 * sources and archives that both files have are copied as they are (rrd4j's {@code copyStateTo}: values,
 * consolidation state, last update). Archives of the first layout that the current one keeps coarser
 * (10 s and 5 min rows into 1 and 30 minutes) are re-consolidated row by row; the row in progress at
 * that moment starts unknown, so the conversion loses at most one 1-minute and one 30-minute point.
 */
final class StoreRebuild {

    private StoreRebuild() {
    }

    static Path partialOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".partial");
    }

    /**
     * Rewrites the store at {@code file} (closed, its journal already applied) holding {@code series} in
     * the current layout.
     *
     * @return the size of the new file in bytes
     */
    static long rewrite(Path file, List<Series> series, RrdBackendFactory backend) throws IOException {
        Path partial = partialOf(file);
        Files.deleteIfExists(partial);
        try (RrdDb old = RrdDb.getBuilder().setPath(file.toString()).setBackendFactory(backend).readOnly().build()) {
            // Starting the new file at the old one's last update keeps every consolidation state consistent.
            RrdDef def = StoreLayout.definition(partial, series, old.getLastUpdateTime() + 1);
            try (RrdDb fresh = RrdDb.getBuilder().setRrdDef(def).setBackendFactory(backend).build()) {
                old.copyStateTo(fresh);
                reconsolidate(old, fresh);
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        moveIntoPlace(partial, file);
        return Files.size(file);
    }

    static void moveIntoPlace(Path partial, Path file) throws IOException {
        try {
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Fills each archive of {@code fresh} that {@code old} has no exact copy of from a finer one of the same function. */
    private static void reconsolidate(RrdDb old, RrdDb fresh) throws IOException {
        for (int a = 0; a < fresh.getArcCount(); a++) {
            Archive target = fresh.getArchive(a);
            if (find(old, target.getConsolFun(), target.getSteps()) != null) {
                continue;
            }
            Archive source = finestDivisor(old, target);
            if (source == null) {
                continue;
            }
            for (int d = 0; d < fresh.getDsCount(); d++) {
                String name = fresh.getDatasource(d).getName();
                if (old.containsDs(name)) {
                    double[] values = consolidate(source, old.getDsIndex(name), target);
                    target.getRobin(d).setValues(values);
                }
            }
        }
    }

    private static Archive find(RrdDb db, ConsolFun function, int steps) throws IOException {
        for (int i = 0; i < db.getArcCount(); i++) {
            Archive a = db.getArchive(i);
            if (a.getConsolFun() == function && a.getSteps() == steps) {
                return a;
            }
        }
        return null;
    }

    /** The coarsest archive of {@code old} with the target's function whose rows divide the target's. */
    private static Archive finestDivisor(RrdDb old, Archive target) throws IOException {
        Archive best = null;
        for (int i = 0; i < old.getArcCount(); i++) {
            Archive a = old.getArchive(i);
            if (a.getConsolFun() == target.getConsolFun() && a.getSteps() < target.getSteps()
                    && target.getSteps() % a.getSteps() == 0 && (best == null || a.getSteps() > best.getSteps())) {
                best = a;
            }
        }
        return best;
    }

    /**
     * The target's rows, oldest first, each from the source rows it covers: known when at most
     * {@link StoreLayout#XFF} of them are unknown (rrd4j's own rule), then their mean or maximum.
     */
    private static double[] consolidate(Archive source, int dsIndex, Archive target) throws IOException {
        Robin robin = source.getRobin(dsIndex);
        double[] in = robin.getValues();
        long inStep = source.getArcStep();
        long inStart = source.getStartTime();
        long outStep = target.getArcStep();
        int perRow = (int) (outStep / inStep);
        int rows = target.getRows();
        long outEnd = target.getEndTime();
        double[] out = new double[rows];
        for (int r = 0; r < rows; r++) {
            long rowTime = outEnd - (long) (rows - 1 - r) * outStep;
            double sum = 0;
            double max = Double.NaN;
            int known = 0;
            for (int k = 0; k < perRow; k++) {
                long t = rowTime - outStep + (k + 1) * inStep;
                long index = (t - inStart) / inStep;
                if (t < inStart || index >= in.length || Double.isNaN(in[(int) index])) {
                    continue;
                }
                double v = in[(int) index];
                sum += v;
                max = Double.isNaN(max) ? v : Math.max(max, v);
                known++;
            }
            boolean enough = known > 0 && perRow - known <= StoreLayout.XFF * perRow;
            out[r] = !enough ? Double.NaN : target.getConsolFun() == ConsolFun.MAX ? max : sum / known;
        }
        return out;
    }
}
