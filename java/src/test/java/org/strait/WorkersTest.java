package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Workers of embedded runtimes (their Java access is the parent's policy,
 * their threads leave the JVM) and values between runtimes
 * ({@link JsRuntime#structuredClone}).
 */
class WorkersTest {

    /** Starts a worker_threads worker running src (eval: true) whose first message (or error) lands in got. */
    private static final String START = "globalThis.got = undefined; globalThis.startWorker = (src) => {"
            + " const { Worker } = require('worker_threads');"
            + " const w = new Worker(src, { eval: true });"
            + " w.on('message', (m) => { if (got === undefined) got = m; });"
            + " w.on('error', (e) => { got = 'error: ' + e.message; });"
            + " return w; };";

    /** Live threads attached to the JVM from native code that runs JS (a worker's thread). */
    private static Set<Thread> nativeThreads() {
        Set<Thread> s = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.isAlive() && t.getName().equals("strait-native")) s.add(t);
        return s;
    }

    private static void assertThreadsEnd(Set<Thread> before) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Set<Thread> extra;
        while (!(extra = minus(nativeThreads(), before)).isEmpty()) {
            assertTrue(System.nanoTime() < end, "worker threads still attached to the JVM: " + extra);
            Thread.sleep(10);
        }
    }

    private static Set<Thread> minus(Set<Thread> a, Set<Thread> b) {
        a.removeAll(b);
        return a;
    }

    // ---- workers ----------------------------------------------------------

    @Test
    @Timeout(60)
    void aWorkerUnderHostAccessAllUsesJava() throws Exception {
        Set<Thread> before = nativeThreads();
        try (JsRuntime rt = JsRuntime.newBuilder().hostAccess(HostAccess.ALL).allowCreateThread(true).build()) {
            rt.eval(START);
            rt.eval("startWorker(\"const { parentPort } = require('worker_threads');"
                    + " const l = new java.util.ArrayList(); l.add('a'); l.add('b');"
                    + " parentPort.postMessage(l.size() + ' ' + l.getClass().getName()"
                    + " + ' ' + java.lang.Thread.currentThread().getName());\")");
            rt.runLoop();   // ends when the worker did
            // the worker's own thread, attached to the JVM while it runs
            assertEquals("2 java.util.ArrayList strait-native", rt.getGlobal("got"));
        }
        assertThreadsEnd(before);
    }

    @Test
    @Timeout(60)
    void aWorkerHasItsParentsPolicy() throws Exception {
        // GIVEN: no lookups in the worker either
        try (JsRuntime rt = JsRuntime.newBuilder().allowCreateThread(true).build()) {
            rt.eval(START);
            rt.eval("startWorker(\"require('worker_threads').parentPort.postMessage("
                    + "typeof java + ' ' + typeof Packages + ' ' + typeof Java)\")");
            rt.runLoop();
            assertEquals("undefined undefined undefined", rt.getGlobal("got"));
        }
        // the parent's class filter, called on the worker's thread
        Set<String> asked = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (JsRuntime rt = JsRuntime.newBuilder().hostAccess(HostAccess.ALL).allowCreateThread(true)
                .classFilter(name -> {
                    asked.add(name);
                    return !name.equals("java.util.ArrayList");
                }).build()) {
            rt.eval(START);
            rt.eval("startWorker(\"const p = require('worker_threads').parentPort;"
                    + " let r; try { new java.util.ArrayList(); r = 'allowed'; } catch (e) { r = 'refused'; }"
                    + " p.postMessage(r + ' ' + new java.util.LinkedList().size());\")");
            rt.runLoop();
            assertEquals("refused 0", rt.getGlobal("got"));
            assertTrue(asked.contains("java.util.LinkedList"), asked.toString());
        }
    }

    @Test
    @Timeout(60)
    void workersOfWorkersGetJavaToo() throws Exception {
        Set<Thread> before = nativeThreads();
        try (JsRuntime rt = JsRuntime.newBuilder().hostAccess(HostAccess.ALL).allowCreateThread(true).build()) {
            rt.eval(START);
            rt.eval("startWorker(\"const { Worker, parentPort } = require('worker_threads');"
                    + " const inner = new Worker('require(\\\\'worker_threads\\\\').parentPort.postMessage("
                    + "String(java.lang.Integer.toHexString(255)))', { eval: true });"
                    + " inner.on('message', (m) => parentPort.postMessage('inner ' + m));\")");
            rt.runLoop();
            assertEquals("inner ff", rt.getGlobal("got"));
        }
        assertThreadsEnd(before);
    }

    @Test
    void theDefaultPolicyRefusesWorkers() {
        try (JsRuntime rt = JsRuntime.create()) {
            assertEquals("ERR_ACCESS_DENIED", rt.eval("try { new Worker('w.js'); 'started' } catch (e) { e.code }"));
            assertEquals("ERR_ACCESS_DENIED", rt.eval("try { const { Worker } = require('worker_threads');"
                    + " new Worker('1', { eval: true }); 'started' } catch (e) { e.code }"));
        }
        // ALL without threads is no different
        try (JsRuntime rt = JsRuntime.newBuilder().hostAccess(HostAccess.ALL).build()) {
            assertEquals("ERR_ACCESS_DENIED", rt.eval("try { new Worker('w.js'); 'started' } catch (e) { e.code }"));
        }
    }

    /**
     * Starts workers with script (which calls startWorker and makes each
     * worker's message call online.run()), waits until n told they run, then
     * closes the runtime from this thread while its loop runs on another:
     * runLoop returns and every worker thread leaves the JVM.
     */
    private static void closeWhileWorkersRun(int n, String script) throws Exception {
        Set<Thread> before = nativeThreads();
        JsRuntime rt = JsRuntime.newBuilder().hostAccess(HostAccess.ALL).allowCreateThread(true).build();
        CountDownLatch online = new CountDownLatch(n);
        rt.setGlobal("online", (Runnable) online::countDown);
        rt.eval(START);
        rt.eval(script);
        AtomicReference<Throwable> loopError = new AtomicReference<>();
        Thread loop = new Thread(() -> {
            try {
                rt.runLoop();
            } catch (Throwable t) {
                loopError.set(t);
            }
        });
        loop.start();
        assertTrue(online.await(30, TimeUnit.SECONDS), "the workers started");
        rt.close();
        loop.join(30_000);
        assertFalse(loop.isAlive(), "runLoop returned");
        assertThreadsEnd(before);
        Throwable t = loopError.get();
        if (t != null && !(t instanceof IllegalStateException)) fail(t);
    }

    @Test
    @Timeout(60)
    void closingARuntimeWithRunningWorkersEndsThem() throws Exception {
        // each worker tells it runs (through its parent's loop), then spins in JS or waits for messages
        closeWhileWorkersRun(3, "for (let i = 0; i < 3; i++) { const w = startWorker(i === 2"
                + " ? \"const p = require('worker_threads').parentPort; p.on('message', () => {}); p.postMessage(1)\""
                + " : \"require('worker_threads').parentPort.postMessage(1); for (;;) {}\");"
                + " w.on('message', () => online.run()); }");
    }

    @Test
    @Timeout(60)
    void closingARuntimeEndsAWorkerBlockedInJava() throws Exception {
        // the worker tells it runs, then sleeps in Java for ten minutes: close()
        // interrupts that Java thread instead of waiting for the sleep
        closeWhileWorkersRun(1, "const w = startWorker(\"require('worker_threads').parentPort.postMessage(1);"
                + " java.lang.Thread.sleep(600000);\"); w.on('message', () => online.run());");
    }

    // ---- values between runtimes --------------------------------------------

    @Test
    void structuredCloneCopiesIntoAnotherRuntime() {
        try (JsRuntime a = JsRuntime.create(); JsRuntime b = JsRuntime.create()) {
            JsValue v = (JsValue) a.eval("globalThis.v = { list: [1, 'two', { deep: true }], s: 'x', n: 1.5 }; v");
            JsValue c = b.structuredClone(v);
            assertSame(b, c.runtime());
            assertInstanceOf(JsObject.class, c);
            b.setGlobal("c", c);
            assertEquals("{\"list\":[1,\"two\",{\"deep\":true}],\"s\":\"x\",\"n\":1.5}", b.eval("JSON.stringify(c)"));
            // a copy: changes on either side are not seen by the other
            a.eval("v.list[2].deep = false; v.s = 'changed'");
            assertEquals(true, b.eval("c.list[2].deep === true && c.s === 'x'"));
            assertEquals(true, b.eval("c instanceof Object && Object.getPrototypeOf(c) === Object.prototype"));
            // into the value's own runtime too
            JsValue same = a.structuredClone(v);
            a.setGlobal("same", same);
            assertEquals(true, a.eval("same !== v && same.s === 'changed'"));
            JsArray arr = (JsArray) b.structuredClone((JsValue) a.eval("[1, 2, 3]"));
            assertEquals(List.of(1, 2, 3), arr.toList());
        }
    }

    @Test
    void structuredCloneKeepsMapsDatesAndCycles() {
        try (JsRuntime a = JsRuntime.create(); JsRuntime b = JsRuntime.create()) {
            JsValue v = (JsValue) a.eval("const o = { d: new Date(12345), m: new Map([[1, { k: 'v' }]]),"
                    + " s: new Set(['a', 'b']), big: 10n ** 20n, re: /x+/gi, u: undefined,"
                    + " err: new RangeError('bad'), ta: new Float64Array([0.5, -0]) };"
                    + " o.self = o; o.pair = [o.m, o.m]; o");
            b.setGlobal("c", b.structuredClone(v));
            assertEquals(true, b.eval("c.d instanceof Date && c.d.getTime() === 12345"));
            assertEquals(true, b.eval("c.m instanceof Map && c.m.get(1).k === 'v'"));
            assertEquals(true, b.eval("c.s instanceof Set && [...c.s].join() === 'a,b'"));
            assertEquals(true, b.eval("c.big === 10n ** 20n"));
            assertEquals(true, b.eval("c.re instanceof RegExp && c.re.source === 'x+' && c.re.flags === 'gi'"));
            assertEquals(true, b.eval("'u' in c && c.u === undefined"));
            assertEquals(true, b.eval("c.err instanceof RangeError && c.err.message === 'bad'"));
            assertEquals(true, b.eval("c.ta instanceof Float64Array && c.ta[0] === 0.5 && Object.is(c.ta[1], -0)"));
            assertEquals(true, b.eval("c.self === c && c.pair[0] === c.pair[1] && c.pair[0] === c.m"));
        }
    }

    @Test
    void transferMovesAnArrayBufferAndDetachesItInTheSource() {
        try (JsRuntime a = JsRuntime.create(); JsRuntime b = JsRuntime.create()) {
            JsValue buf = (JsValue) a.eval("globalThis.buf = new Uint8Array([1, 2, 3, 4]).buffer; buf");
            JsValue msg = (JsValue) a.eval("({ payload: buf, view: new Uint8Array(buf, 1, 2) })");
            b.setGlobal("c", b.structuredClone(msg, buf));
            assertEquals(0, a.eval("buf.byteLength"), "detached in the source");
            assertEquals(true, a.eval("buf.detached === undefined || buf.detached === true"));
            assertEquals("1,2,3,4", b.eval("Array.from(new Uint8Array(c.payload)).join()"));
            assertEquals(true, b.eval("c.view.buffer === c.payload && c.view.join() === '2,3'"));
            // a copy without transfer leaves the source alone
            JsValue other = (JsValue) a.eval("globalThis.kept = new ArrayBuffer(8); kept");
            b.structuredClone(other).close();
            assertEquals(8, a.eval("kept.byteLength"));
        }
    }

    @Test
    void whatCannotBeClonedIsADataCloneError() {
        try (JsRuntime a = JsRuntime.create(); JsRuntime b = JsRuntime.create()) {
            JsValue f = (JsValue) a.eval("({ f() {} })");
            JsException e = assertThrows(JsException.class, () -> b.structuredClone(f));
            assertEquals("DataCloneError", e.getName(), e.toString());
            JsValue buf = (JsValue) a.eval("globalThis.buf2 = new ArrayBuffer(4); buf2");
            JsValue bad = (JsValue) a.eval("({ buf2, f() {} })");
            assertThrows(JsException.class, () -> b.structuredClone(bad, buf));
            assertEquals(4, a.eval("buf2.byteLength"), "nothing was detached");
            // a value listed twice in transfer
            JsException twice = assertThrows(JsException.class, () -> b.structuredClone(buf, buf, buf));
            assertEquals("DataCloneError", twice.getName());
        }
    }

    @Test
    void structuredCloneChecksItsArguments() {
        try (JsRuntime a = JsRuntime.create(); JsRuntime b = JsRuntime.create()) {
            JsValue v = (JsValue) a.eval("({ n: 1 })");
            JsValue ofB = (JsValue) b.eval("new ArrayBuffer(1)");
            assertThrows(IllegalArgumentException.class, () -> b.structuredClone(v, ofB));
            assertThrows(NullPointerException.class, () -> b.structuredClone(null));
            JsValue released = (JsValue) a.eval("({})");
            released.close();
            assertThrows(IllegalStateException.class, () -> b.structuredClone(released));
            JsValue t = (JsValue) a.eval("new ArrayBuffer(2)");
            t.close();
            assertThrows(IllegalStateException.class, () -> b.structuredClone(v, t));
            b.close();
            assertEquals("runtime closed", assertThrows(IllegalStateException.class, () -> b.structuredClone(v)).getMessage());
            a.close();
            JsRuntime c = JsRuntime.create();
            try {
                assertEquals("runtime closed",
                        assertThrows(IllegalStateException.class, () -> c.structuredClone(v)).getMessage());
            } finally {
                c.close();
            }
        }
    }

    /**
     * Two runtimes, each with its loop on its own thread, joined by a
     * MessageChannel whose port2 was moved into the second one
     * (structuredClone with the port in the transfer list): 1,000 structured
     * values posted at once from a to b and echoed back, with their types
     * checked on both sides and their order in a.
     */
    @Test
    @Timeout(120)
    void pingPongOfStructuredValuesBetweenTwoRuntimesOnTwoThreads() throws Exception {
        try (JsRuntime a = JsRuntime.newBuilder().allowAllAccess(true).build();
             JsRuntime b = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            CountDownLatch done = new CountDownLatch(1);
            a.setGlobal("done", (Runnable) done::countDown);
            a.eval("globalThis.ch = new MessageChannel();");
            JsValue port2 = (JsValue) a.eval("ch.port2");
            JsValue moved = b.structuredClone(port2, port2);
            assertEquals("[object MessagePort]",
                    ((JsFunction) b.eval("(p) => Object.prototype.toString.call(p)")).call(moved));
            assertEquals(true, a.eval("ch.port2.postMessage(1); true"), "posting on the moved port does nothing");
            b.setGlobal("port", moved);
            b.eval("globalThis.bad = 0; port.onmessage = (e) => { const v = e.data;"
                    + " if (!(v.when instanceof Date) || !(v.tags instanceof Map) || v.self !== v || v.when.getTime() !== v.n) bad++;"
                    + " port.postMessage({ n: v.n, when: v.when, tags: v.tags, list: [v.n, String(v.n)], bad }); };");
            a.eval("globalThis.next = 0; globalThis.errors = [];"
                    + " ch.port1.onmessage = (e) => { const v = e.data;"
                    + "   if (v.n !== next) errors.push('order: got ' + v.n + ' expected ' + next);"
                    + "   if (!(v.when instanceof Date) || v.when.getTime() !== v.n || v.tags.get('n') !== v.n"
                    + "       || v.list[1] !== String(v.n) || v.bad !== 0) errors.push('value ' + v.n);"
                    + "   if (++next === 1000) { ch.port1.close(); done.run(); } };");
            AutoCloseable ka = a.keepAlive(), kb = b.keepAlive();
            AtomicReference<Throwable> err = new AtomicReference<>();
            Thread ta = new Thread(() -> run(a, err), "loop-a"), tb = new Thread(() -> run(b, err), "loop-b");
            ta.start();
            tb.start();
            a.eval("for (let n = 0; n < 1000; n++) { const v = { n, when: new Date(n), tags: new Map([['n', n]]) };"
                    + " v.self = v; ch.port1.postMessage(v); }");
            assertTrue(done.await(100, TimeUnit.SECONDS), "1,000 round trips");
            assertEquals("", a.eval("errors.slice(0, 5).join('; ')"));
            assertEquals(1000, a.eval("next"));
            ka.close();
            kb.close();
            a.close();
            b.close();
            ta.join(30_000);
            tb.join(30_000);
            Throwable t = err.get();
            if (t != null && !(t instanceof IllegalStateException)) fail(t);
        }
    }

    private static void run(JsRuntime rt, AtomicReference<Throwable> err) {
        try {
            rt.runLoop();
        } catch (Throwable t) {
            err.compareAndSet(null, t);
        }
    }

    @Test
    @Timeout(60)
    void aJavaPortMovedIntoAnotherRuntime() throws Exception {
        try (JsRuntime a = JsRuntime.create(); JsRuntime b = JsRuntime.create();
             JsMessagePort p = a.openMessagePort()) {
            JsValue moved = b.structuredClone(p.jsPort(), p.jsPort());
            b.setGlobal("port", moved);
            b.eval("port.onmessage = (e) => port.postMessage({ back: e.data.map((x) => x * 2) })");
            AutoCloseable kb = b.keepAlive();
            AtomicReference<Throwable> err = new AtomicReference<>();
            Thread tb = new Thread(() -> run(b, err));
            tb.start();
            p.post(List.of(1, 2, 3));
            assertEquals(Map.of("back", List.of(2, 4, 6)), p.receive(java.time.Duration.ofSeconds(30)));
            kb.close();
            b.close();
            tb.join(30_000);
        }
    }
}
