package org.strait.internal;

import org.strait.ValueFormatException;
import org.strait.ValueExt;

import static org.strait.internal.ValueTags.*;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one value in the strait value format (docs/value-format.md) into
 * plain Java objects: {@code LinkedHashMap<String,Object>} for objects,
 * {@code ArrayList<Object>} for arrays, {@code Integer}/{@code Long}/
 * {@code Double} by the number rule, {@code BigInteger}, {@code String},
 * {@code Boolean}, {@code null}, {@code Instant} for dates,
 * {@code LinkedHashMap}/{@code LinkedHashSet} for Map/Set, {@code byte[]}
 * and primitive arrays for bytes, and the very Java object for a Java
 * reference. Shared and cyclic structure stays shared and cyclic.
 *
 * <p>Iterative (an explicit stack), so nesting depth costs heap, not the
 * Java stack. Reads from a byte array (a buffer's bytes are copied into one
 * first, which costs less than checked reads of a direct buffer); short
 * Latin-1 strings that repeat within one value are made once. Never reads
 * outside the given range: corrupt or truncated input throws
 * {@link ValueFormatException} naming the offset. Stateless between calls;
 * any thread.
 */
public final class ValueReader {
    /** Resolves references a buffer may carry. */
    public interface Refs {
        /** The Java object of a JAVAREF table id. */
        Object javaObject(int id);

        /** The value of a JSREF handle id. */
        default Object jsValue(int id) {
            throw new IllegalStateException("the value carries a JS handle (id " + id + ") but no handle table");
        }

        /** The value of an EXT; by default a {@link ValueExt}. */
        default Object ext(int type, byte[] data) {
            return new ValueExt(type, data);
        }
    }

    private static final Refs NO_REFS = id -> {
        throw new IllegalStateException("the value refers to a Java object (id " + id + ") but no object table is attached");
    };

    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle F64 = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    /** Latin-1 strings up to this length are looked up in the per-value cache. */
    private static final int SHORT = 24;
    private static final int CACHE = 512;

    private final byte[] a;
    private final int base;
    private final int end;
    private final Refs refs;
    private int p;
    private String[] keys = new String[8];
    private int nkeys;
    private Object[] objs = new Object[8];
    private int nobjs;
    /** Short Latin-1 strings seen in this value, by a hash of their bytes (direct-mapped). */
    private String[] cache;

    private ValueReader(byte[] a, int base, int end, Refs refs) {
        this.a = a;
        this.base = base;
        this.end = end;
        this.refs = refs == null ? NO_REFS : refs;
    }

    /** Reads the value in bytes. */
    public static Object read(byte[] bytes) {
        return new ValueReader(bytes, 0, bytes.length, null).run();
    }

    /** Reads the value in buf from its position to its limit (buf's position and order are not changed). */
    public static Object read(ByteBuffer buf) {
        return read(buf, null);
    }

    /** Same, resolving JAVAREF / JSREF / EXT through refs (may be null). */
    public static Object read(ByteBuffer buf, Refs refs) {
        int from = buf.position(), n = buf.limit() - from;
        if (buf.hasArray()) {
            int off = buf.arrayOffset() + from;
            return new ValueReader(buf.array(), off, off + n, refs).run();
        }
        byte[] copy = new byte[n];
        buf.get(from, copy, 0, n);
        return new ValueReader(copy, 0, n, refs).run();
    }

    /** Reads buf[offset, offset+length) (used by the JNI glue), copying it into scratch when that is large enough. */
    static Object readRange(ByteBuffer buf, int offset, int length, Refs refs, byte[] scratch) {
        byte[] copy = scratch != null && scratch.length >= length ? scratch : new byte[length];
        buf.get(offset, copy, 0, length);
        return new ValueReader(copy, 0, length, refs).run();
    }

    private int i32(int at) {
        return (int) I32.get(a, at);
    }

    private ValueFormatException corrupt(int at, String problem) {
        return new ValueFormatException(at - base, problem);
    }

