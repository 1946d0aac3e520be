package io.loadwise.sim.workload;

/**
 * Parameters of the SURGE-like generator. Defaults are seed 002's Table 1 (SURGE, Barford & Crovella)
 * and its experiment (2000 files, largest ≈ 3 MB); the dynamic share is seed 004's SURGE trace (15.5 %
 * CGI requests).
 *
 * @param userEquivalents concurrent ON/OFF user processes
 * @param files distinct files on the server
 * @param zipfExponent popularity of the file of rank r ∝ 1/r^s (Table 1 gives no exponent; 1.0 is Zipf's law)
 * @param tailCutoffBytes file sizes above this follow the Pareto tail; seed 002 prints "1333K", which its
 *     digest reads as a transcription error for SURGE's 133K
 * @param maxFileBytes truncation of the heavy tail
 * @param dynamicFraction share of files served dynamically (CGI)
 */
public record SurgeParameters(int userEquivalents, int files, double zipfExponent, double tailCutoffBytes,
        double maxFileBytes, double dynamicFraction) {

    // Table 1 of seed 002
    static final double BODY_MU = 9.357;
    static final double BODY_SIGMA = 1.318;
    static final double TAIL_ALPHA = 1.1;
    static final double ACTIVE_OFF_A = 1.46;
    static final double ACTIVE_OFF_B = 0.382;
    static final double INACTIVE_OFF_K = 1.0;
    static final double INACTIVE_OFF_ALPHA = 1.5;
    static final double EMBEDDED_K = 1.0;
    static final double EMBEDDED_ALPHA = 2.43;

    public static final SurgeParameters DEFAULT = new SurgeParameters(400, 2000, 1.0, 133_000, 3_119_822, 0.155);

    public SurgeParameters {
        if (userEquivalents < 1 || files < 1) {
            throw new IllegalArgumentException("SURGE needs at least one user equivalent and one file");
        }
        if (!(zipfExponent >= 0) || !(tailCutoffBytes > 0) || !(maxFileBytes >= tailCutoffBytes)) {
            throw new IllegalArgumentException("SURGE: zipf exponent must be >= 0 and 0 < tail cutoff <= max file size");
        }
        if (!(dynamicFraction >= 0 && dynamicFraction <= 1)) {
            throw new IllegalArgumentException("SURGE: dynamic fraction must be within 0..1, got " + dynamicFraction);
        }
    }

    public SurgeParameters withUserEquivalents(int ues) {
        return new SurgeParameters(ues, files, zipfExponent, tailCutoffBytes, maxFileBytes, dynamicFraction);
    }

    public SurgeParameters withDynamicFraction(double fraction) {
        return new SurgeParameters(userEquivalents, files, zipfExponent, tailCutoffBytes, maxFileBytes, fraction);
    }
}
