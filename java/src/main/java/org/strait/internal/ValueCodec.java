package org.strait.internal;

import org.strait.JsRuntime;
import org.strait.JsValue;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Objects;

/**
 * Whole-value conversions between a runtime and Java in one crossing each
 * (docs/value-format.md): {@link JsValue#toJava()}, {@link JsRuntime#toJs},
 * and zero-copy sharing of byte buffers. Package-private; the public entry
 * points are on JsValue and JsRuntime.
 */
public final class ValueCodec {
    private static final ApiAccess A = ApiAccess.get();
    private ValueCodec() {}

    static final int HANDLES = 1;
    /** The thread's buffer is in use by an outer conversion: write elsewhere. */
    static final int NO_THREAD_BUFFER = 4;
    private static final Cleaner CLEANER = Cleaner.create();

    /** The value of v as plain Java data; functions and symbols become JsValue handles when handles is set. */
    public static Object toJava(JsValue v, boolean handles) {
        JsRuntime rt = v.runtime();
        ValueBuffers.State st = ValueBuffers.forThread();
        int flags = (handles ? HANDLES : 0) | (st.busy > 0 ? NO_THREAD_BUFFER : 0);
        st.busy++;
        try {
            Object res;
            A.enterUse(v);
            try {
                res = Natives.codecToJava(A.peer(rt), rt, A.handle(v), flags);
            } finally {
                A.leaveUse(v, rt);
            }
            boolean outer = st.busy == 1;
            if (res == null) {
                int len = st.buf.getInt(4) + ValueTags.HEADER;
                return ValueReader.readRange(st.buf, 0, len, null, outer ? st.readArray(len) : null);
            }
            Object[] r = (Object[]) res;
            ByteBuffer spill = (ByteBuffer) r[0];
            Object[] refs = (Object[]) r[1];
            long addr = ((long[]) r[2])[0];
            ValueReader.Refs resolver = refs == null ? null : new ValueReader.Refs() {
                @Override
                public Object javaObject(int id) {
                    return refs[id];
                }

                @Override
                public Object jsValue(int id) {
                    return refs[id];
                }
            };
            try {
                ByteBuffer b = spill != null ? spill.order(ByteOrder.LITTLE_ENDIAN) : st.buf;
                int len = b.getInt(4) + ValueTags.HEADER;
                return ValueReader.readRange(b, 0, len, resolver, outer ? st.readArray(len) : null);
            } finally {
                if (addr != 0) Natives.codecFree(addr);
            }
        } finally {
            st.busy--;
        }
    }

    /** value as a JS value of rt (returned as eval returns values: a JsValue for objects). */
    public static Object toJs(JsRuntime rt, Object value) {
        if (value instanceof ByteBuffer && ((ByteBuffer) value).isDirect()) {
            ByteBuffer b = (ByteBuffer) value;
            return share(rt, b.isReadOnly() ? writableCopy(b) : b);
        }
        ValueBuffers.State st = ValueBuffers.forThread();
        ArrayList<Object> refs = new ArrayList<>(0);
        /* the JsValues inside value, each holding a use until the native read is done */
        ArrayList<JsValue> held = new ArrayList<>(0);
        ValueWriter.Refs ids = new ValueWriter.Refs() {
            @Override
            public int javaId(Object o) {
                refs.add(o);
                return refs.size() - 1;
            }

            @Override
            public int jsRef(JsValue v) {
                if (v.runtime() != rt)
                    throw new IllegalArgumentException("a JsValue of another runtime cannot cross ("
                            + v.getClass().getSimpleName() + " inside the value)");
                if (v.runtime().isClosed()) throw new IllegalStateException("runtime closed");
                try {
                    A.acquire(v);
                } catch (IllegalStateException e) {
                    throw new IllegalStateException(e.getMessage() + " (inside the value given to toJs)");
                }
                held.add(v);
                refs.add(v);
                return refs.size() - 1;
            }
        };
        boolean shared = st.busy == 0;
        st.busy++;
        try {
            ValueWriter w = shared
                    ? ValueWriter.writeArray(st.writerArray(), value, ids, true, st.ids, st.keys)
                    : ValueWriter.writeArray(new byte[4096], value, ids, true, null, null);
            if (shared) st.keepTables();
            byte[] bytes = w.bytes();
            int len = w.length();
            ByteBuffer out;
            if (shared) {
                st.keep(bytes);
                out = len <= st.buf.capacity() ? st.buf : st.spill(len);
            } else {
                out = ByteBuffer.allocateDirect(len).order(ByteOrder.LITTLE_ENDIAN);
            }
            out.put(0, bytes, 0, len);
            Object[] refArray = refs.isEmpty() ? null : refs.toArray();
            A.enter(rt);
            try {
                return Natives.codecToJs(A.peer(rt), rt, out == st.buf ? null : out, len, refArray);
            } finally {
                A.leave(rt);
            }
        } finally {
            st.busy--;
            for (JsValue v : held) A.release(v);
        }
    }

    /** An ArrayBuffer over buf's memory (no copy); buf stays alive while JS holds it. */
    static Object share(JsRuntime rt, ByteBuffer buf) {
        Objects.requireNonNull(buf, "buf");
        A.enter(rt);
        try {
            return Natives.codecShareBuffer(A.peer(rt), rt, buf);
        } finally {
            A.leave(rt);
        }
    }

    /**
     * A direct ByteBuffer over the bytes of an ArrayBuffer or typed array
     * (no copy). The ArrayBuffer is pinned and protected until the
     * ByteBuffer is collected, and the buffer holds a lease on the runtime:
     * close() then stops calls at once but frees the engine (and so this
     * memory) only once the last leased ByteBuffer was collected, so the
     * ByteBuffer never points at freed memory or another runtime's.
     */
    public static ByteBuffer bufferOf(JsValue v) {
        long[] prot = new long[1];
        ByteBuffer b;
        JsRuntime rt = A.enterUse(v);
        try {
            b = Natives.codecBufferOf(A.peer(rt), A.handle(v), prot);
            A.lease(rt);
        } finally {
            A.leaveUse(v, rt);
        }
        long h = prot[0];
        CLEANER.register(b, () -> {
            A.queueRelease(rt, h);
            A.unlease(rt);
        });
        return b.order(ByteOrder.nativeOrder());
    }

    /**
     * A copy of a read-only buffer's bytes (0 to its capacity) in a new
     * direct buffer: JSC has no read-only ArrayBuffer, so sharing it would let
     * JS write into memory Java promised nobody writes (a file mapped
     * READ_ONLY would crash the process on the first write).
     */
    static ByteBuffer writableCopy(ByteBuffer buf) {
        ByteBuffer src = buf.duplicate();
        src.clear();
        ByteBuffer copy = ByteBuffer.allocateDirect(src.capacity());
        copy.put(src);
        return copy.clear();
    }
}