    private void need(int at, long n, int tag) {
        if (n > end - at) throw corrupt(at - 1, "value with tag 0x" + Integer.toHexString(tag) + " runs past the end");
    }

    // ---- the explicit stack: one frame per open container ----
    private Object[] fObj = new Object[8];
    private byte[] fTag = new byte[8];
    private int[] fLeft = new int[8];
    private Object[] fKey = new Object[8];
    private boolean[] fHaveKey = new boolean[8];
    private int depth;

    private void push(Object o, int tag, int items) {
        if (depth == fObj.length) {
            int n = depth * 2;
            fObj = java.util.Arrays.copyOf(fObj, n);
            fTag = java.util.Arrays.copyOf(fTag, n);
            fLeft = java.util.Arrays.copyOf(fLeft, n);
            fKey = java.util.Arrays.copyOf(fKey, n);
            fHaveKey = java.util.Arrays.copyOf(fHaveKey, n);
        }
        fObj[depth] = o;
        fTag[depth] = (byte) tag;
        fLeft[depth] = items;
        fKey[depth] = null;
        fHaveKey[depth] = false;
        depth++;
    }

    private void addObj(Object o) {
        if (nobjs == objs.length) objs = java.util.Arrays.copyOf(objs, nobjs * 2);
        objs[nobjs++] = o;
    }

