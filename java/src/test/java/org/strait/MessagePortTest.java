package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JsMessagePort: a channel between Java and a runtime's MessagePort. The
 * runtime's loop runs on its own thread for each test. JS -> Java messages
 * are written in the value format by strait_clone_write_value.
 */
class MessagePortTest {
    private JsRuntime rt;
    private JsMessagePort port;
    private AutoCloseable keep;
    private Thread loop;
    private final AtomicReference<Throwable> loopError = new AtomicReference<>();

    @BeforeEach
    void open() {
        rt = JsRuntime.create();
        port = rt.openMessagePort();
        rt.setGlobal("port", port.jsPort());
        rt.eval("globalThis.got = []; globalThis.events = [];");
    }

    /** Runs the loop on a thread of its own until the runtime closes. */
    private void startLoop() {
        keep = rt.keepAlive();
        loop = new Thread(() -> {
            try {
                rt.runLoop();
            } catch (Throwable t) {
                loopError.set(t);
            }
        }, "port-test-loop");
        loop.start();
    }

    @AfterEach
    void close() throws Exception {
        port.close();
        rt.close();
        if (loop != null) loop.join(30_000);
        if (loop != null) assertFalse(loop.isAlive(), "the loop thread ended");
        Throwable t = loopError.get();
        if (t != null && !(t instanceof IllegalStateException)) fail("the loop failed", t);
    }

