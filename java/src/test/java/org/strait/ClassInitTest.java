package org.strait;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * A Java class whose static initializer throws, reached from JS: the first
 * access is a JS error naming the class and the cause
 * (ExceptionInInitializerError), every later one a JS error with
 * NoClassDefFoundError "Could not initialize class", never a crash. Each
 * case gets a fresh, never initialized copy of {@link ThrowingInit}, defined
 * by its own class loader and found through the thread's context loader.
 */
public class ClassInitTest {
    /** What the next static initializer of a ThrowingInit copy throws. */
    public static volatile Supplier<Throwable> cause;

    public static int fail() {
        Throwable t = cause.get();
        if (t instanceof RuntimeException) throw (RuntimeException) t;
        throw (Error) t;
    }

    /** The class under test; copies are defined by {@link Fresh}. */
    public static class ThrowingInit {
        public static int X = fail();

        public ThrowingInit() {}

        public static int twice(int a) {
            return 2 * a;
        }

        public int self() {
            return 1;
        }
    }

    /** A class whose static initializer uses the bridge (another class, another thread). */
    public static class ReentrantInit {
        public static final String VALUE = reenter();

        public static String value() {
            return VALUE;
        }
    }

    /** Used from JS while ReentrantInit initializes. */
    public static class Helper1 {
        public static String hello() {
            return "h1";
        }
    }

    /** Used from JS on another thread while ReentrantInit initializes. */
    public static class Helper2 {
        public static String hello() {
            return "h2";
        }
    }

    static String reenter() {
        try (JsRuntime inner = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            String a = (String) inner.eval("Java.type('" + Helper1.class.getName() + "').hello()");
            String[] b = new String[1];
            Thread t = new Thread(() -> {
                try (JsRuntime other = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                    b[0] = (String) other.eval("Java.type('" + Helper2.class.getName() + "').hello()");
                }
            });
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return a + "+" + b[0];
        }
    }

    /** The static initializer runs outside the bridge's class lock: it may use the bridge. */
    @org.junit.jupiter.api.Test
    void staticInitializerMayUseTheBridge() {
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(120), () -> {
            try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
                assertEquals("h1+h2", rt.eval("Java.type('" + ReentrantInit.class.getName() + "').value()"));
            }
        }, "a static initializer that uses the bridge must not deadlock");
    }

    /** A RuntimeException whose toString throws. */
    static final class Nasty extends RuntimeException {
        Nasty() {
            super("nasty-cause");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString fails");
        }
    }

    /** Defines its own copy of ThrowingInit; delegates everything else. */
    static final class Fresh extends ClassLoader {
        static final String NAME = ThrowingInit.class.getName();

        Fresh() {
            super(ClassInitTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(NAME)) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) return c;
                String res = name.substring(name.lastIndexOf('.') + 1) + ".class";
                try (InputStream in = ClassInitTest.class.getResourceAsStream(res)) {
                    byte[] b = in.readAllBytes();
                    return defineClass(name, b, 0, b.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }
    }

    /** First-access expressions; N is the class name as a JS string literal. */
    static final String[] ACCESSES = {
        "Java.type(N)",
        "Java.type(N).X",
        "Java.type(N).twice(2)",
        "new (Java.type(N))()",
    };

    @SuppressWarnings("unchecked")
    static final Supplier<Throwable>[] CAUSES = new Supplier[] {
        () -> new IllegalStateException("boom-runtime"),
        () -> new Nasty(),
        () -> new AssertionError("boom-error"),
    };
    static final String[] FIRST = {
        "java.lang.ExceptionInInitializerError \\(caused by java.lang.IllegalStateException: boom-runtime\\)",
        "java.lang.ExceptionInInitializerError \\(caused by org.strait.ClassInitTest\\$Nasty",
        "java.lang.AssertionError: boom-error",
    };

    /** Runs expr in JS and returns the thrown error's message, or fails when nothing throws. */
    static String messageOf(JsRuntime rt, String expr) {
        Object r = rt.eval("(() => { try { " + expr + "; return 'no error'; }"
                + " catch (e) { return (e instanceof Error ? 'Error|' : 'other|') + e.message; } })()");
        return (String) r;
    }

    @TestFactory
    List<DynamicTest> throwingStaticInitializerIsAJsErrorEveryTime() {
        List<DynamicTest> out = new ArrayList<>();
        for (int a = 0; a < ACCESSES.length; a++) {
            for (int c = 0; c < CAUSES.length; c++) {
                String access = ACCESSES[a];
                int ci = c;
                out.add(DynamicTest.dynamicTest(access + " / cause " + c, () -> run(access, ci)));
            }
        }
        return out;
    }

    private static void run(String access, int c) throws Exception {
        Thread th = Thread.currentThread();
        ClassLoader saved = th.getContextClassLoader();
        th.setContextClassLoader(new Fresh());
        cause = CAUSES[c];
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            rt.setGlobal("N", Fresh.NAME);
            String name = Fresh.NAME.replace("$", "\\$").replace(".", "\\.");
            String first = messageOf(rt, access);
            assertTrue(first.matches("Error\\|cannot use Java class " + name + ": " + FIRST[c] + ".*"),
                    "first access: " + first);
            for (int i = 0; i < 3; i++) {
                String again = messageOf(rt, access);
                assertTrue(again.matches("Error\\|cannot use Java class " + name
                                + ": java.lang.NoClassDefFoundError: Could not initialize class " + name + ".*"),
                        "access " + (i + 2) + ": " + again);
            }
            // the runtime stays usable, other classes too
            assertEquals(3, rt.eval("new (Java.type('java.util.ArrayList'))([1, 2, 3]).size()"));
            // uncaught, it reaches Java as a JsException with that message
            JsException t = assertThrows(JsException.class, () -> rt.eval(access));
            assertTrue(t.getMessage().contains("NoClassDefFoundError: Could not initialize class "), t.getMessage());
        } finally {
            th.setContextClassLoader(saved);
        }
    }
}
