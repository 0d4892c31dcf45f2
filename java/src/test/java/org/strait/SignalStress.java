package org.strait;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.strait.testing.TestNatives;

/**
 * Signal/GC stress test (run by scripts/test-java.sh under -Xcheck:jni with
 * each HotSpot collector; not a JUnit class).
 *
 * <p>Both collectors and their signals run at once: JS threads allocate
 * millions of objects with native (JSC) finalizers, JS wrappers of Java
 * objects (when the Java bridge is present) and ordinary JS garbage in
 * shared runtimes, so JavaScriptCore's GC runs often and suspends the
 * other threads registered with its VM (SIGUSR1) while they execute Java
 * code; meanwhile Java threads allocate and call System.gc(), so HotSpot
 * brings every thread to safepoints (SIGSEGV-based polling, SIGUSR2 for
 * suspend/resume). Passes when every result is right, the finalizers ran,
 * and the JVM neither crashed nor printed a JNI warning (the script checks
 * the output).
 *
 * <p>Arguments: seconds (default 15).
 */
public final class SignalStress {
    private SignalStress() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 15;
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong probes = new AtomicLong();
        AtomicLong javaGcs = new AtomicLong();
        AtomicLong handles = new AtomicLong();

        JsRuntime shared = JsRuntime.newBuilder().allowAllAccess(true).build();
        JsRuntime second = JsRuntime.newBuilder().allowAllAccess(true).build();
        for (JsRuntime rt : new JsRuntime[] {shared, second}) {
            TestNatives.probeInstall(rt.peer);
            // With the Java bridge present, bursts also wrap Java objects in
            // JS (wrappers whose JSC finalizers release JNI references).
            rt.eval("var SB = (typeof java === 'object' && java && java.lang"
                    + " && typeof java.lang.StringBuilder === 'function') ? java.lang.StringBuilder : null;\n"
                    + "function burst(n) {\n"
                    + "  let keep = [], sum = 0;\n"
                    + "  for (let i = 0; i < n; i++) {\n"
                    + "    const p = __straitProbe();\n"
                    + "    if (i % 64 === 0) keep.push(p);\n"
                    + "    if (SB && i % 128 === 0) { const b = new SB('ab'); if (b.length() !== 2) throw new Error('bridge'); if (i % 256 === 0) keep.push(b); }\n"
                    + "    const o = { i, s: 'x' + i, a: [i, i + 1] };\n"
                    + "    sum += o.a[1] - o.i;\n"
                    + "  }\n"
                    + "  return sum + keep.length * 0;\n"
                    + "}\n");
        }

        boolean bridge = Boolean.TRUE.equals(shared.eval("SB !== null"));
        List<Thread> threads = new ArrayList<>();
        // JS threads: four on the shared runtime (JSC registers each, and
        // suspends the others during its conservative scan), one on another.
        for (int t = 0; t < 5; t++) {
            final JsRuntime rt = t < 4 ? shared : second;
            final int id = t;
            threads.add(new Thread(() -> {
                try {
                    int round = 0;
                    while (System.nanoTime() < deadline && failure.get() == null) {
                        int n = 20000 + (round % 7) * 1000;
                        Object r = rt.eval("burst(" + n + ")");
                        if (!Integer.valueOf(n).equals(r))
                            throw new AssertionError("js thread " + id + ": burst(" + n + ") = " + r);
                        probes.addAndGet(n);
                        // Java garbage and JsValue handles between bursts.
                        byte[][] junk = new byte[64][];
                        for (int k = 0; k < junk.length; k++) junk[k] = new byte[1024 + k];
                        JsValue v = (JsValue) rt.eval("({ round: " + round + " })");
                        handles.incrementAndGet();
                        if (round % 2 == 0) v.close();   // others go to the Cleaner
                        round++;
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "js-" + t));
        }
        // Java threads: allocation and explicit full collections.
        for (int t = 0; t < 3; t++) {
            final int id = t;
            threads.add(new Thread(() -> {
                try {
                    List<Object> live = new ArrayList<>();
                    int i = 0;
                    while (System.nanoTime() < deadline && failure.get() == null) {
                        live.add(new long[128 + (i % 512)]);
                        if (live.size() > 2000) live.subList(0, 1000).clear();
                        if (++i % (20000 + id * 5000) == 0) {
                            System.gc();
                            javaGcs.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "java-gc-" + t));
        }
        for (Thread t : threads) t.start();
        for (Thread t : threads) t.join();
        // One more full JS collection so the finalizer count moves.
        shared.eval("burst(1000)");
        shared.close();
        second.close();

        long finalized = TestNatives.probeFinalized();
        if (failure.get() != null) {
            failure.get().printStackTrace();
            System.out.println("stress FAILED");
            System.exit(1);
        }
        System.out.printf("stress ok: %d probe objects, %d finalized, %d JsValue handles, %d System.gc()%s%n",
                probes.get(), finalized, handles.get(), javaGcs.get(),
                bridge ? ", " + probes.get() / 128 + " Java objects wrapped" : "");
        if (probes.get() < 100000 || finalized < probes.get() / 4) {
            System.out.println("stress FAILED: too few objects made or finalized");
            System.exit(1);
        }
    }
}
