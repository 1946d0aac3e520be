package io.loadwise.sim.service;

/** Parses the {@code --service} option. */
public final class ServiceTimeModels {

    public static final String SYNTAX = "exponential | deterministic | bounded-pareto:ALPHA,MAX_OVER_MIN | teo-ayani | "
            + "size-linear:STATIC_K_BYTES_PER_S,STATIC_C_MS,DYNAMIC_K_BYTES_PER_S,DYNAMIC_C_MS";

    private ServiceTimeModels() {
    }

    /**
     * @param meanSeconds mean service time for the exponential, deterministic and bounded Pareto models
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
        if (spec.startsWith("bounded-pareto:")) {
            double[] v = numbers(spec, spec.substring("bounded-pareto:".length()), 2, "ALPHA,MAX_OVER_MIN, e.g. 1.1,1000");
            return new BoundedParetoServiceTime(v[0], v[1], meanSeconds);
        }
        if (spec.startsWith("size-linear:")) {
            double[] v = numbers(spec, spec.substring("size-linear:".length()), 4,
                    "STATIC_K_BYTES_PER_S,STATIC_C_MS,DYNAMIC_K_BYTES_PER_S,DYNAMIC_C_MS");
            return new SizeLinearServiceTime("size-linear", v[0], v[1] / 1e3, v[2], v[3] / 1e3);
        }
        throw new IllegalArgumentException("--service " + spec + ": unknown service-time model, expected " + SYNTAX);
    }

    private static double[] numbers(String spec, String list, int count, String expected) {
        String[] parts = list.split(",");
        String model = spec.substring(0, spec.indexOf(':'));
        if (parts.length != count) {
            throw new IllegalArgumentException("--service " + spec + ": " + model + " needs " + count + " values, " + expected);
        }
        double[] v = new double[count];
        for (int i = 0; i < count; i++) {
            try {
                v[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--service " + spec + ": '" + parts[i] + "' is not a number");
            }
        }
        return v;
    }

    static void requirePositive(double value, String what) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a positive number, got " + value);
        }
    }
}
