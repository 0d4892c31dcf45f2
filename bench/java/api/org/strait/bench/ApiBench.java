package org.strait.bench;

import org.strait.HostAccess;
import org.strait.JsFunction;
import org.strait.JsInterruptedException;
import org.strait.JsRuntime;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Rows for the Java embedding API (org.strait.JsRuntime), each compared with
 * the floor rows measured by bench-floors in the same run, or with the same
 * operation on a runtime without the option under test.
 */
public final class ApiBench {
    private ApiBench() {}

    /** Options of the "limited" rows: limits far from what the rows use. */
    private static JsRuntime.Builder limited() {
        return JsRuntime.newBuilder().allowAllAccess(true)
                .timeLimit(Duration.ofHours(1)).heapLimit(4L << 30);
    }

    public static void main(String[] args) throws Exception {
        try (JsRuntime js = JsRuntime.newBuilder().allowAllAccess(true).build();
             JsRuntime lim = limited().build()) {
            Bench.run("api", "eval_1", "floor.jsc_eval_1,floor.jsc_eval_1+floor.jni_downcall",
                    "JsRuntime.eval(\"1\") from Java, result converted to Integer/Double",
                    n -> {
                        for (long i = 0; i < n; i++) js.eval("1");
                    });
            Bench.run("api", "eval_1_limited", "api.eval_1",
                    "JsRuntime.eval(\"1\") on a runtime with a time limit (1 h) and a heap limit (4 GiB)",
                    n -> {
                        for (long i = 0; i < n; i++) lim.eval("1");
                    });
            JsFunction f = (JsFunction) js.eval("(function (a, b) { return a + b; })");
            JsFunction g = (JsFunction) lim.eval("(function (a, b) { return a + b; })");
            Bench.run("api", "call_2", "floor.jsc_call_function",
                    "JsFunction.call(1, 2) from Java (a + b), result converted",
                    n -> {
                        for (long i = 0; i < n; i++) f.call(1, 2);
                    });
            Bench.run("api", "call_2_limited", "api.call_2",
                    "JsFunction.call(1, 2) on a runtime with a time limit (1 h) and a heap limit (4 GiB)",
                    n -> {
                        for (long i = 0; i < n; i++) g.call(1, 2);
                    });
            String loop = "(function (n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i * i) % 1000003; return s; })";
            JsFunction c1 = (JsFunction) js.eval(loop);
            JsFunction c2 = (JsFunction) lim.eval(loop);
            Bench.run("api", "compute_loop", "-",
                    "one call from Java of a JS loop of 100,000 iterations (s = (s + i*i) % 1000003)",
                    n -> {
                        for (long i = 0; i < n; i++) c1.call(100_000);
                    });
            Bench.run("api", "compute_loop_limited", "api.compute_loop",
                    "the same call on a runtime with a time limit (1 h) and a heap limit (4 GiB)",
                    n -> {
                        for (long i = 0; i < n; i++) c2.call(100_000);
                    });
            interruptRows(js);
        }
        Bench.run("api", "create_close", "floor.jsc_context_create",
                "JsRuntime.newBuilder().allowAllAccess(true).build() + close() (all host access: the behaviour before policies)",
                n -> {
                    for (long i = 0; i < n; i++) JsRuntime.newBuilder().allowAllAccess(true).build().close();
                });
        createRow("create_close_given", "JsRuntime.create() + close() (the default: host access GIVEN, nothing else)",
                JsRuntime::create);
        createRow("create_close_none", "host access NONE + close()",
                () -> JsRuntime.newBuilder().hostAccess(HostAccess.NONE).build());
        createRow("create_close_explicit", "host access EXPLICIT + close()",
                () -> JsRuntime.newBuilder().hostAccess(HostAccess.EXPLICIT).build());
        createRow("create_close_filter", "host access ALL with a class filter (java.util.*) + close()",
                () -> JsRuntime.newBuilder().hostAccess(HostAccess.ALL)
                        .classFilter(s -> s.startsWith("java.util.")).build());
        createRow("create_close_limited", "all access with a time limit and a heap limit + close()",
                () -> limited().build());
    }

    private static void createRow(String name, String desc, Supplier<JsRuntime> make) {
        Bench.run("api", name, "api.create_close", desc, n -> {
            for (long i = 0; i < n; i++) make.get().close();
        });
    }

    /**
     * api.interrupt_latency: from JsRuntime.interrupt() on this thread to
     * the JsInterruptedException on the thread running `while (true) {}`;
     * baseline api.thread_handoff: from a semaphore release on this thread
     * to the waiting thread's return (the wake-up every interrupt pays).
     */
    private static void interruptRows(JsRuntime js) {
        try {
            int k = 41;
            long[] h = new long[k], v = new long[k];
            for (int i = 0; i < k; i++) {
                h[i] = handoffOnce();
                v[i] = interruptOnce(js);
            }
            java.util.Arrays.sort(h);
            java.util.Arrays.sort(v);
            Bench.row("api", "thread_handoff", h[k / 2], "-",
                    "median of 41: Semaphore.release() to the return of acquire() on the thread waiting in it");
            Bench.row("api", "interrupt_latency", v[k / 2], "api.thread_handoff",
                    "median of 41: JsRuntime.interrupt() to JsInterruptedException on the thread running while(true){}");
        } catch (Throwable e) {
            Bench.skip("api", "interrupt_latency", e.toString());
        }
    }

    /** ns from a Semaphore.release() to the waiting thread's wake-up. */
    private static long handoffOnce() throws Exception {
        Semaphore go = new Semaphore(0);
        long[] end = new long[1];
        Thread t = new Thread(() -> {
            go.acquireUninterruptibly();
            end[0] = System.nanoTime();
        });
        t.start();
        Thread.sleep(2);
        long t0 = System.nanoTime();
        go.release();
        t.join();
        return end[0] - t0;
    }

    /** ns from interrupt() to the exception on the running thread. */
    private static long interruptOnce(JsRuntime js) throws Exception {
        CountDownLatch ready = new CountDownLatch(1);
        long[] end = new long[1];
        js.setGlobal("ready", (Runnable) ready::countDown);
        Thread t = new Thread(() -> {
            try {
                js.eval("ready.run(); while (true) {}");
            } catch (JsInterruptedException e) {
                end[0] = System.nanoTime();
            }
        });
        t.start();
        if (!ready.await(20, java.util.concurrent.TimeUnit.SECONDS)) {
            t.interrupt();
            throw new IllegalStateException("the script did not start");
        }
        Thread.sleep(2);
        long t0 = System.nanoTime();
        js.interrupt();
        t.join();
        if (end[0] == 0) throw new IllegalStateException("not interrupted");
        return end[0] - t0;
    }
}
