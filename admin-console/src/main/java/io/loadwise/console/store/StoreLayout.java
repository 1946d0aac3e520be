package io.loadwise.console.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rrd4j.ConsolFun;
import org.rrd4j.DsType;
import org.rrd4j.core.ArcDef;
import org.rrd4j.core.DsDef;
import org.rrd4j.core.RrdDb;
import org.rrd4j.core.RrdDef;

/**
 * The layout every store has (issue 4): step 1 s; AVERAGE and MAX archives at 1 s for 1 hour, 10 s for
 * 1 day and 5 min for 30 days; one GAUGE data source per series.
 */
public final class StoreLayout {

    public static final long STEP_SECONDS = 1;

    /**
     * A value counts for up to this long without a new one: a writer tick delayed by a busy machine
     * does not leave a hole, a stopped dispatcher does.
     */
    public static final long HEARTBEAT_SECONDS = 5;

    /** A consolidated point is known when at least half of its primary points are. */
    public static final double XFF = 0.5;

    /** One round-robin archive. */
    public record ArchiveSpec(ConsolFun function, int steps, int rows) {

        public long resolutionSeconds() {
            return steps * STEP_SECONDS;
        }

        public long spanSeconds() {
            return resolutionSeconds() * rows;
        }
    }

    /** 1 s × 3600 = 1 h, 10 s × 8640 = 1 day, 300 s × 8640 = 30 days; for each of AVERAGE and MAX. */
    public static final List<ArchiveSpec> ARCHIVES = archives();

    private StoreLayout() {
    }

    private static List<ArchiveSpec> archives() {
        List<ArchiveSpec> out = new ArrayList<>();
        for (ConsolFun function : new ConsolFun[] {ConsolFun.AVERAGE, ConsolFun.MAX}) {
            out.add(new ArchiveSpec(function, 1, 3600));
            out.add(new ArchiveSpec(function, 10, 8640));
            out.add(new ArchiveSpec(function, 300, 8640));
        }
        return List.copyOf(out);
    }

    /** The definition of a new store for {@code catalog} at {@code file}, starting just before {@code startSeconds}. */
    static RrdDef definition(Path file, SeriesCatalog catalog, long startSeconds) {
        RrdDef def = new RrdDef(file.toString(), startSeconds - 1, STEP_SECONDS);
        for (Series series : catalog.series()) {
            def.addDatasource(new DsDef(series.dsName(), DsType.GAUGE, HEARTBEAT_SECONDS, Double.NaN, Double.NaN));
        }
        for (ArchiveSpec archive : ARCHIVES) {
            def.addArchive(new ArcDef(archive.function(), XFF, archive.steps(), archive.rows()));
        }
        return def;
    }

    /**
     * How an open store differs from the layout for {@code catalog}: data source names and types, step,
     * archives. Empty when it matches.
     */
    static List<String> differences(RrdDb db, SeriesCatalog catalog) throws IOException {
        RrdDef actual = db.getRrdDef();
        RrdDef expected = definition(Path.of(db.getPath()), catalog, actual.getStartTime() + 1);
        List<String> out = new ArrayList<>();
        if (actual.getStep() != expected.getStep()) {
            out.add("step " + actual.getStep() + " s, expected " + expected.getStep() + " s");
        }
        if (!describe(actual.getDsDefs()).equals(describe(expected.getDsDefs()))) {
            out.add("data sources " + describe(actual.getDsDefs()) + ", expected " + describe(expected.getDsDefs()));
        }
        if (!describe(actual.getArcDefs()).equals(describe(expected.getArcDefs()))) {
            out.add("archives " + describe(actual.getArcDefs()) + ", expected " + describe(expected.getArcDefs()));
        }
        return out;
    }

    private static List<String> describe(DsDef[] defs) {
        List<String> out = new ArrayList<>();
        for (DsDef d : defs) {
            out.add(d.getDsName() + ":" + d.getDsType() + ":" + d.getHeartbeat());
        }
        return out;
    }

    private static List<String> describe(ArcDef[] defs) {
        List<String> out = new ArrayList<>();
        for (ArcDef a : defs) {
            out.add(a.getConsolFun() + ":" + a.getSteps() + "x" + a.getRows());
        }
        return out;
    }
}
