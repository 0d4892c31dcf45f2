package org.strait.internal;

import org.strait.JsValue;
import org.strait.ValueConversionException;
import org.strait.ValueExt;

import static org.strait.internal.ValueTags.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;

/**
 * Writes a Java value in the strait value format (docs/value-format.md):
 * {@code Map} with String keys becomes an OBJECT (other maps a MAP),
 * {@code Set} a SET, {@code List}/{@code Collection}/{@code Object[]} an
 * ARRAY (packed when every element is a number), boxed numbers by their
 * type, {@code BigInteger} a BIGINT, {@code Instant}/{@code Date} a DATE,
 * primitive arrays BYTES, {@code null} NULL; any other object a JAVAREF
 * through the {@link Refs} (without one, a {@link ValueConversionException}
 * naming the path). Shared and cyclic structure becomes BACKREFs.
 *
 * <p>Iterative (explicit stack). Writes into a byte array (little-endian
 * stores through VarHandle views, no per-byte buffer checks) that grows by
 * reallocation; composites and keys are found in open-addressing tables with
 * int values (no boxing). One instance per conversion; any thread.
 */
public final class ValueWriter {
    /** Gives ids to objects that cross by reference. */
    public interface Refs {
        /** The object-table id of o (a Java object with no plain JS form). */
        int javaId(Object o);

        /** The handle id of a JsValue crossing back to JS. */
        default int jsRef(JsValue v) {
            throw new IllegalArgumentException("a JsValue cannot be written without a runtime");
        }
    }

    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle F64 = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    /** Strings at least this long cross Java -> JS by reference when the caller allows it (see {@link #stringRefs}). */
    static final int LONG_STRING = 4096;

    private byte[] out;
    private int pos;
    private final Refs refs;
    /** Long strings are written as JAVAREFs to the String (the JNI layer makes the JS string straight from it). */
    private final boolean stringRefs;
    private final IdTable ids;
    private final KeyTable keys;
    private int ncomposites;

    private ValueWriter(byte[] out, Refs refs, boolean stringRefs, IdTable ids, KeyTable keys) {
        this.out = out;
        this.refs = refs;
        this.stringRefs = stringRefs && refs != null;
        this.ids = ids != null ? ids : new IdTable();
        this.keys = keys != null ? keys : new KeyTable();
    }

    /** Tables larger than this are not kept for another conversion. */
    static final int KEEP_SLOTS = 1 << 16;

    /**
     * Composite -> index, by identity (open addressing, linear probing).
     * Reusable: {@link #clear()} empties only the slots used (O(entries)).
     */
    static final class IdTable {
        private Object[] keys = new Object[32];
        private int[] vals = new int[32];
        private int[] used = new int[16];
        private int size;

        /** Empties the table (drops every reference); false if it is too large to keep. */
        boolean clear() {
            for (int k = 0; k < size; k++) keys[used[k]] = null;
            size = 0;
            return keys.length <= KEEP_SLOTS;
        }

        /** The index of o, or -1 after recording it with index v. */
        int putIfAbsent(Object o, int v) {
            int mask = keys.length - 1;
            int i = mix(System.identityHashCode(o)) & mask;
            for (Object k; (k = keys[i]) != null; i = (i + 1) & mask)
                if (k == o) return vals[i];
            keys[i] = o;
            vals[i] = v;
            if (size == used.length) used = Arrays.copyOf(used, size * 2);
            used[size] = i;
            if (++size * 2 > keys.length) grow();
            return -1;
        }

        private void grow() {
            Object[] ok = keys;
            int[] ov = vals;
            keys = new Object[ok.length * 2];
            vals = new int[ok.length * 2];
            int mask = keys.length - 1, n = 0;
            for (int j = 0; j < ok.length; j++) {
                Object k = ok[j];
                if (k == null) continue;
                int i = mix(System.identityHashCode(k)) & mask;
                while (keys[i] != null) i = (i + 1) & mask;
                keys[i] = k;
                vals[i] = ov[j];
                used[n++] = i;
            }
        }
    }

    /** Object key -> key-table index (open addressing on String.hashCode); reusable like IdTable. */
    static final class KeyTable {
        private String[] keys = new String[32];
        private int[] vals = new int[32];
        private int[] used = new int[16];
        private int size;

        /** Empties the table; false if it is too large to keep. */
        boolean clear() {
            for (int k = 0; k < size; k++) keys[used[k]] = null;
            size = 0;
            return keys.length <= KEEP_SLOTS;
        }

