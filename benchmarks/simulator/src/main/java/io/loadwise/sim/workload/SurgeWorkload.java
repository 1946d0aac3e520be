package io.loadwise.sim.workload;

import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A SURGE-like synthetic trace (seed 002 Table 1). A fixed set of files gets lognormal-body /
 * Pareto-tail sizes and Zipf popularity; each user equivalent loops forever: fetch a page, then its
 * embedded objects (Pareto count) separated by Weibull "active OFF" gaps, then think for a Pareto
 * "inactive OFF" time. The merged request stream is an open-loop trace, so users do not wait for
 * responses: seed 004 also replayed a recorded SURGE trace open loop. Not modelled: temporal locality
 * (Table 1's lognormal stack distance), which changes which file is fetched, not when.
 */
public final class SurgeWorkload {

    private final SurgeParameters params;
    private final long[] fileSizes;
    private final boolean[] fileDynamic;
    private final double[] cumulativePopularity;

    private SurgeWorkload(SurgeParameters params, SplittableRandom random) {
        this.params = params;
        int files = params.files();
        fileSizes = new long[files];
        fileDynamic = new boolean[files];
        for (int i = 0; i < files; i++) {
            fileSizes[i] = fileSize(random);
            fileDynamic[i] = random.nextDouble() < params.dynamicFraction();
        }
        // popularity ranks are assigned to files at random, independently of size, as SURGE does
        int[] rankOfFile = new int[files];
        for (int i = 0; i < files; i++) {
            rankOfFile[i] = i + 1;
        }
        for (int i = files - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = rankOfFile[i];
            rankOfFile[i] = rankOfFile[j];
            rankOfFile[j] = t;
        }
        cumulativePopularity = new double[files];
        double sum = 0;
        for (int i = 0; i < files; i++) {
            sum += 1 / Math.pow(rankOfFile[i], params.zipfExponent());
            cumulativePopularity[i] = sum;
        }
        for (int i = 0; i < files; i++) {
            cumulativePopularity[i] /= sum;
        }
    }

    /** Generates {@code requests} requests; the same seed gives the same trace. */
    public static Trace generate(SurgeParameters params, int requests, long seed) {
        if (requests < 2) {
            throw new IllegalArgumentException("a SURGE workload needs at least 2 requests, got " + requests);
        }
        SplittableRandom random = new SplittableRandom(seed);
        SurgeWorkload files = new SurgeWorkload(params, random.split());
        PriorityQueue<User> users = new PriorityQueue<>();
        for (int u = 0; u < params.userEquivalents(); u++) {
            User user = new User(random.split());
            // stagger the start over one mean think time so users do not begin in lockstep
            user.nextSeconds = user.random.nextDouble() * 3.0;
            user.startPage(files);
            users.add(user);
        }
        TraceBuilder trace = new TraceBuilder();
        while (trace.size() < requests) {
            User user = users.poll();
            int file = user.pendingFile;
            trace.add(Math.round(user.nextSeconds * 1e9), files.fileSizes[file], files.fileDynamic[file]);
            user.advance(files);
            users.add(user);
        }
        return trace.build(String.format("SURGE-like, %d UEs, %d files", params.userEquivalents(), params.files()));
    }

    private long fileSize(SplittableRandom random) {
        double size = Math.exp(SurgeParameters.BODY_MU + SurgeParameters.BODY_SIGMA * random.nextGaussian());
        if (size > params.tailCutoffBytes()) {
            size = pareto(random, params.tailCutoffBytes(), SurgeParameters.TAIL_ALPHA);
        }
        return Math.max(1, Math.round(Math.min(size, params.maxFileBytes())));
    }

    int drawFile(SplittableRandom random) {
        double u = random.nextDouble();
        int lo = 0;
        int hi = cumulativePopularity.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulativePopularity[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    static double pareto(SplittableRandom random, double k, double alpha) {
        return k * Math.pow(1.0 - random.nextDouble(), -1 / alpha);
    }

    static double weibull(SplittableRandom random, double a, double b) {
        return a * Math.pow(-Math.log(1.0 - random.nextDouble()), 1 / b);
    }

    /** One user equivalent's ON/OFF state. */
    private static final class User implements Comparable<User> {
        final SplittableRandom random;
        double nextSeconds;
        int pendingFile;
        int embeddedLeft;

        User(SplittableRandom random) {
            this.random = random;
        }

        void startPage(SurgeWorkload files) {
            pendingFile = files.drawFile(random);
            embeddedLeft = (int) Math.floor(pareto(random, SurgeParameters.EMBEDDED_K, SurgeParameters.EMBEDDED_ALPHA));
        }

        void advance(SurgeWorkload files) {
            if (embeddedLeft > 0) {
                embeddedLeft--;
                nextSeconds += weibull(random, SurgeParameters.ACTIVE_OFF_A, SurgeParameters.ACTIVE_OFF_B);
                pendingFile = files.drawFile(random);
            } else {
                nextSeconds += pareto(random, SurgeParameters.INACTIVE_OFF_K, SurgeParameters.INACTIVE_OFF_ALPHA);
                startPage(files);
            }
        }

        @Override
        public int compareTo(User o) {
            return Double.compare(nextSeconds, o.nextSeconds);
        }
    }
}