    private Object run() {
        if (end - base < HEADER || (a[base] & 0xFF) != MAGIC0 || (a[base + 1] & 0xFF) != MAGIC1
                || (a[base + 2] & 0xFF) != MAGIC2)
            throw corrupt(base, "bad header (not a strait value)");
        int version = a[base + 3] & 0xFF;
        if (version != VERSION) throw corrupt(base, "unsupported version " + version);
        long len = i32(base + 4) & 0xFFFFFFFFL;
        if (len != end - base - HEADER)
            throw corrupt(base, "header says " + len + " value bytes, buffer has " + (end - base - HEADER));
        p = base + HEADER;
        Object root = readValue();
        while (depth > 0) {
            int d = depth - 1;
            if (fLeft[d] == 0) {
                depth--;
                continue;
            }
            fLeft[d]--;
            int tag = fTag[d];
            if (tag == OBJECT) {
                String key = readKey();
                Object v = readValue();
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) fObj[d];
                m.put(key, v);
            } else if (tag == ARRAY) {
                Object v = readValue();
                @SuppressWarnings("unchecked")
                List<Object> l = (List<Object>) fObj[d];
                l.add(v);
            } else if (tag == MAP) {
                Object v = readValue();
                if (!fHaveKey[d]) {
                    fKey[d] = v;
                    fHaveKey[d] = true;
                } else {
                    @SuppressWarnings("unchecked")
                    Map<Object, Object> m = (Map<Object, Object>) fObj[d];
                    m.put(fKey[d], v);
                    fKey[d] = null;
                    fHaveKey[d] = false;
                }
            } else {
                Object v = readValue();
                @SuppressWarnings("unchecked")
                Set<Object> s = (Set<Object>) fObj[d];
                s.add(v);
            }
        }
        if (p != end) throw corrupt(p, (end - p) + " bytes after the value");
        return root;
    }

    private String readKey() {
        if (end - p < 5) throw corrupt(p, "truncated object key");
        int tag = a[p] & 0xFF;
        int n = i32(p + 1);
        if (tag == KEYREF) {
            if (n < 0 || n >= nkeys) throw corrupt(p, "key reference " + (n & 0xFFFFFFFFL) + " beyond the " + nkeys + " keys seen");
            p += 5;
            return keys[n];
        }
        if (tag != STRING8 && tag != STRING16)
            throw corrupt(p, "object key has tag 0x" + String.format("%02x", tag) + ", not a string");
        int at = p;
        p++;
        String s = readString(tag, at, false);
        if (nkeys == keys.length) keys = java.util.Arrays.copyOf(keys, nkeys * 2);
        keys[nkeys++] = s;
        return s;
    }

    /** Reads a STRING8/STRING16 payload at p (after the tag). */
    @SuppressWarnings("deprecation")
    private String readString(int tag, int at, boolean cached) {
        need(p, 4, tag);
        long n = i32(p) & 0xFFFFFFFFL;
        p += 4;
        if (tag == STRING8) {
            if (n > end - p) throw corrupt(at, "value with tag 0x08 runs past the end");
            int len = (int) n, from = p;
            p += len;
            if (len > SHORT || len == 0 || !cached) return new String(a, 0, from, len);
            int h = len;
            for (int i = 0; i < len; i++) h = 31 * h + a[from + i];
            String[] c = cache;
            if (c == null) c = cache = new String[Math.max(16, Math.min(CACHE, Integer.highestOneBit(end - base) >>> 4))];
            h = (h ^ (h >>> 9)) & (c.length - 1);
            String s = c[h];
            if (s != null && s.length() == len) {
                int i = 0;
                while (i < len && s.charAt(i) == (a[from + i] & 0xFF)) i++;
                if (i == len) return s;
            }
            return c[h] = new String(a, 0, from, len);
        }
        if (n * 2 > end - p) throw corrupt(at, "value with tag 0x09 runs past the end");
        int len = (int) n;
        char[] c = new char[len];
        for (int i = 0, q = p; i < len; i++, q += 2) c[i] = (char) ((a[q] & 0xFF) | (a[q + 1] << 8));
        p += len * 2;
        return new String(c);
    }

    private int count(int tag, int at, int per) {
        need(p, 4, tag);
        long n = i32(p) & 0xFFFFFFFFL;
        if (n > (end - p - 4) / per) throw corrupt(at, "count " + n + " is larger than the bytes left");
        p += 4;
        return (int) n;
    }

    private static int capacity(int n) {
        return n < 12 ? 16 : (int) Math.min(1 << 30, n / 0.75f + 1);
    }

    private Object readValue() {
        if (p >= end) throw corrupt(p, "truncated: a value was expected");
        int at = p;
        int tag = a[p++] & 0xFF;
        switch (tag) {
            case UNDEFINED:
            case NULL:
                return null;
            case FALSE:
                return Boolean.FALSE;
            case TRUE:
                return Boolean.TRUE;
            case INT32: {
                need(p, 4, tag);
                int v = i32(p);
                p += 4;
                return v;
            }
            case INT64: {
                need(p, 8, tag);
                long v = (long) I64.get(a, p);
                p += 8;
                return v;
            }
            case DOUBLE: {
                need(p, 8, tag);
                double v = (double) F64.get(a, p);
                p += 8;
                return v;
            }
            case STRING8:
            case STRING16:
                return readString(tag, at, true);
            case OBJECT: {
                int n = count(tag, at, 6);
                Map<String, Object> m = new LinkedHashMap<>(capacity(n));
                addObj(m);
                push(m, OBJECT, n);
                return m;
            }
            case ARRAY: {
                int n = count(tag, at, 1);
                List<Object> l = new ArrayList<>(n);
                addObj(l);
                push(l, ARRAY, n);
                return l;
            }
            case MAP: {
                int n = count(tag, at, 2);
                Map<Object, Object> m = new LinkedHashMap<>(capacity(n));
                addObj(m);
                push(m, MAP, n * 2);
                return m;
            }
            case SET: {
                int n = count(tag, at, 1);
                Set<Object> s = new LinkedHashSet<>(capacity(n));
                addObj(s);
                push(s, SET, n);
                return s;
            }
            case ARRAY_F64:
            case ARRAY_I32: {
                int es = tag == ARRAY_F64 ? 8 : 4;
                int n = count(tag, at, es);
                Object[] items = new Object[n];
                if (tag == ARRAY_F64) {
                    for (int i = 0; i < n; i++) items[i] = number((double) F64.get(a, p + 8 * i));
                } else {
                    for (int i = 0; i < n; i++) items[i] = i32(p + 4 * i);
                }
                p += n * es;
                List<Object> l = new ArrayList<>(java.util.Arrays.asList(items));
                addObj(l);
                return l;
            }
            case DATE: {
                need(p, 8, tag);
                double t = (double) F64.get(a, p);
                if (!Double.isFinite(t)) throw corrupt(at, "Date is not finite");
                p += 8;
                long ms = (long) Math.floor(t);
                Instant i = Instant.ofEpochMilli(ms);
                addObj(i);
                return i;
            }
            case BYTES:
                return readBytes(at);
            case BIGINT: {
                need(p, 5, tag);
                int sign = a[p] & 0xFF;
                long n = i32(p + 1) & 0xFFFFFFFFL;
                if (sign > 1) throw corrupt(at, "BigInt sign byte " + sign);
                if (n > end - p - 5) throw corrupt(at, "value with tag 0x07 runs past the end");
                int len = (int) n;
                byte[] mag = new byte[len];
                for (int i = 0; i < len; i++) mag[len - 1 - i] = a[p + 5 + i];
                p += 5 + len;
                return new BigInteger(len == 0 ? 0 : sign == 1 ? -1 : 1, mag);
            }
            case JAVAREF: {
                need(p, 4, tag);
                int id = i32(p);
                p += 4;
                return refs.javaObject(id);
            }
            case JSREF: {
                need(p, 4, tag);
                int id = i32(p);
                p += 4;
                return refs.jsValue(id);
            }
            case BACKREF: {
                need(p, 4, tag);
                long i = i32(p) & 0xFFFFFFFFL;
                if (i >= nobjs) throw corrupt(at, "back-reference " + i + " to an object not read yet");
                p += 4;
                return objs[(int) i];
            }
            case EXT: {
                need(p, 8, tag);
                int type = i32(p);
                long n = i32(p + 4) & 0xFFFFFFFFL;
                if (n > end - p - 8) throw corrupt(at, "value with tag 0x15 runs past the end");
                byte[] data = java.util.Arrays.copyOfRange(a, p + 8, p + 8 + (int) n);
                p += 8 + (int) n;
                return refs.ext(type, data);
            }
            case KEYREF:
                throw corrupt(at, "key reference outside an object key");
            default:
                throw corrupt(at, "unknown tag 0x" + String.format("%02x", tag));
        }
    }

    private Object readBytes(int at) {
        need(p, 5, BYTES);
        int kind = a[p] & 0xFF;
        long n = i32(p + 1) & 0xFFFFFFFFL;
        if (kind > B_KIND_MAX) throw corrupt(at, "unknown bytes kind " + kind);
        int es = KIND_SIZE[kind];
        if (n % es != 0) throw corrupt(at, "bytes length " + n + " is not a multiple of " + es);
        if (n > end - p - 5) throw corrupt(at, "value with tag 0x12 runs past the end");
        int len = (int) n;
        int from = p + 5;
        p = from + len;
        ByteBuffer s = ByteBuffer.wrap(a, from, len).slice().order(ByteOrder.LITTLE_ENDIAN);
        Object out;
        switch (kind) {
            case B_INT16: {
                short[] a = new short[len / 2];
                s.asShortBuffer().get(a);
                out = a;
                break;
            }
            case B_UINT16: {
                char[] a = new char[len / 2];
                s.asCharBuffer().get(a);
                out = a;
                break;
            }
            case B_INT32:
            case B_UINT32: {
                int[] a = new int[len / 4];
                s.asIntBuffer().get(a);
                out = a;
                break;
            }
            case B_FLOAT32: {
                float[] a = new float[len / 4];
                s.asFloatBuffer().get(a);
                out = a;
                break;
            }
            case B_FLOAT64: {
                double[] a = new double[len / 8];
                s.asDoubleBuffer().get(a);
                out = a;
                break;
            }
            case B_BIGINT64:
            case B_BIGUINT64: {
                long[] a = new long[len / 8];
                s.asLongBuffer().get(a);
                out = a;
                break;
            }
            default: {
                out = java.util.Arrays.copyOfRange(a, from, from + len);
            }
        }
        addObj(out);
        return out;
    }
}
