package org.strait;

/**
 * Java arguments packed for one crossing into JS (see InteropNatives): the
 * values in {@code vals[0..argc)}, then one type tag per byte in the longs
 * after them; Strings and Java objects in {@code refs[i]}. The tags are the
 * STRAIT__ARG_* constants of src/jni/handles.h.
 */
final class Args {
    static final byte UNDEFINED = 0, NULL = 1, FALSE = 2, TRUE = 3, INT = 4, DOUBLE = 5,
            STRING = 6, HANDLE = 7, JAVA = 8, BIGINT = 9, JAVA_REG = 10;

    private static final long MAX_SAFE = 1L << 53;

    final long[] vals;
    final Object[] refs;
    final int argc;

    private Args(long[] vals, Object[] refs, int argc) {
        this.vals = vals;
        this.refs = refs;
        this.argc = argc;
    }

    static final Args NONE = new Args(null, null, 0);

    /**
     * InteropNatives.call(fn, flags) with these arguments. Java objects
     * among them are registered here, in the runtime's ObjectTable, inside
     * the runtime's gate (enterArgs ... leaveArgs around the call), so the
     * native side wraps each without an upcall (STRAIT__ARG_JAVA_REG). The
     * caller holds a count of rt.
     */
    Object call(JsRuntime rt, long fn, int flags) {
        ObjectTable t = refs == null ? null : rt.table();
        if (t == null || !hasJava())
            return InteropNatives.call(rt.peer, rt, fn, flags, vals, refs, argc);
        InteropNatives.enterArgs(rt.peer);
        try {
            for (int i = 0; i < argc; i++) {
                if (tagOf(i) != JAVA) continue;
                vals[i] = t.register(refs[i]);
                retag(i, JAVA_REG);
            }
            return InteropNatives.call(rt.peer, rt, fn, flags, vals, refs, argc);
        } finally {
            InteropNatives.leaveArgs(rt.peer);
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
    static Args pack(JsRuntime rt, boolean hasThis, Object receiver, Object[] args) {
        int n = (args == null ? 0 : args.length) + (hasThis ? 1 : 0);
        if (n == 0) return NONE;
        long[] vals = new long[n + (n + 7) / 8];
        Object[] refs = null;
        int off = 0;
        if (hasThis) refs = put(rt, vals, refs, n, 0, receiver);
        if (hasThis) off = 1;
        if (args != null)
            for (int i = 0; i < args.length; i++) refs = put(rt, vals, refs, n, i + off, args[i]);
        return new Args(vals, refs, n);
    }

    /** Packs a single value (a property store). */
    static Args one(JsRuntime rt, Object value) {
        long[] vals = new long[2];
        Object[] refs = put(rt, vals, null, 1, 0, value);
        return new Args(vals, refs, 1);
    }

    private static void tag(long[] vals, int n, int i, byte t) {
        vals[n + (i >>> 3)] |= ((long) (t & 0xff)) << ((i & 7) * 8);
    }

    private static Object[] ref(Object[] refs, int n, int i, Object o) {
        if (refs == null) refs = new Object[n];
        refs[i] = o;
        return refs;
    }

    private static Object[] put(JsRuntime rt, long[] vals, Object[] refs, int n, int i, Object o) {
        if (o == null) {
            tag(vals, n, i, NULL);
        } else if (o == JsObject.UNDEFINED) {
            tag(vals, n, i, UNDEFINED);
        } else if (o instanceof String) {
            tag(vals, n, i, STRING);
            refs = ref(refs, n, i, o);
        } else if (o instanceof Integer || o instanceof Short || o instanceof Byte) {
            vals[i] = ((Number) o).intValue();
            tag(vals, n, i, INT);
        } else if (o instanceof Double || o instanceof Float) {
            vals[i] = Double.doubleToRawLongBits(((Number) o).doubleValue());
            tag(vals, n, i, DOUBLE);
        } else if (o instanceof Long) {
            long v = (Long) o;
            if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
                vals[i] = v;
                tag(vals, n, i, INT);
            } else if (v >= -MAX_SAFE && v <= MAX_SAFE) {
                vals[i] = Double.doubleToRawLongBits((double) v);
                tag(vals, n, i, DOUBLE);
            } else {
                vals[i] = v;
                tag(vals, n, i, BIGINT);
            }
        } else if (o instanceof Boolean) {
            tag(vals, n, i, ((Boolean) o) ? TRUE : FALSE);
        } else if (o instanceof Character) {
            tag(vals, n, i, STRING);
            refs = ref(refs, n, i, String.valueOf((char) (Character) o));
        } else if (o instanceof JsValue) {
            JsValue v = (JsValue) o;
            if (v.runtime() != rt)
                throw new IllegalArgumentException(
                        "argument " + i + " is a JsValue of another runtime");
            v.checkLive();
            vals[i] = v.handle;
            tag(vals, n, i, HANDLE);
        } else {
            vals[i] = System.identityHashCode(o) & 0xffffffffL;  /* native finds JS's wrapper by it */
            tag(vals, n, i, JAVA);
            refs = ref(refs, n, i, o);
        }
        return refs;
    }
}
