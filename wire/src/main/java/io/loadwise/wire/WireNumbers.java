package io.loadwise.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Number formatting shared by both wire formats: plain decimal notation, never an exponent. */
final class WireNumbers {

    /** Enough for 0.01 % resolution on fractions and sub-millisecond times. */
    private static final int SCALE = 4;

    private WireNumbers() {
    }

    /** Appends a finite value: integral values without a fraction, others rounded to 4 decimals. */
    static void append(StringBuilder out, double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            out.append((long) value);
            return;
        }
        BigDecimal rounded = BigDecimal.valueOf(value).setScale(SCALE, RoundingMode.HALF_UP).stripTrailingZeros();
        if (rounded.signum() == 0) {
            out.append('0');
        } else {
            out.append(rounded.toPlainString());
        }
    }
}
