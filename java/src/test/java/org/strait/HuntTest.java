package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Random;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Bugs found by hunting the interop surface (crashes, hangs, silently wrong
 * values), each as a generated class of cases rather than one example.
 */
class HuntTest {
    /** Runs body on its own (daemon) thread; fails when it is still running after 10 s (a hang). */
    private static void noHang(String what, Runnable body) throws Exception {
        AtomicReference<Throwable> err = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                err.set(e);
            }
        }, "hunt " + what);
        t.setDaemon(true);
        t.start();
        t.join(10_000);
        assertFalse(t.isAlive(), what + ": hangs (the calling thread waits for itself)");
        if (err.get() != null) throw new AssertionError(what + ": " + err.get(), err.get());
    }

    /** An entry point from Java into JS whose JS part queues a microtask (`tick`). */
    record Entry(String name, Consumer<JsRuntime> run) {}

    /**
     * Every way a Java thread enters a runtime and leaves it again: the last
     * leave drains the microtask queue (a checkpoint, under the stay's
     * stops), so a microtask may close the runtime there (a CompletableFuture callback of JsPromise.toFuture,
     * or a JS callback calling Java that closes). With a Java object among
     * the arguments, the call's arguments are registered in a stay of their
     * own (Args.call: enterArgs/leaveArgs), whose leave drains instead.
     */
    static final List<Entry> ENTRIES = List.of(
            new Entry("eval", rt -> rt.eval("tick(); 1")),
            new Entry("JsFunction.call", rt -> ((JsFunction) rt.eval("(() => tick())")).call()),
            new Entry("JsFunction.call(Java object)", rt -> ((JsFunction) rt.eval("((x) => tick())")).call(new Object())),
            new Entry("JsFunction.callWithThis(Java object)",
                    rt -> ((JsFunction) rt.eval("(function (x) { tick(); })")).callWithThis(null, new Object())),
            new Entry("JsFunction.construct(Java object)",
                    rt -> ((JsFunction) rt.eval("(function (x) { tick(); })")).construct(new Object())),
            new Entry("JsObject.get", rt -> ((JsObject) rt.eval("({ get a() { tick(); return 1; } })")).get("a")),
            new Entry("JsObject.set(Java object)",
                    rt -> ((JsObject) rt.eval("({ set a(v) { tick(); } })")).set("a", new Object())),
            new Entry("JsObject.invoke(Java object)",
                    rt -> ((JsObject) rt.eval("({ m(x) { tick(); } })")).invoke("m", new Object())),
            new Entry("Map view entrySet", rt -> ((JsObject) rt.eval("({ get a() { tick(); return 1; } })"))
                    .entrySet().forEach(e -> { })),
            new Entry("List view iteration", rt -> ((JsArray) rt.eval("(() => { const a = [1, 2];"
                    + " Object.defineProperty(a, 0, { get() { tick(); return 1; } }); return a; })()"))
                    .forEach(e -> { })),
            new Entry("JsObject.as(Runnable)", rt -> ((JsObject) rt.eval("({ run() { tick(); } })")).as(Runnable.class).run()),
            new Entry("Java.extend method called from Java", rt -> {
                Runnable r = (Runnable) rt.eval("new (Java.extend(java.lang.Runnable, { run() { tick(); } }))()");
                r.run();
            }),
            new Entry("setGlobal", rt -> {
                rt.eval("Object.defineProperty(globalThis, 'g', { set(v) { tick(); } })");
                rt.setGlobal("g", 1);
            }),
            new Entry("structuredClone", rt -> rt.structuredClone((JsValue) rt.eval("({ get a() { tick(); return 1; } })"))),
            new Entry("JsPromise.toFuture callback", rt -> {
                JsPromise p = (JsPromise) rt.eval("new Promise((res) => { globalThis.res = res; })");
                p.toFuture().whenComplete((v, e) -> rt.close());
                rt.eval("res(1)");
            }));

    @TestFactory
    List<DynamicTest> closeFromAMicrotaskDrainedOnLeaveDoesNotHang() {
        List<DynamicTest> out = new ArrayList<>();
        for (Entry e : ENTRIES) {
            out.add(DynamicTest.dynamicTest(e.name(), () -> {
                JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
                rt.setGlobal("closer", (Runnable) rt::close);
                rt.eval("globalThis.tick = () => { Promise.resolve().then(() => closer.run()); }");
                noHang(e.name(), () -> {
                    try {
                        e.run().accept(rt);
                    } catch (JsInterruptedException x) {
                        // the close stopped the promise jobs of the call that ran them
                        // (its last leave holds the checkpoint): the call says so
                        assertTrue(x.getMessage().contains("close()"), x.getMessage());
                    } catch (IllegalStateException x) {
                        // a view that goes on after the close: "runtime closed" is the answer
                        assertEquals("runtime closed", x.getMessage());
                    }
                });
                assertTrue(rt.isClosed(), "the microtask closed the runtime");
                assertThrows(IllegalStateException.class, () -> rt.eval("1"));
            }));
        }
        return out;
    }

    /** close() called from the JS the runtime is running stops that JS (a loop after it ended never). */
    @TestFactory
    List<DynamicTest> closeFromInsideStopsTheScript() {
        List<DynamicTest> out = new ArrayList<>();
        for (String script : List.of("closer.run(); for (;;) {}",
                                     "closer.run(); while (true) { try { for (;;) {} } catch (e) {} }",
                                     "Promise.resolve().then(() => { for (;;) {} }); closer.run(); 1",
                                     "setTimeout(() => { for (;;) {} }, 0); closer.run(); 1")) {
            out.add(DynamicTest.dynamicTest(script, () -> {
                JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
                rt.setGlobal("closer", (Runnable) rt::close);
                noHang(script, () -> {
                    try {
                        rt.eval(script);
                    } catch (IllegalStateException x) {   // JsInterruptedException is one
                        // stopped, or closed: both say the runtime is gone
                    }
                });
                assertTrue(rt.isClosed());
                assertThrows(IllegalStateException.class, () -> rt.eval("1"));
            }));
        }
        return out;
    }

    /** A collection whose toArray() hands out its live array (careless, but legal Java). */
    static final class LiveArrayCollection extends AbstractCollection<Object> {
        final Object[] items;

        LiveArrayCollection(Object[] items) {
            this.items = items;
        }

        @Override
        public Object[] toArray() {
            return items;
        }

        @Override
        public Iterator<Object> iterator() {
            return java.util.Arrays.asList(items).iterator();
        }

        @Override
        public int size() {
            return items.length;
        }
    }

    /**
     * An Object[] that a Java thread keeps writing while JS reads it (in
     * windows: one upcall registers a run of elements, then each is
     * wrapped) or takes it whole (Java.from of a collection whose toArray()
     * is that array): every value read must be one the array held, of
     * its own kind. The batch used to read each element a second time, so
     * a slot written in between was wrapped with the registration of the
     * object before it (a String's id for an int[]: a JNI fatal error under
     * -Xcheck:jni, garbage or a crash without).
     */
    @TestFactory
    List<DynamicTest> objectArrayWrittenByAJavaThreadWhileJsReadsIt() {
        List<DynamicTest> out = new ArrayList<>();
        for (String how : List.of("a[i]", "Java.from")) {
            out.add(DynamicTest.dynamicTest(how, () -> {
                Object[] pool = {"s1", "s2", 7, -3, 2.5, 1L << 40, true, 'c', (short) 4, (byte) -1, 1.5f,
                                 new StringBuilder("sb"), new int[] {1}, new String[] {"x"}, new ArrayList<>(), null,
                                 java.math.BigInteger.TEN};
                Object[] arr = new Object[2048];
                Random seed = new Random(42);
                for (int i = 0; i < arr.length; i++) arr[i] = pool[seed.nextInt(pool.length)];
                AtomicBoolean stop = new AtomicBoolean();
                Thread writer = new Thread(() -> {
                    Random r = new Random(7);
                    while (!stop.get()) arr[r.nextInt(arr.length)] = pool[r.nextInt(pool.length)];
                }, "hunt writer");
                writer.setDaemon(true);
                JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build();
                try {
                    rt.setGlobal("pool", pool);
                    rt.setGlobal("arr", arr);
                    rt.setGlobal("coll", new LiveArrayCollection(arr));
                    writer.start();
                    Object bad = rt.eval("(() => {"
                            + " const known = new Set(); for (let i = 0; i < pool.length; i++) known.add(pool[i]);"
                            + " const read = " + (how.equals("a[i]")
                                    ? "() => { const o = []; for (let i = 0; i < arr.length; i++) o.push(arr[i]); return o; };"
                                    : "() => Java.from(coll);")
                            + " const t0 = Date.now(); let rounds = 0;"
                            + " while (Date.now() - t0 < 1500 || rounds < 20) {"
                            + "   const got = read(); rounds++;"
                            + "   for (let i = 0; i < got.length; i++) if (!known.has(got[i])) return 'element ' + i + ': ' + typeof got[i] + ' ' + String(got[i]);"
                            + "   java.lang.Thread.yield();"
                            + " }"
                            + " return 'ok'; })()");
                    assertEquals("ok", bad, how + ": a value the array never held");
                } finally {
                    stop.set(true);
                    writer.join();
                    rt.close();
                }
            }));
        }
        return out;
    }
}
