package org.strait;

import static org.strait.ValueTags.*;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
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
 * <p>Iterative (explicit stack). Writes into a buffer that grows by
 * reallocation when the value does not fit. One instance per conversion;
 * any thread.
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

    private ByteBuffer out;
    private int pos;
    private final Refs refs;
    private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
    private final HashMap<String, Integer> keys = new HashMap<>();
    private int ncomposites;

    private ValueWriter(ByteBuffer out, Refs refs) {
        this.out = out.order(ByteOrder.LITTLE_ENDIAN);
        this.refs = refs;
    }

    /** Writes value (with header) into a new byte array. */
    public static byte[] write(Object value) {
        return write(value, (Refs) null);
    }

    /** Same, giving ids to Java objects through refs (may be null). */
    public static byte[] write(Object value, Refs refs) {
        ValueWriter w = new ValueWriter(ByteBuffer.allocate(256), refs);
        w.run(value);
        byte[] r = new byte[w.pos];
        w.out.get(0, r, 0, w.pos);
        return r;
    }

    /**
     * Writes value into buf from offset 0 (buf's position and limit are not
     * used; its order is set to little-endian). Returns the buffer that holds the bytes: buf itself, or
     * a larger direct buffer when the value did not fit (buf untouched past
     * its capacity); the length is {@link #lengthOf(ByteBuffer)}.
     */
    static ByteBuffer writeInto(ByteBuffer buf, Object value, Refs refs) {
        ValueWriter w = new ValueWriter(buf, refs);
        w.run(value);
        return w.out;
    }

    /** The byte length of the value (header included) at the start of buf. */
    static int lengthOf(ByteBuffer buf) {
        return buf.order() == ByteOrder.LITTLE_ENDIAN ? buf.getInt(4) + HEADER
                : Integer.reverseBytes(buf.getInt(4)) + HEADER;
    }

    // ---- output ----

    private void need(int n) {
        if (out.capacity() - pos >= n) return;
        long want = (long) pos + n;
        if (want > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("value larger than 2 GiB");
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(want, (long) out.capacity() * 2));
        ByteBuffer nb = out.isDirect() ? ByteBuffer.allocateDirect(cap) : ByteBuffer.allocate(cap);
        nb.order(ByteOrder.LITTLE_ENDIAN);
        nb.put(0, out, 0, pos);
        out = nb;
    }

    private void u8(int v) {
        out.put(pos++, (byte) v);
    }

    private void u32(int v) {
        out.putInt(pos, v);
        pos += 4;
    }

    private void tagU32(int tag, int v) {
        need(5);
        out.put(pos, (byte) tag);
        out.putInt(pos + 1, v);
        pos += 5;
    }

    private void string(String s) {
        int n = s.length();
        need(5 + 2 * n);
        int at = pos;
        int q = pos + 5;
        if (n >= 32) {
            /* bulk: a String whose chars are all below 256 is stored as Latin-1
             * (compact strings), and only such a string equals its Latin-1 copy */
            byte[] latin = s.getBytes(StandardCharsets.ISO_8859_1);
            if (new String(latin, StandardCharsets.ISO_8859_1).equals(s)) {
                out.put(at, (byte) STRING8);
                out.putInt(at + 1, n);
                out.put(q, latin);
                pos = q + n;
                return;
            }
        }
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c > 0xFF) break;
            out.put(q + i, (byte) c);
        }
        if (i == n) {
            out.put(at, (byte) STRING8);
            out.putInt(at + 1, n);
            pos = q + n;
            return;
        }
        out.put(at, (byte) STRING16);
        out.putInt(at + 1, n);
        for (int k = 0; k < n; k++) out.putChar(q + 2 * k, s.charAt(k));
        pos = q + 2 * n;
    }

    private void key(String k) {
        Integer i = keys.get(k);
        if (i != null) {
            tagU32(KEYREF, i);
            return;
        }
        keys.put(k, keys.size());
        string(k);
    }

    // ---- the explicit stack ----

    private static final int F_OBJECT = 0, F_LIST = 1, F_ARRAY = 2, F_MAP = 3, F_SET = 4;

    private Object[] fIt = new Object[16];     /* Iterator, or Object[] for arrays */
    private byte[] fKind = new byte[16];
    private int[] fIndex = new int[16];        /* next item (for paths and arrays) */
    private Object[] fCur = new Object[16];    /* current key / map entry (for paths) */
    private Object[] fPendingValue = new Object[16];
    private boolean[] fHavePending = new boolean[16];
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
        out.putInt(4, pos - HEADER);
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
        Integer seen = ids.putIfAbsent(o, ncomposites);
        if (seen != null) {
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
            out.putLong(pos, (Long) n);
            pos += 8;
        } else {
            u8(DOUBLE);
            out.putDouble(pos, ((Number) n).doubleValue());
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
        if (allInt) {
            for (Object o : items) {
                out.putInt(pos, (int) ((Number) o).doubleValue());
                pos += 4;
            }
        } else {
            for (Object o : items) {
                out.putDouble(pos, ((Number) o).doubleValue());
                pos += 8;
            }
        }
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
        out.put(pos, src, 0, len);
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
        for (int i = 0; i < n; i++) out.put(pos + i, be[be.length - 1 - i]);
        pos += n;
    }

    private void date(Object o, long ms) {
        if (!first(o)) return;
        need(9);
        u8(DATE);
        out.putDouble(pos, (double) ms);
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
            out.put(pos, d);
            pos += d.length;
        } else if (v instanceof JsValue && refs != null) {
            tagU32(JSREF, refs.jsRef((JsValue) v));
        } else if (refs != null) {
            tagU32(JAVAREF, refs.javaId(v));
        } else {
            String path = path();
            throw new ValueConversionException("cannot convert a " + v.getClass().getName() + " at " + path
                    + " (no object table to pass it by reference)", path);
        }
    }
}
