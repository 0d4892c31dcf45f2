package org.strait.internal;

import org.strait.JsRuntime;
import org.strait.JsValue;
import org.strait.JsObject;

/**
 * Java arguments packed for one crossing into JS (see Natives): the
 * values in {@code vals[0..argc)}, then one type tag per byte in the longs
 * after them; Strings and Java objects in {@code refs[i]}. The tags are the
 * STRAIT__ARG_* constants of src/jni/call/interop.h.
 */
public final class Args {
    private static final ApiAccess A = ApiAccess.get();
    static final byte UNDEFINED = 0, NULL = 1, FALSE = 2, TRUE = 3, INT = 4, DOUBLE = 5,
            STRING = 6, HANDLE = 7, JAVA = 8, BIGINT = 9, JAVA_REG = 10, JAVA_RESULT = 11;

    private static final long MAX_SAFE = 1L << 53;

    public final long[] vals;
    public Object[] refs;
    public final int argc;
    /** The JsValue arguments (handles), for {@link #hold}; null when none. */
    private JsValue[] values;
    private int nvalues;
    private int held;

    private Args(long[] vals, Object[] refs, int argc) {
        this.vals = vals;
        this.refs = refs;
        this.argc = argc;
    }

    static final Args NONE = new Args(null, null, 0);

    /**
     * Takes a use of every JsValue argument for the native call (see
     * JsValue.acquire): one closed meanwhile throws IllegalStateException
     * naming the argument, and close() of one on another thread waits until
     * {@link #unhold}. The caller calls unhold() in a finally block, also
     * when this throws. Returns this.
     */
    public Args hold() {
        for (; held < nvalues; held++) {
            try {
                A.acquire(values[held]);
            } catch (IllegalStateException e) {
                throw new IllegalStateException("argument " + indexOf(values[held]) + ": " + e.getMessage());
            }
        }
        return this;
    }

    /** Gives back the uses {@link #hold} took. */
    public void unhold() {
        while (held > 0) A.release(values[--held]);
    }

    private int indexOf(JsValue v) {
        for (int i = 0; i < argc; i++)
            if (tagOf(i) == HANDLE && vals[i] == A.handle(v)) return i;
        return -1;
    }

    private void addValue(JsValue v) {
        if (values == null) values = new JsValue[2];
        else if (nvalues == values.length) values = java.util.Arrays.copyOf(values, nvalues * 2);
        values[nvalues++] = v;
    }

    /**
     * Natives.call(fn, flags) with these arguments. Java objects
     * among them are registered here, in the runtime's ObjectTable, inside
     * the runtime's gate (enterArgs ... leaveArgs around the call), so the
     * native side wraps each without an upcall (STRAIT__ARG_JAVA_REG). The
     * caller holds a count of rt.
     */
    public Object call(JsRuntime rt, long fn, int flags) {
        ObjectTable t = refs == null ? null : A.table(rt);
        if (t == null || !hasJava())
            return Natives.call(A.peer(rt), rt, fn, flags, vals, refs, argc);
        Natives.enterArgs(A.peer(rt));
        try {
            for (int i = 0; i < argc; i++) {
                if (tagOf(i) != JAVA) continue;
                vals[i] = t.register(refs[i]);
                retag(i, JAVA_REG);
            }
            return Natives.call(A.peer(rt), rt, fn, flags, vals, refs, argc);
        } finally {
            Natives.leaveArgs(A.peer(rt));
        }
    }

    /** True when an argument is a Java object for the bridge. */
    private boolean hasJava() {
        for (int i = 0; i < argc; i++)
            if (tagOf(i) == JAVA) return true;
        return false;
    }

    private int tagOf(int i) {
        return (int) (vals[argc + (i >>> 3)] >>> ((i & 7) * 8)) & 0xff;
    }

    private void retag(int i, byte t) {
        int sh = (i & 7) * 8;
        int w = argc + (i >>> 3);
        vals[w] = (vals[w] & ~(0xffL << sh)) | ((long) (t & 0xff) << sh);
    }

    /** Packs receiver (when hasThis) followed by args, for runtime rt. */
    public static Args pack(JsRuntime rt, boolean hasThis, Object receiver, Object[] args) {
        int n = (args == null ? 0 : args.length) + (hasThis ? 1 : 0);
        if (n == 0) return NONE;
        Args a = new Args(new long[n + (n + 7) / 8], null, n);
        int off = 0;
        if (hasThis) a.put(rt, 0, receiver);
        if (hasThis) off = 1;
        if (args != null)
            for (int i = 0; i < args.length; i++) a.put(rt, i + off, args[i]);
        return a;
    }

    /**
     * pack() for a call Java code makes to JS a script gave it (a JS
     * function as a Comparator, a Java.extend object): the Java objects
     * among receiver and args cross as results do, under the policy's
     * verdict on results (a class filter applies), not as objects the
     * embedder hands in.
     */
    public static Args packResults(JsRuntime rt, boolean hasThis, Object receiver, Object[] args) {
        Args a = pack(rt, hasThis, receiver, args);
        if (a.refs != null)
            for (int i = 0; i < a.argc; i++)
                if (a.tagOf(i) == JAVA) a.retag(i, JAVA_RESULT);
        return a;
    }

    /** Packs a single value (a property store). */
    public static Args one(JsRuntime rt, Object value) {
        Args a = new Args(new long[2], null, 1);
        a.put(rt, 0, value);
        return a;
    }

    private void tag(int i, byte t) {
        vals[argc + (i >>> 3)] |= ((long) (t & 0xff)) << ((i & 7) * 8);
    }

    private void ref(int i, Object o) {
        if (refs == null) refs = new Object[argc];
        refs[i] = o;
    }

    private void put(JsRuntime rt, int i, Object o) {
        if (o == null) {
            tag(i, NULL);
        } else if (o == JsObject.UNDEFINED) {
            tag(i, UNDEFINED);
        } else if (o instanceof String) {
            tag(i, STRING);
            ref(i, o);
        } else if (o instanceof Integer || o instanceof Short || o instanceof Byte) {
            vals[i] = ((Number) o).intValue();
            tag(i, INT);
        } else if (o instanceof Double || o instanceof Float) {
            vals[i] = Double.doubleToRawLongBits(((Number) o).doubleValue());
            tag(i, DOUBLE);
        } else if (o instanceof Long) {
            long v = (Long) o;
            if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                vals[i] = v;
                tag(i, INT);
            } else if (v >= -MAX_SAFE && v <= MAX_SAFE) {
                vals[i] = Double.doubleToRawLongBits((double) v);
                tag(i, DOUBLE);
            } else {
                vals[i] = v;
                tag(i, BIGINT);
            }
        } else if (o instanceof Boolean) {
            tag(i, ((Boolean) o) ? TRUE : FALSE);
        } else if (o instanceof Character) {
            tag(i, STRING);
            ref(i, String.valueOf((char) (Character) o));
        } else if (o instanceof JsValue) {
            JsValue v = (JsValue) o;
            if (v.runtime() != rt)
                throw new IllegalArgumentException(
                        "argument " + i + " is a JsValue of another runtime");
            if (v.runtime().isClosed()) throw new IllegalStateException("runtime closed");
            if (v.isReleased())
                throw new IllegalStateException("argument " + i + ": " + A.releasedMessage(v));
            vals[i] = A.handle(v);
            tag(i, HANDLE);
            addValue(v);
        } else {
            vals[i] = System.identityHashCode(o) & 0xffffffffL;  /* native finds JS's wrapper by it */
            tag(i, JAVA);
            ref(i, o);
        }
    }
}
