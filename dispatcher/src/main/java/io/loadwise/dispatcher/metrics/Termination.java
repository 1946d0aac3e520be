package io.loadwise.dispatcher.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * The termination state of an HTTP request, two letters as HAProxy writes them: who ended it ({@code C} client,
 * {@code P} proxy limit or refusal, {@code N} node side, {@code T} timeout, {@code R} rate limit, {@code -} normal)
 * and in which phase ({@code H} request head, {@code Q} queue, {@code C} connect, {@code R} waiting for the node's
 * response head, {@code D} body, {@code -} finished). Every state is one interned string of {@link #state}, so
 * naming one on the hot path allocates nothing; {@link Counts} counts requests per state for Prometheus.
 */
public final class Termination {

    public static final char CLIENT = 'C';
    public static final char PROXY = 'P';
    public static final char NODE = 'N';
    public static final char TIMEOUT = 'T';
    public static final char RATE_LIMIT = 'R';
    public static final char NORMAL = '-';

    public static final char HEAD = 'H';
    public static final char QUEUE = 'Q';
    public static final char CONNECT = 'C';
    public static final char RESPONSE_HEAD = 'R';
    public static final char DATA = 'D';
    public static final char DONE = '-';

    private static final String WHO = "CPNTR-";
    private static final String PHASES = "HQCRD-";
    /** Every combination, {@code who * 6 + phase}. */
    public static final int COUNT = WHO.length() * PHASES.length();
    private static final String[] STATES = new String[COUNT];

    static {
        for (int i = 0; i < COUNT; i++) {
            STATES[i] = ("" + WHO.charAt(i / PHASES.length()) + PHASES.charAt(i % PHASES.length())).intern();
        }
    }

    /** Ended normally: {@code --}. */
    public static final String OK = state(NORMAL, DONE);

    private Termination() {
    }

    /** The state {@code who}{@code phase}; both must be one of the letters above. */
    public static String state(char who, char phase) {
        return STATES[index(who, phase)];
    }

    /** The state numbered {@code index} (0 to {@link #COUNT} - 1). */
    public static String state(int index) {
        return STATES[index];
    }

    /** The number of {@code state}, or -1 when it is not two letters of the table. */
    public static int index(String state) {
        if (state == null || state.length() != 2) {
            return -1;
        }
        int who = WHO.indexOf(state.charAt(0));
        int phase = PHASES.indexOf(state.charAt(1));
        return who < 0 || phase < 0 ? -1 : who * PHASES.length() + phase;
    }

    private static int index(char who, char phase) {
        int w = WHO.indexOf(who);
        int p = PHASES.indexOf(phase);
        if (w < 0 || p < 0) {
            throw new IllegalArgumentException("no termination state " + who + phase);
        }
        return w * PHASES.length() + p;
    }

    /** Requests per termination state: one {@link LongAdder} increment per request. */
    public static final class Counts {

        private final LongAdder[] byState = new LongAdder[COUNT];

        public Counts() {
            for (int i = 0; i < COUNT; i++) {
                byState[i] = new LongAdder();
            }
        }

        /** Counts one request that ended in {@code state} (ignored when it is not a state). */
        public void ended(String state) {
            int i = index(state);
            if (i >= 0) {
                byState[i].increment();
            }
        }

        /** Requests that ended in state number {@code index}. */
        public long count(int index) {
            return byState[index].sum();
        }
    }
}