    /** Evaluates js until it is true (the loop runs on its own thread), at most 30 s. */
    private void await(String js) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Boolean.TRUE.equals(rt.eval(js))) {
            if (System.nanoTime() > end) fail("timed out waiting for " + js + "; got = " + rt.eval("JSON.stringify(got)"));
            Thread.sleep(5);
        }
    }

    @Test
    @Timeout(60)
    void javaValuesReachTheScriptAsMessageEvents() throws Exception {
        rt.eval("port.onmessage = (e) => { got.push(e.data); events.push(e.constructor.name + ':' + e.type); }");
        startLoop();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", 41);
        m.put("list", Arrays.asList(1, "two", 3.5, null));
        m.put("when", Instant.ofEpochMilli(86_400_000L));
        m.put("bytes", new byte[] {1, 2, 3});
        assertTrue(port.post(m));
        assertTrue(port.post("second"));
        await("got.length === 2");
        assertEquals("MessageEvent:message,MessageEvent:message", rt.eval("events.join()"));
        assertEquals(true, rt.eval("got[0].n === 41 && got[0].list.length === 4 && got[0].list[1] === 'two'"
                + " && got[0].list[3] === null"));
        assertEquals(true, rt.eval("got[0].when instanceof Date && got[0].when.getTime() === 86400000"));
        assertEquals("1,2,3", rt.eval("Array.from(got[0].bytes).join()"));
        assertEquals("second", rt.eval("got[1]"));
    }

    @Test
    @Timeout(60)
    void messagesKeepTheirOrderAcrossThreads() throws Exception {
        rt.eval("port.onmessage = (e) => got.push(e.data)");
        startLoop();
        Thread[] posters = new Thread[4];
        for (int t = 0; t < posters.length; t++) {
            final int id = t;
            posters[t] = new Thread(() -> {
                for (int i = 0; i < 250; i++) port.post(List.of(id, i));
            });
            posters[t].start();
        }
        for (Thread t : posters) t.join();
        await("got.length === 1000");
        // per poster the order it posted in
        assertEquals(true, rt.eval("(() => { const next = [0, 0, 0, 0];"
                + " for (const [id, i] of got) { if (i !== next[id]) return false; next[id]++; }"
                + " return next.join() === '250,250,250,250'; })()"));
    }

    @Test
    void aMessageHoldsDataOnly() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ok", 1);
        m.put("thread", new Thread(() -> {}));
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> port.post(m));
        assertEquals("$.thread", e.path());
        assertTrue(e.getMessage().startsWith("JsMessagePort.post: a message holds data only"), e.getMessage());
        JsValue handle = (JsValue) rt.eval("({})");
        assertThrows(ValueConversionException.class, () -> port.post(List.of(handle)));
        assertTrue(port.post("still usable"));
    }

    @Test
    @Timeout(60)
    void receiveWaitsAtMostTheTimeoutAndPollNever() {
        assertSame(JsMessagePort.NO_MESSAGE, port.poll());
        long t0 = System.nanoTime();
        assertSame(JsMessagePort.NO_MESSAGE, port.receive(Duration.ofMillis(120)));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(100), "waited for the timeout");
        assertSame(JsMessagePort.NO_MESSAGE, port.receive(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> port.receive(Duration.ofMillis(-1)));
        assertEquals("NO_MESSAGE", JsMessagePort.NO_MESSAGE.toString());
    }

    @Test
    @Timeout(60)
    void scriptValuesArriveAsPlainJavaData() {
        rt.eval("const o = { n: 1, big: 2 ** 40, f: 0.5, s: 'x', u: undefined, nil: null, list: [1, 'a'],"
                + " d: new Date(0), m: new Map([['k', 1], [2, 'two']]), set: new Set([1, 'b']),"
                + " buf: new Uint8Array([1, 2, 255]).buffer, ints: new Int32Array([-1, 7]) };"
                + "o.self = o; o.shared = [o.list, o.list];"
                + "port.postMessage(o); port.postMessage(null); port.postMessage('last');");
        @SuppressWarnings("unchecked")
        Map<String, Object> o = (Map<String, Object>) port.receive(Duration.ofSeconds(30));
        assertInstanceOf(LinkedHashMap.class, o);
        assertEquals(1, o.get("n"));
        assertEquals(1L << 40, ((Number) o.get("big")).longValue());
        assertEquals(0.5, o.get("f"));
        assertEquals("x", o.get("s"));
        assertTrue(o.containsKey("u") && o.get("u") == null && o.get("nil") == null);
        assertEquals(List.of(1, "a"), o.get("list"));
        assertEquals(Instant.EPOCH, o.get("d"));
        Map<?, ?> m = (Map<?, ?>) o.get("m");
        assertEquals(1, m.get("k"));
        assertEquals("two", m.get(2));
        assertEquals(new LinkedHashSet<>(List.of(1, "b")), o.get("set"));
        assertArrayEquals(new byte[] {1, 2, (byte) 255}, (byte[]) o.get("buf"));
        assertArrayEquals(new int[] {-1, 7}, (int[]) o.get("ints"));
        assertSame(o, o.get("self"), "a cycle stays a cycle");
        List<?> shared = (List<?>) o.get("shared");
        assertSame(shared.get(0), shared.get(1), "sharing is kept");
        assertSame(o.get("list"), shared.get(0));
        assertNull(port.receive(Duration.ofSeconds(30)), "null is a message");
        assertEquals("last", port.receive(Duration.ofSeconds(30)));
        assertSame(JsMessagePort.NO_MESSAGE, port.poll());
    }

    @Test
    @Timeout(60)
    void aValueWithNoJavaFormIsAnErrorAndTheNextMessageComes() {
        rt.eval("port.postMessage(/re/g); port.postMessage(2);");
        ValueConversionException e = assertThrows(ValueConversionException.class,
                () -> port.receive(Duration.ofSeconds(30)));
        assertTrue(e.getMessage().contains("no Java form"), e.getMessage());
        assertEquals(2, port.receive(Duration.ofSeconds(30)));
    }

    @Test
    @Timeout(60)
    void roundTripsBothWays() throws Exception {
        rt.eval("port.onmessage = (e) => port.postMessage({ echo: e.data, at: new Date(e.data.n) })");
        startLoop();
        for (int i = 0; i < 200; i++) {
            port.post(Map.of("n", i, "tags", List.of("t" + i)));
            @SuppressWarnings("unchecked")
            Map<String, Object> r = (Map<String, Object>) port.receive(Duration.ofSeconds(30));
            assertEquals(Map.of("n", i, "tags", List.of("t" + i)), r.get("echo"));
            assertEquals(Instant.ofEpochMilli(i), r.get("at"));
        }
    }

    @Test
    @Timeout(60)
    void aScriptCannotPostWhatItCannotClone() {
        assertEquals("DataCloneError", rt.eval("try { port.postMessage({ f() {} }); 'posted' } catch (e) { e.name }"));
        assertSame(JsMessagePort.NO_MESSAGE, port.poll());
    }

    @Test
    @Timeout(60)
    void closeWakesAReceiveWaitingOnAnotherThread() throws Exception {
        rt.eval("port.addEventListener('close', () => events.push('close')); port.start();");
        startLoop();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            waiting.countDown();
            try {
                Object m = port.receive();
                ended.complete(new AssertionError("received " + m));
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        t.start();
        waiting.await();
        Thread.sleep(100);       // most likely inside the native wait by now
        port.close();
        Throwable e = ended.get(30, TimeUnit.SECONDS);
        assertInstanceOf(IllegalStateException.class, e);
        assertEquals("message port closed", e.getMessage());
        t.join(30_000);
        await("events.join() === 'close'");
    }

    @Test
    void useAfterCloseThrowsAndCloseIsIdempotent() {
        assertFalse(port.isClosed());
        port.close();
        port.close();
        assertTrue(port.isClosed());
        assertEquals("message port closed", assertThrows(IllegalStateException.class, () -> port.post(1)).getMessage());
        assertThrows(IllegalStateException.class, port::receive);
        assertThrows(IllegalStateException.class, port::poll);
        assertThrows(IllegalStateException.class, () -> port.receive(Duration.ofSeconds(1)));
        assertEquals("JsMessagePort[closed]", port.toString());
        // the JS end is dead: posting on it does nothing, the runtime goes on
        assertEquals(3, rt.eval("port.postMessage(1); 3"));
    }

    @Test
    @Timeout(60)
    void theScriptClosingItsEndEndsReceiveAndPost() throws Exception {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                ended.complete(new AssertionError("received " + port.receive()));
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        t.start();
        Thread.sleep(50);
        rt.eval("port.close()");
        Throwable e = ended.get(30, TimeUnit.SECONDS);
        assertInstanceOf(IllegalStateException.class, e);
        assertFalse(port.post("dropped"), "the other end is closed");
        assertThrows(IllegalStateException.class, port::poll);
        assertFalse(port.isClosed(), "only close() closes this object");
        t.join(30_000);
    }

    @Test
    @Timeout(60)
    void closingTheRuntimeClosesTheChannel() throws Exception {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                ended.complete(new AssertionError("received " + port.receive()));
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        t.start();
        Thread.sleep(50);
        rt.close();
        assertInstanceOf(IllegalStateException.class, ended.get(30, TimeUnit.SECONDS));
        assertFalse(port.post(1));
        t.join(30_000);
    }

    @Test
    @Timeout(60)
    void anInterruptedReceiveThrowsAndClearsTheFlag() throws Exception {
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                ended.complete(new AssertionError("received " + port.receive()));
            } catch (Throwable e) {
                ended.complete(Thread.currentThread().isInterrupted() ? new AssertionError("flag kept", e) : e);
            }
        });
        t.start();
        Thread.sleep(50);
        t.interrupt();
        assertInstanceOf(JsInterruptedException.class, ended.get(30, TimeUnit.SECONDS));
        t.join(30_000);
        assertTrue(port.post("the port still works"));
    }

    @Test
    @Timeout(60)
    void aForgottenPortIsClosedByTheCleaner() throws Exception {
        rt.eval("globalThis.closed2 = false;");
        JsMessagePort p2 = rt.openMessagePort();
        rt.setGlobal("port2", p2.jsPort());
        rt.eval("port2.addEventListener('close', () => { closed2 = true; }); port2.start();");
        p2 = null;
        startLoop();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Boolean.TRUE.equals(rt.eval("closed2"))) {
            assertTrue(System.nanoTime() < end, "the forgotten port was not closed");
            System.gc();
            Thread.sleep(20);
        }
    }

    @Test
    @Timeout(60)
    void manyPortsOfOneRuntime() throws Exception {
        List<JsMessagePort> ports = new ArrayList<>();
        rt.eval("globalThis.sum = 0; globalThis.hook = (p) => { p.onmessage = (e) => { sum += e.data; }; };");
        JsFunction hook = (JsFunction) rt.getGlobal("hook");
        for (int i = 0; i < 50; i++) {
            JsMessagePort p = rt.openMessagePort();
            hook.call(p.jsPort());
            ports.add(p);
        }
        startLoop();
        for (int i = 0; i < ports.size(); i++) ports.get(i).post(i);
        await("sum === " + (49 * 50 / 2));
        for (JsMessagePort p : ports) p.close();
    }

    @Test
    void aPortOfAClosedRuntimeCannotBeOpened() {
        rt.close();
        assertThrows(IllegalStateException.class, rt::openMessagePort);
    }

    @Test
    void jsPortIsTheSameHandle() {
        assertSame(port.jsPort(), port.jsPort());
        assertEquals("[object MessagePort]", rt.eval("Object.prototype.toString.call(port)"));
    }
}
