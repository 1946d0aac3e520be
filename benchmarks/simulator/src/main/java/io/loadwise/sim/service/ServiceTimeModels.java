package io.loadwise.sim.service;

/** Parses the {@code --service} option. */
public final class ServiceTimeModels {

    public static final String SYNTAX = "exponential | deterministic | teo-ayani | "
            + "size-linear:STATIC_K_BYTES_PER_S,STATIC_C_MS,DYNAMIC_K_BYTES_PER_S,DYNAMIC_C_MS";

    private ServiceTimeModels() {
    }

    /**
     * @param meanSeconds mean service time for the exponential and deterministic models
     */
    public static ServiceTimeModel parse(String spec, double meanSeconds) {
        switch (spec) {
            case "exponential":
                return new ExponentialServiceTime(meanSeconds);
            case "deterministic":
                return new DeterministicServiceTime(meanSeconds);
            case "teo-ayani":
                return SizeLinearServiceTime.TEO_AYANI;
            default:
                break;
        }
        if (spec.startsWith("size-linear:")) {
            String[] parts = spec.substring("size-linear:".length()).split(",");
            if (parts.length != 4) {
                throw new IllegalArgumentException("--service " + spec + ": size-linear needs 4 values, "
                        + "STATIC_K_BYTES_PER_S,STATIC_C_MS,DYNAMIC_K_BYTES_PER_S,DYNAMIC_C_MS");
            }
            double[] v = new double[4];
            for (int i = 0; i < 4; i++) {
                try {
                    v[i] = Double.parseDouble(parts[i].trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--service " + spec + ": '" + parts[i] + "' is not a number");
                }
            }
            return new SizeLinearServiceTime("size-linear", v[0], v[1] / 1e3, v[2], v[3] / 1e3);
        }
        throw new IllegalArgumentException("--service " + spec + ": unknown service-time model, expected " + SYNTAX);
    }

    static void requirePositive(double value, String what) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a positive number, got " + value);
        }
    }
}