        /** The index of k, or -1 after giving it the next index. */
        int putIfAbsent(String k) {
            int mask = keys.length - 1;
            int i = mix(k.hashCode()) & mask;
            for (String x; (x = keys[i]) != null; i = (i + 1) & mask)
                if (x == k || x.equals(k)) return vals[i];
            keys[i] = k;
            vals[i] = size;
            if (size == used.length) used = Arrays.copyOf(used, size * 2);
            used[size] = i;
            if (++size * 2 > keys.length) grow();
            return -1;
        }

        private void grow() {
            String[] ok = keys;
            int[] ov = vals;
            keys = new String[ok.length * 2];
            vals = new int[ok.length * 2];
            int mask = keys.length - 1, n = 0;
            for (int j = 0; j < ok.length; j++) {
                String k = ok[j];
                if (k == null) continue;
                int i = mix(k.hashCode()) & mask;
                while (keys[i] != null) i = (i + 1) & mask;
                keys[i] = k;
                vals[i] = ov[j];
                used[n++] = i;
            }
        }
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    /** Writes value (with header) into a new byte array. */
    public static byte[] write(Object value) {
        return write(value, (Refs) null);
    }

    /** Same, giving ids to Java objects through refs (may be null). */
    public static byte[] write(Object value, Refs refs) {
        ValueWriter w = new ValueWriter(new byte[256], refs, false, null, null);
        w.run(value);
        return Arrays.copyOf(w.out, w.pos);
    }

    /**
     * Writes value into buf from offset 0 (buf's position and limit are not
     * used; its order is set to little-endian). Returns the buffer that holds the bytes: buf itself, or
     * a larger direct buffer when the value did not fit (buf untouched past
     * its capacity); the length is {@link #lengthOf(ByteBuffer)}.
     */
    static ByteBuffer writeInto(ByteBuffer buf, Object value, Refs refs) {
        ValueWriter w = new ValueWriter(new byte[Math.min(buf.capacity(), 4096)], refs, false, null, null);
        w.run(value);
        ByteBuffer dst = w.pos <= buf.capacity() ? buf : ByteBuffer.allocateDirect(w.pos);
        dst.order(ByteOrder.LITTLE_ENDIAN).put(0, w.out, 0, w.pos);
        return dst;
    }

    /**
     * Writes value into scratch (or a larger array when it does not fit) for
     * the JNI glue; long strings go by reference when stringRefs is set; ids
     * and keys (may be null) are empty tables to use, emptied again before
     * this returns or throws. Returns the writer: {@link #bytes()} and
     * {@link #length()}.
     */
    static ValueWriter writeArray(byte[] scratch, Object value, Refs refs, boolean stringRefs, IdTable ids,
            KeyTable keys) {
        ValueWriter w = new ValueWriter(scratch, refs, stringRefs, ids, keys);
        try {
            w.run(value);
        } finally {
            w.ids.clear();
            w.keys.clear();
        }
        return w;
    }

    /** The array holding the bytes written (from offset 0). */
    byte[] bytes() {
        return out;
    }

    /** The number of bytes written, header included. */
    int length() {
        return pos;
    }

    /** The byte length of the value (header included) at the start of buf. */
    static int lengthOf(ByteBuffer buf) {
        return buf.order() == ByteOrder.LITTLE_ENDIAN ? buf.getInt(4) + HEADER
                : Integer.reverseBytes(buf.getInt(4)) + HEADER;
    }

    // ---- output ----

    private void need(int n) {
        if (out.length - pos >= n) return;
        long want = (long) pos + n;
        if (want > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("value larger than 2 GiB");
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(want, (long) out.length * 2));
        out = Arrays.copyOf(out, cap);
    }

    private void u8(int v) {
        out[pos++] = (byte) v;
    }

    private void u32(int v) {
        I32.set(out, pos, v);
        pos += 4;
    }

    private void tagU32(int tag, int v) {
        need(5);
        byte[] o = out;
        int p = pos;
        o[p] = (byte) tag;
        I32.set(o, p + 1, v);
        pos = p + 5;
    }

    private void string(String s) {
        string(s, true);
    }

    /** A STRING8/STRING16 (or, for a long value string with stringRefs, a JAVAREF to it). */
    private void string(String s, boolean byRef) {
        int n = s.length();
        if (n >= LONG_STRING && byRef && stringRefs) {
            tagU32(JAVAREF, refs.javaId(s));
            return;
        }
        need(5 + 2 * n);
        pos = putString(out, pos, s);
    }

