package org.strait.internal;

/**
 * The Java objects one runtime's JS code holds wrappers for, by id. One
 * table per runtime (held by the native bridge through a global ref).
 *
 * <p>Open addressing over {@link System#identityHashCode} (object -> slot)
 * and over the id (id -> slot), parallel arrays, no per-entry allocation.
 * Ids are never reused, so native caches keyed by them never see a stale
 * id. The table holds its objects strongly; native code releases ids in
 * batches after their wrappers were collected ({@link #release}).
 *
 * <p>Threads: only the thread inside the runtime's gate calls it (the native
 * side guarantees that), so it takes no locks.
 */
public final class ObjectTable {
    /** Results of {@link #register} for values that cross as JS primitives. */
    static final long STRING = -1, INT = -2, LONG = -3, DOUBLE = -4, BOOLEAN = -5, CHAR = -6;
    static final int ID_BITS = 40;
    /**
     * Values that come back in the result itself (no second upcall): the
     * high word tags them, the low word holds an int, a boolean (0/1) or a
     * char. All are negative, like the codes above.
     */
    static final long INT_VALUE = 0x8000_0001_0000_0000L, BOOLEAN_VALUE = 0x8000_0002_0000_0000L,
            CHAR_VALUE = 0x8000_0003_0000_0000L;
    /**
     * Bridge.registerAll's answer for a JsValue handle: not registered, the
     * native side turns it back into its JS value (or wraps it, when it is
     * another runtime's or closed).
     */
    static final long HANDLE = 0x8000_0004_0000_0000L;

    private static final Object TOMB = new Object();

    private Object[] objs;
    private long[] ids;
    private int[] byId;                 // slot + 1; 0 empty; -1 tombstone
    private int used;                   // live + tombstones in objs
    private int live;
    private int idUsed;                 // live + tombstones in byId
    private long nextId = 1;

    public ObjectTable() {
        clear();
    }

    /** Number of objects held. */
    public int size() {
        return live;
    }

    /**
     * Drops every object (the runtime's teardown, src/jni/attach.c): a
     * closed JsRuntime that is still referenced, which keeps its table once
     * it used it, then holds none of the objects its JS held, nor their
     * classes. Ids are never reused, so nextId stays. Also the empty table
     * of the constructor.
     */
    void clear() {
        objs = new Object[64];
        ids = new long[64];
        byId = new int[64];
        used = live = idUsed = 0;
    }

    /**
     * The id of o, registering it if it has none: (classIndex << 40) | id,
     * or a negative code for String and boxes (Integer, Short, Byte, Boolean
     * and Character carry their value, see INT_VALUE).
     */
    long register(Object o) {
        if (o instanceof String) return STRING;
        if (o instanceof Integer) return INT_VALUE | (((Integer) o) & 0xffffffffL);
        if (o instanceof Short || o instanceof Byte) return INT_VALUE | (((Number) o).intValue() & 0xffffffffL);
        if (o instanceof Long) return LONG;
        if (o instanceof Double || o instanceof Float) return DOUBLE;
        if (o instanceof Boolean) return BOOLEAN_VALUE | (((Boolean) o) ? 1 : 0);
        if (o instanceof Character) return CHAR_VALUE | ((Character) o);
        long cls = (long) Bridge.classIndex(o.getClass()) << ID_BITS;
        int mask = objs.length - 1;
        int i = mix(System.identityHashCode(o)) & mask;
        int tomb = -1;
        for (Object x; (x = objs[i]) != null; i = (i + 1) & mask) {
            if (x == o) return cls | ids[i];
            if (x == TOMB && tomb < 0) tomb = i;
        }
        long id = nextId++;
        insert(o, id, i, tomb);
        return cls | id;
    }

    /**
     * Enters objs[0..n) with the ids native code gave them (ids[k], which
     * the native side allocates above {@link #NATIVE_IDS}, so they never meet
     * the ids of {@link #register}); clears objs. Each object must be new to
     * the table: native code adopts only objects it constructed itself.
     */
    void adopt(Object[] objs, long[] ids, int n) {
        for (int k = 0; k < n; k++) {
            Object o = objs[k];
            objs[k] = null;
            int mask = this.objs.length - 1;
            int i = mix(System.identityHashCode(o)) & mask;
            int tomb = -1;
            for (Object x; (x = this.objs[i]) != null; i = (i + 1) & mask) {
                if (x == TOMB && tomb < 0) tomb = i;
            }
            insert(o, ids[k], i, tomb);
        }
    }

    /** Ids native code allocates itself start here. */
    static final long NATIVE_IDS = 1L << (ID_BITS - 1);

    /** Stores o with id at the empty slot i (or the earlier tombstone). */
    private void insert(Object o, long id, int i, int tomb) {
        if (tomb >= 0) {
            i = tomb;
        } else {
            used++;
        }
        objs[i] = o;
        ids[i] = id;
        live++;
        putId(id, i);
        if (used * 2 > objs.length || idUsed * 2 > objs.length) rehash(live * 4 > objs.length ? objs.length * 2 : objs.length);
    }

    /** The object of id, or null. */
    Object get(long id) {
        int s = findId(id);
        return s < 0 ? null : objs[s];
    }

    /** Drops ids[0..n) (unknown ids are ignored). */
    void release(long[] rel, int n) {
        for (int k = 0; k < n; k++) {
            int mask = byId.length - 1;
            int i = mix64(rel[k]) & mask;
            for (int v; (v = byId[i]) != 0; i = (i + 1) & mask) {
                if (v > 0 && ids[v - 1] == rel[k] && objs[v - 1] != TOMB) {
                    objs[v - 1] = TOMB;
                    ids[v - 1] = 0;
                    byId[i] = -1;
                    live--;
                    break;
                }
            }
        }
    }

    private int findId(long id) {
        int mask = byId.length - 1;
        int i = mix64(id) & mask;
        for (int v; (v = byId[i]) != 0; i = (i + 1) & mask) {
            if (v > 0 && ids[v - 1] == id && objs[v - 1] != TOMB) return v - 1;
        }
        return -1;
    }

    private void putId(long id, int slot) {
        int mask = byId.length - 1;
        int i = mix64(id) & mask;
        while (byId[i] > 0) i = (i + 1) & mask;
        if (byId[i] == 0) idUsed++;
        byId[i] = slot + 1;
    }

    private void rehash(int cap) {
        Object[] oldObjs = objs;
        long[] oldIds = ids;
        objs = new Object[cap];
        ids = new long[cap];
        byId = new int[cap];
        used = 0;
        idUsed = 0;
        int mask = cap - 1;
        for (int k = 0; k < oldObjs.length; k++) {
            Object o = oldObjs[k];
            if (o == null || o == TOMB) continue;
            int i = mix(System.identityHashCode(o)) & mask;
            while (objs[i] != null) i = (i + 1) & mask;
            objs[i] = o;
            ids[i] = oldIds[k];
            used++;
            putId(oldIds[k], i);
        }
    }

    private static int mix(int h) {
        return h * 0x9E3779B9;
    }

    private static int mix64(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32);
    }
}
