package org.strait.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.ReentrantLock;
import org.strait.JsFunction;
import org.strait.JsObject;
import org.strait.JsRuntime;

/**
 * Java -> JS rows (issue 4): calls with no arguments, three existing and
 * three new Java objects, a JS implementation of Runnable, contention of 1,
 * 2 and 4 threads (gate vs. engine lock alone vs. parking at once vs. a
 * plain ReentrantLock, rounds interleaved), 1,000,000 tasks posted to the
 * loop, idle loop CPU.
 */
public final class InteropBench {
    private InteropBench() {}

    static final String FLOOR = "floor.jni_downcall+floor.jsc_call_function";

    /**
     * BENCH_INTEROP_ROWS: comma-separated prefixes of the rows to run (for
     * example "call_,proxy"); unset runs every row.
     */
    static boolean wanted(String row) {
        String only = System.getenv("BENCH_INTEROP_ROWS");
        if (only == null || only.isEmpty()) return true;
        for (String p : only.split(","))
            if (!p.isEmpty() && row.startsWith(p)) return true;
        return false;
    }

    public static void main(String[] args) throws Exception {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            JsFunction f = (JsFunction) rt.eval("(function () {})");
            JsFunction f3 = (JsFunction) rt.eval("(function (a, b, c) {})");
            Object a = new Object(), b = new Object(), c = new Object();
            boolean bridge;
            try {
                f3.call(a, b, c);
                /* JS keeps them, so their wrappers stay alive between calls */
                rt.setGlobal("benchKeepA", a);
                rt.setGlobal("benchKeepB", b);
                rt.setGlobal("benchKeepC", c);
                bridge = true;
            } catch (RuntimeException e) {
                bridge = false;
            }
            String base = FLOOR_HERE + "," + FLOOR;
            Row floor = new Row("floor_call", null,
                    "floor in this process: empty JNI downcall making one raw JSObjectCallAsFunction"
                            + " of an empty function, no arguments, JSC's API lock only",
                    n -> InteropFloor.rawCalls(f, n));
            Row noargs = new Row("call_noargs", base,
                    "JsFunction.call() from Java, empty JS function, no arguments",
                    n -> {
                        for (long i = 0; i < n; i++) f.call();
                    });
            Row existing = new Row("call_3_existing", base,
                    "JsFunction.call(a, b, c): three Java objects JS has seen before (and holds)",
                    n -> {
                        for (long i = 0; i < n; i++) f3.call(a, b, c);
                    });
            interleaved(floor, noargs, bridge ? existing : null);
            if (!bridge) {
                Bench.skip("interop", "call_3_existing", "the Java bridge cannot wrap Java objects yet");
                Bench.skip("interop", "call_3_new", "the Java bridge cannot wrap Java objects yet");
            }
            Runnable r = ((JsObject) rt.eval("({ run() {} })")).as(Runnable.class);
            if (wanted("proxy_run"))
                Bench.run("interop", "proxy_run", base + ",interop.call_noargs",
                        "Runnable implemented in JS: r.run() from Java (Proxy + InvocationHandler)",
                        n -> {
                            for (long i = 0; i < n; i++) r.run();
                        });
            if (wanted("contention_")) contention(rt, f);
        }
        if (wanted("call_3_new")) newObjectRows();
        if (wanted("loop_") || wanted("idle_")) loopRows();
    }

    /**
     * call_3_new, interleaved with the floor, in a runtime of its own: the
     * wrappers it leaves for both collectors go with that runtime instead
     * of slowing the rows measured after it.
     */
    static void newObjectRows() throws Exception {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            JsFunction f = (JsFunction) rt.eval("(function () {})");
            JsFunction f3 = (JsFunction) rt.eval("(function (a, b, c) {})");
            try {
                f3.call(new Object(), new Object(), new Object());
            } catch (RuntimeException e) {
                return;   /* skipped with call_3_existing */
            }
            interleaved(new Row("floor_call", null,
                    "floor in this process: empty JNI downcall making one raw JSObjectCallAsFunction"
                            + " of an empty function, no arguments, JSC's API lock only",
                    n -> InteropFloor.rawCalls(f, n)),
                    new Row("call_3_new", FLOOR_HERE + "," + FLOOR,
                            "JsFunction.call(new Object() x3): three new Java objects per call",
                            n -> {
                                for (long i = 0; i < n; i++)
                                    f3.call(new Object(), new Object(), new Object());
                            }));
        }
        System.gc();
    }

    /** The floor of the call rows measured in this process (interop.floor_call). */
    static final String FLOOR_HERE = "interop.floor_call";

    /** One row of {@link #interleaved}. */
    private static final class Row {
        final String name, baselines, desc;
        final Bench.Op op;
        long n;
        double[] v;

        Row(String name, String baselines, String desc, Bench.Op op) {
            this.name = name;
            this.baselines = baselines;
            this.desc = desc;
            this.op = op;
        }
    }

    /**
     * Measures the floor and the wanted rows of others (null: none) with
     * their rounds interleaved (round 1 of each, then round 2, ...), like
     * bench-floors, so a noisy neighbour hits a row and its same-process
     * floor alike. Each row is calibrated to BENCH_ROUND_MS and warmed up
     * first; median ns per operation. The floor's row may print more than
     * once (the report takes the median).
     */
    static void interleaved(Row floor, Row... others) throws Exception {
        long target = Bench.envLong("BENCH_ROUND_MS", 40) * 1_000_000L;
        int warmup = (int) Bench.envLong("BENCH_WARMUP", 2) + 1;
        int rounds = (int) Math.min(64, Bench.envLong("BENCH_ROUNDS", 7));
        java.util.List<Row> rows = new java.util.ArrayList<>();
        for (Row r : others)
            if (r != null && wanted(r.name)) rows.add(r);
        if (rows.isEmpty()) return;
        rows.add(0, floor);
        for (Row r : rows) {
            r.v = null;
            try {
                long n = 16;
                long t = time(r.op, n);
                while (t < target && n < (1L << 40)) {
                    double k = t > 0 ? (double) target / t * 1.2 : 10;
                    n = (long) (n * Math.max(2, Math.min(10, k)));
                    t = time(r.op, n);
                }
                for (int i = 0; i < warmup; i++) time(r.op, n);
                r.n = n;
                r.v = new double[rounds];
            } catch (Throwable e) {
                Bench.skip("interop", r.name, e.toString());
            }
        }
        for (int i = 0; i < rounds; i++)
            for (Row r : rows)
                if (r.v != null) r.v[i] = (double) time(r.op, r.n) / r.n;
        for (Row r : rows) {
            if (r.v == null) continue;
            Arrays.sort(r.v);
            double med = (rounds & 1) == 1 ? r.v[rounds / 2] : (r.v[rounds / 2 - 1] + r.v[rounds / 2]) / 2;
            Bench.row("interop", r.name, med, r.baselines, r.desc);
        }
    }

    private static long time(Bench.Op op, long n) throws Exception {
        long t0 = System.nanoTime();
        op.run(n);
        return System.nanoTime() - t0;
    }

    /** One contention row: its gate spin setting and one call. */
    private static final class Variant {
        final String name, desc;
        final long spin;
        final Runnable call;
        long n;
        final double[] v;

        Variant(String name, String desc, long spin, Runnable call, int rounds) {
            this.name = name;
            this.desc = desc;
            this.spin = spin;
            this.call = call;
            this.v = new double[rounds];
        }
    }

    /**
     * n calls split over `threads` threads; wall time per call. The four
     * rows of one thread count run their rounds interleaved (round 1 of
     * each, then round 2, ...), like bench-floors, so a noisy neighbour
     * hits them alike and their ratios stay meaningful.
     */
    static void contention(JsRuntime rt, JsFunction f) throws Exception {
        ReentrantLock lock = new ReentrantLock();
        long target = Bench.envLong("BENCH_ROUND_MS", 40) * 1_000_000L;
        int warmup = (int) Bench.envLong("BENCH_WARMUP", 2) + 1;
        int rounds = (int) Math.min(64, Bench.envLong("BENCH_ROUNDS", 7));
        for (int threads : new int[] {1, 2, 4}) {
            String base = "interop.contention_" + threads + "t_";
            Variant[] vs = {
                new Variant("gate", threads + " Java threads calling one runtime through its admission gate"
                        + " (one waiter yields the CPU for up to 50 us, the others park); ns per call of an"
                        + " empty JS function with no arguments",
                        50, () -> JsRuntimeTuning.callGateOnly(f), rounds),
                new Variant("enginelock", threads + " threads, the same call with no admission gate: JSC's own"
                        + " API lock only",
                        50, () -> JsRuntimeTuning.callWithoutGate(f), rounds),
                new Variant("park", threads + " threads, the same call through the gate parking at once (a"
                        + " plain lock in front of the engine lock)", -1, () -> JsRuntimeTuning.callGateOnly(f),
                        rounds),
                new Variant("rlock", threads + " threads, the same call with no gate under one shared"
                        + " java.util.concurrent.locks.ReentrantLock", 50, () -> {
                            lock.lock();
                            try {
                                JsRuntimeTuning.callWithoutGate(f);
                            } finally {
                                lock.unlock();
                            }
                        }, rounds),
                new Variant("api", threads + " threads, JsFunction.call() through the gate (argument"
                        + " packing and result conversion included)", 50, () -> f.call(), rounds),
            };
            try {
                for (Variant v : vs) {
                    JsRuntimeTuning.setGateSpinMicros(rt, v.spin);
                    long n = 16 * threads;
                    long t = round(threads, n, v);
                    while (t < target && n < (1L << 40)) {
                        double k = t > 0 ? (double) target / t * 1.2 : 10;
                        n = (long) (n * Math.max(2, Math.min(10, k)));
                        t = round(threads, n, v);
                    }
                    v.n = n;
                    for (int i = 0; i < warmup; i++) round(threads, n, v);
                }
                for (int r = 0; r < rounds; r++) {
                    for (Variant v : vs) {
                        JsRuntimeTuning.setGateSpinMicros(rt, v.spin);
                        v.v[r] = (double) round(threads, v.n, v) / v.n;
                    }
                }
                for (Variant v : vs) {
                    Arrays.sort(v.v);
                    double med = (rounds & 1) == 1 ? v.v[rounds / 2]
                            : (v.v[rounds / 2 - 1] + v.v[rounds / 2]) / 2;
                    Bench.row("interop", "contention_" + threads + "t_" + v.name, med,
                            v.name.equals("gate") ? base + "enginelock," + base + "park," + base + "rlock"
                                    : v.name.equals("api") ? base + "gate" : null,
                            v.desc);
                }
            } catch (Throwable e) {
                for (Variant v : vs) Bench.skip("interop", "contention_" + threads + "t_" + v.name, e.toString());
            } finally {
                JsRuntimeTuning.setGateSpinMicros(rt, 50);
            }
        }
    }

    /** One timed round of variant v: n calls over `threads` threads; ns. */
    private static long round(int threads, long n, Variant v) throws Exception {
        long t0 = System.nanoTime();
        parallel(threads, n, v.call);
        return System.nanoTime() - t0;
    }

    static void parallel(int threads, long n, Runnable call) throws Exception {
        long per = Math.max(1, n / threads);
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        Thread[] ts = new Thread[threads];
        Throwable[] err = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                try {
                    start.await();
                    for (long i = 0; i < per; i++) call.run();
                } catch (Throwable e) {
                    err[0] = e;
                }
            });
            ts[t].start();
        }
        start.await();
        for (Thread t : ts) t.join();
        if (err[0] != null) throw new RuntimeException(err[0]);
    }

    static void loopRows() throws Exception {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Runnable noop = () -> {};
            long[] ns = new long[1];
            long count = 1_000_000;
            long t0 = System.nanoTime();
            for (long i = 0; i < count; i++) rt.post(noop);
            rt.runLoop();
            ns[0] = System.nanoTime() - t0;
            Bench.row("interop", "loop_1m_posted_tasks", (double) ns[0] / count, null,
                    "1,000,000 no-op Runnables posted from Java, then runLoop(): ns per task (post + run)");

            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            AutoCloseable keep = rt.keepAlive();
            Thread loop = new Thread(rt::runLoop);
            loop.start();
            Thread.sleep(200);
            long c0 = mx.getThreadCpuTime(loop.getId());
            long seconds = Bench.envLong("BENCH_IDLE_SECONDS", 2);
            Thread.sleep(seconds * 1000);
            long c1 = mx.getThreadCpuTime(loop.getId());
            keep.close();
            loop.join(5000);
            Bench.row("interop", "idle_loop_cpu", (double) (c1 - c0) / seconds, null,
                    "CPU ns used per second by an idle loop thread (runLoop with keepAlive, " + seconds + " s)");
        }
    }
}