    /**
     * Writes s at o[at..] as a STRING8 (every char below 256) or a STRING16
     * and returns the position after it; o has room for 5 + 2 * length.
     * The one string encoder of the Java side (Bridge.JsonTree uses it too).
     */
    static int putString(byte[] o, int at, String s) {
        int n = s.length();
        int q = at + 5;
        if (n >= LONG_STRING) {
            /* bulk: a String whose chars are all below 256 is stored as Latin-1
             * (compact strings), and only such a string equals its Latin-1 copy */
            byte[] latin = s.getBytes(StandardCharsets.ISO_8859_1);
            if (new String(latin, StandardCharsets.ISO_8859_1).equals(s)) {
                o[at] = (byte) STRING8;
                I32.set(o, at + 1, n);
                System.arraycopy(latin, 0, o, q, n);
                return q + n;
            }
        }
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c > 0xFF) break;
            o[q + i] = (byte) c;
        }
        I32.set(o, at + 1, n);
        if (i == n) {
            o[at] = (byte) STRING8;
            return q + n;
        }
        o[at] = (byte) STRING16;
        for (int k = 0; k < n; k++) {
            char c = s.charAt(k);
            o[q + 2 * k] = (byte) c;
            o[q + 2 * k + 1] = (byte) (c >>> 8);
        }
        return q + 2 * n;
    }

    private void key(String k) {
        int i = keys.putIfAbsent(k);
        if (i >= 0) {
            tagU32(KEYREF, i);
            return;
        }
        string(k, false);
    }

    // ---- the explicit stack ----

    private static final int F_OBJECT = 0, F_LIST = 1, F_ARRAY = 2, F_MAP = 3, F_SET = 4;

    private Object[] fIt = new Object[8];     /* Iterator, or Object[] for arrays */
    private byte[] fKind = new byte[8];
    private int[] fIndex = new int[8];        /* next item (for paths and arrays) */
    private Object[] fCur = new Object[8];    /* current key / map entry (for paths) */
    private Object[] fPendingValue = new Object[8];
    private boolean[] fHavePending = new boolean[8];
    private int depth;

    private void push(int kind, Object it) {
        if (depth == fIt.length) {
            int n = depth * 2;
            fIt = java.util.Arrays.copyOf(fIt, n);
            fKind = java.util.Arrays.copyOf(fKind, n);
            fIndex = java.util.Arrays.copyOf(fIndex, n);
            fCur = java.util.Arrays.copyOf(fCur, n);
            fPendingValue = java.util.Arrays.copyOf(fPendingValue, n);
            fHavePending = java.util.Arrays.copyOf(fHavePending, n);
        }
        fIt[depth] = it;
        fKind[depth] = (byte) kind;
        fIndex[depth] = 0;
        fCur[depth] = null;
        fPendingValue[depth] = null;
        fHavePending[depth] = false;
        depth++;
    }

    private void run(Object root) {
        need(HEADER);
        u8(MAGIC0);
        u8(MAGIC1);
        u8(MAGIC2);
        u8(VERSION);
        u32(0);
        value(root);
        while (depth > 0) {
            int d = depth - 1;
            int kind = fKind[d];
            if (kind == F_ARRAY) {
                Object[] a = (Object[]) fIt[d];
                if (fIndex[d] == a.length) {
                    fIt[d] = null;
                    depth--;
                    continue;
                }
                value(a[fIndex[d]++]);
                continue;
            }
            if (fHavePending[d]) {               /* a map's value after its key */
                fHavePending[d] = false;
                Object v = fPendingValue[d];
                fPendingValue[d] = null;
                value(v);
                continue;
            }
            Iterator<?> it = (Iterator<?>) fIt[d];
            if (!it.hasNext()) {
                fIt[d] = null;
                fCur[d] = null;
                depth--;
                continue;
            }
            Object item = it.next();
            fIndex[d]++;
            if (kind == F_OBJECT) {
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) item;
                fCur[d] = e.getKey();
                key((String) e.getKey());
                value(e.getValue());
            } else if (kind == F_MAP) {
                Map.Entry<?, ?> e = (Map.Entry<?, ?>) item;
                fCur[d] = e.getKey();
                fPendingValue[d] = e.getValue();
                fHavePending[d] = true;
                value(e.getKey());
            } else {
                value(item);
            }
        }
        I32.set(out, 4, pos - HEADER);
    }

    /** The path of the item being written: "$.a.b[3]". */
    private String path() {
        StringBuilder sb = new StringBuilder("$");
        for (int d = 0; d < depth; d++) {
            int i = fIndex[d] - 1;
            switch (fKind[d]) {
                case F_OBJECT: {
                    String k = String.valueOf(fCur[d]);
                    if (k.matches("[A-Za-z_$][A-Za-z0-9_$]*")) sb.append('.').append(k);
                    else sb.append("[\"").append(k.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"]");
                    break;
                }
                case F_MAP:
                    sb.append(fHavePending[d] ? "<Map key " : "<Map value ").append(i).append('>');
                    break;
                case F_SET:
                    sb.append("<Set ").append(i).append('>');
                    break;
                default:
                    sb.append('[').append(i).append(']');
            }
        }
        return sb.toString();
    }

    /** Registers a composite; returns false (after writing a BACKREF) if seen before. */
    private boolean first(Object o) {
        int seen = ids.putIfAbsent(o, ncomposites);
        if (seen >= 0) {
            tagU32(BACKREF, seen);
            return false;
        }
        ncomposites++;
        return true;
    }

    private void number(Object n) {
        need(9);
        if (n instanceof Integer || n instanceof Short || n instanceof Byte) {
            u8(INT32);
            u32(((Number) n).intValue());
        } else if (n instanceof Long) {
            u8(INT64);
            I64.set(out, pos, (long) (Long) n);
            pos += 8;
        } else {
            u8(DOUBLE);
            F64.set(out, pos, ((Number) n).doubleValue());
            pos += 8;
        }
    }

    private static boolean packable(Object o) {
        if (o instanceof Integer || o instanceof Double || o instanceof Short || o instanceof Byte
                || o instanceof Float) return true;
        if (o instanceof Long) {
            long l = (Long) o;
            return l >= -(1L << 53) + 1 && l <= (1L << 53) - 1;
        }
        return false;
    }

    /** Writes a packed number array if every element is a number; false otherwise. */
    private boolean packed(Object[] items) {
        int n = items.length;
        if (n == 0) return false;
        boolean allInt = true;
        for (Object o : items) {
            if (!packable(o)) return false;
            if (allInt && !(o instanceof Integer || o instanceof Short || o instanceof Byte)
                    && !isInt32(((Number) o).doubleValue())) allInt = false;
        }
        need(5 + n * 8);
        u8(allInt ? ARRAY_I32 : ARRAY_F64);
        u32(n);
        byte[] b = out;
        int p = pos;
        if (allInt) {
            for (Object o : items) {
                I32.set(b, p, o instanceof Integer ? (int) (Integer) o : (int) ((Number) o).doubleValue());
                p += 4;
            }
        } else {
            for (Object o : items) {
                F64.set(b, p, o instanceof Double ? (double) (Double) o : ((Number) o).doubleValue());
                p += 8;
            }
        }
        pos = p;
        return true;
    }

    private void list(Object o, Object[] items) {
        if (!first(o)) return;
        if (packed(items)) return;
        tagU32(ARRAY, items.length);
        push(F_ARRAY, items);
    }

    private void bytes(int kind, int len, ByteBuffer src) {
        need(6 + len);
        u8(BYTES);
        u8(kind);
        u32(len);
        src.get(0, out, pos, len);
        pos += len;
    }

    private void primitiveArray(Object a) {
        if (!first(a)) return;
        ByteBuffer bb;
        int kind;
        if (a instanceof byte[]) {
            byte[] x = (byte[]) a;
            bytes(B_UINT8, x.length, ByteBuffer.wrap(x));
            return;
        } else if (a instanceof short[]) {
            short[] x = (short[]) a;
            bb = ByteBuffer.allocate(x.length * 2).order(ByteOrder.LITTLE_ENDIAN);
            bb.asShortBuffer().put(x);
            kind = B_INT16;
        } else if (a instanceof char[]) {
            char[] x = (char[]) a;
            bb = ByteBuffer.allocate(x.length * 2).order(ByteOrder.LITTLE_ENDIAN);
            bb.asCharBuffer().put(x);
            kind = B_UINT16;
        } else if (a instanceof int[]) {
            int[] x = (int[]) a;
            bb = ByteBuffer.allocate(x.length * 4).order(ByteOrder.LITTLE_ENDIAN);
            bb.asIntBuffer().put(x);
            kind = B_INT32;
        } else if (a instanceof float[]) {
            float[] x = (float[]) a;
            bb = ByteBuffer.allocate(x.length * 4).order(ByteOrder.LITTLE_ENDIAN);
            bb.asFloatBuffer().put(x);
            kind = B_FLOAT32;
        } else if (a instanceof double[]) {
            double[] x = (double[]) a;
            bb = ByteBuffer.allocate(x.length * 8).order(ByteOrder.LITTLE_ENDIAN);
            bb.asDoubleBuffer().put(x);
            kind = B_FLOAT64;
        } else if (a instanceof long[]) {
            long[] x = (long[]) a;
            bb = ByteBuffer.allocate(x.length * 8).order(ByteOrder.LITTLE_ENDIAN);
            bb.asLongBuffer().put(x);
            kind = B_BIGINT64;
        } else {
            boolean[] x = (boolean[]) a;
            Object[] items = new Object[x.length];
            for (int i = 0; i < x.length; i++) items[i] = x[i];
            tagU32(ARRAY, items.length);
            push(F_ARRAY, items);
            return;
        }
        bytes(kind, bb.capacity(), bb);
    }

    private void bigint(BigInteger v) {
        byte[] be = v.abs().toByteArray();
        int skip = 0;
        while (skip < be.length && be[skip] == 0) skip++;
        int n = be.length - skip;
        need(6 + n);
        u8(BIGINT);
        u8(v.signum() < 0 ? 1 : 0);
        u32(n);
        for (int i = 0; i < n; i++) out[pos + i] = be[be.length - 1 - i];
        pos += n;
    }

    private void date(Object o, long ms) {
        if (!first(o)) return;
        need(9);
        u8(DATE);
        F64.set(out, pos, (double) ms);
        pos += 8;
    }

    private void value(Object v) {
        if (v == null) {
            need(1);
            u8(NULL);
        } else if (v instanceof String) {
            string((String) v);
        } else if (v instanceof Integer || v instanceof Double || v instanceof Long || v instanceof Short
                || v instanceof Byte || v instanceof Float) {
            number(v);
        } else if (v instanceof Boolean) {
            need(1);
            u8((Boolean) v ? TRUE : FALSE);
        } else if (v instanceof JsValue) {
            // before Map and List: a JsObject is a Map, a JsArray a List, but
            // crosses as the JS value itself
            if (refs == null) {
                String path = path();
                throw new ValueConversionException("cannot convert a " + v.getClass().getName() + " at " + path
                        + " (no object table to pass it by reference)", path);
            }
            tagU32(JSREF, refs.jsRef((JsValue) v));
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            if (!first(m)) return;
            boolean stringKeys = true;
            for (Object k : m.keySet()) {
                if (!(k instanceof String)) {
                    stringKeys = false;
                    break;
                }
            }
            tagU32(stringKeys ? OBJECT : MAP, m.size());
            push(stringKeys ? F_OBJECT : F_MAP, m.entrySet().iterator());
        } else if (v instanceof List) {
            List<?> l = (List<?>) v;
            list(l, l instanceof RandomAccess || l.size() < 64 ? l.toArray() : l.toArray());
        } else if (v instanceof Set) {
            Set<?> s = (Set<?>) v;
            if (!first(s)) return;
            tagU32(SET, s.size());
            push(F_SET, s.iterator());
        } else if (v instanceof Collection) {
            list(v, ((Collection<?>) v).toArray());
        } else if (v instanceof Object[]) {
            list(v, (Object[]) v);
        } else if (v.getClass().isArray()) {
            primitiveArray(v);
        } else if (v instanceof Character) {
            string(String.valueOf((char) (Character) v));
        } else if (v instanceof BigInteger) {
            bigint((BigInteger) v);
        } else if (v instanceof Instant) {
            date(v, ((Instant) v).toEpochMilli());
        } else if (v instanceof java.util.Date) {
            date(v, ((java.util.Date) v).getTime());
        } else if (v instanceof ValueExt) {
            ValueExt e = (ValueExt) v;
            byte[] d = e.data();
            need(9 + d.length);
            u8(EXT);
            u32(e.type());
            u32(d.length);
            System.arraycopy(d, 0, out, pos, d.length);
            pos += d.length;
        } else if (refs != null) {
            tagU32(JAVAREF, refs.javaId(v));
        } else {
            String path = path();
            throw new ValueConversionException("cannot convert a " + v.getClass().getName() + " at " + path
                    + " (no object table to pass it by reference)", path);
        }
    }
}
