package org.strait.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * Measurement helpers for the Java benchmark classes, with the same rules as
 * bench/c/measure.c: calibrate the number of operations so one round lasts at
 * least BENCH_ROUND_MS (default 40), run BENCH_WARMUP untimed rounds (default
 * 2, plus one more for the JIT), then BENCH_ROUNDS rounds (default 7), and
 * report the median nanoseconds per operation as a row on stdout (format in
 * bench/README.md).
 */
public final class Bench {
    private Bench() {}

    /** Performs n operations of a benchmark. */
    @FunctionalInterface
    public interface Op {
        void run(long n) throws Exception;
    }

    /** Returns a positive integer environment variable, or def. */
    public static long envLong(String name, long def) {
        String s = System.getenv(name);
        if (s == null || s.isEmpty()) return def;
        try {
            long v = Long.parseLong(s);
            return v > 0 ? v : def;
        } catch (NumberFormatException e) {
            return def;
        }
    }

    private static long timeRound(Op op, long n) throws Exception {
        long t0 = System.nanoTime();
        op.run(n);
        return System.nanoTime() - t0;
    }

    /** Median ns per operation of op, after calibration and warm-up. */
    public static double measure(Op op) throws Exception {
        long target = envLong("BENCH_ROUND_MS", 40) * 1_000_000L;
        int warmup = (int) envLong("BENCH_WARMUP", 2) + 1;
        int rounds = (int) Math.min(64, envLong("BENCH_ROUNDS", 7));
        long n = 16;
        long t = timeRound(op, n);
        while (t < target && n < (1L << 40)) {
            double f = t > 0 ? (double) target / t * 1.2 : 10;
            n = (long) (n * Math.max(2, Math.min(10, f)));
            t = timeRound(op, n);
        }
        for (int i = 0; i < warmup; i++) timeRound(op, n);
        double[] v = new double[rounds];
        for (int i = 0; i < rounds; i++) v[i] = (double) timeRound(op, n) / n;
        Arrays.sort(v);
        return (rounds & 1) == 1 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2;
    }

    /**
     * Prints one row. baselines: comma-separated row names or sums ("a+b"),
     * or null. No tabs or newlines in any string.
     */
    public static void row(String group, String name, double nsPerOp, String baselines, String desc) {
        System.out.printf(Locale.ROOT, "row\t%s\t%s\t%.3f\t%s\t%s%n", group, name, nsPerOp,
                baselines == null || baselines.isEmpty() ? "-" : baselines, desc == null ? "" : desc);
        System.out.flush();
    }

    /** Prints a skip line: the row could not be measured in this run, and why. */
    public static void skip(String group, String name, String reason) {
        System.out.printf(Locale.ROOT, "skip\t%s\t%s\t%s%n", group, name, reason.replace('\t', ' ').replace('\n', ' '));
        System.out.flush();
    }

    /** Measures op and prints its row; a failure becomes a skip line. */
    public static void run(String group, String name, String baselines, String desc, Op op) {
        try {
            row(group, name, measure(op), baselines, desc);
        } catch (Throwable e) {
            skip(group, name, e.toString());
        }
    }
}
