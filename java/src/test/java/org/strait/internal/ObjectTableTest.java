package org.strait.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bridge's object table: ids, identity, release, growth. */
class ObjectTableTest {
    private static long id(long packed) {
        return packed & ((1L << ObjectTable.ID_BITS) - 1);
    }

    @Test
    void sameObjectSameId() {
        ObjectTable t = new ObjectTable();
        Object o = new Object();
        long a = t.register(o);
        long b = t.register(o);
        assertEquals(a, b);
        assertSame(o, t.get(id(a)));
        assertEquals(1, t.size());
    }

    @Test
    void equalButDistinctObjectsGetDistinctIds() {
        ObjectTable t = new ObjectTable();
        List<Integer> x = new ArrayList<>(List.of(1));
        List<Integer> y = new ArrayList<>(List.of(1));
        assertEquals(x, y);
        assertNotEquals(id(t.register(x)), id(t.register(y)));
    }

    @Test
    void packsTheClassIndex() {
        ObjectTable t = new ObjectTable();
        long p = t.register(new StringBuilder());
        assertEquals(Bridge.classIndex(StringBuilder.class), (int) (p >>> ObjectTable.ID_BITS));
    }

    @Test
    void primitivesCrossAsCodes() {
        ObjectTable t = new ObjectTable();
        assertEquals(ObjectTable.STRING, t.register("s"));
        assertEquals(ObjectTable.INT_VALUE | 3, t.register(3));
        assertEquals(ObjectTable.INT_VALUE | 0xffffffffL, t.register(-1));
        assertEquals(ObjectTable.INT_VALUE | 3, t.register((short) 3));
        assertEquals(ObjectTable.LONG, t.register(3L));
        assertEquals(ObjectTable.DOUBLE, t.register(3.5));
        assertEquals(ObjectTable.BOOLEAN_VALUE | 1, t.register(true));
        assertEquals(ObjectTable.CHAR_VALUE | 'c', t.register('c'));
        assertTrue(t.register(Integer.MIN_VALUE) < 0);
        assertEquals(0, t.size());
    }

    @Test
    void idsAreNeverReused() {
        ObjectTable t = new ObjectTable();
        Set<Long> seen = new HashSet<>();
        for (int round = 0; round < 50; round++) {
            long[] ids = new long[100];
            for (int i = 0; i < 100; i++) {
                long id = id(t.register(new Object()));
                assertTrue(seen.add(id), "id reused: " + id);
                ids[i] = id;
            }
            t.release(ids, ids.length);
        }
        assertEquals(0, t.size());
    }

    @Test
    void releaseForgetsAndReRegisterGivesNewId() {
        ObjectTable t = new ObjectTable();
        Object o = new Object();
        long a = id(t.register(o));
        t.release(new long[] {a, 12345}, 2);
        assertNull(t.get(a));
        long b = id(t.register(o));
        assertNotEquals(a, b);
        assertSame(o, t.get(b));
    }

    @Test
    void growsAndKeepsEveryObject() {
        ObjectTable t = new ObjectTable();
        List<Object> objs = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            Object o = new Object();
            objs.add(o);
            ids.add(id(t.register(o)));
        }
        assertEquals(100_000, t.size());
        for (int i = 0; i < objs.size(); i += 997) {
            assertSame(objs.get(i), t.get(ids.get(i)));
            assertEquals(ids.get(i), id(t.register(objs.get(i))));
        }
        // release half, then register more: tombstones are reused or rehashed
        long[] half = new long[50_000];
        for (int i = 0; i < half.length; i++) half[i] = ids.get(i * 2);
        t.release(half, half.length);
        assertEquals(50_000, t.size());
        for (int i = 0; i < 100_000; i++) t.register(new Object());
        assertEquals(150_000, t.size());
        assertSame(objs.get(1), t.get(ids.get(1)));
        assertNull(t.get(ids.get(0)));
    }

    @Test
    void adoptedObjectsKeepTheirNativeIds() {
        ObjectTable t = new ObjectTable();
        Object[] objs = new Object[200];
        long[] ids = new long[200];
        Object[] made = new Object[200];
        for (int i = 0; i < 200; i++) {
            made[i] = objs[i] = new Object();
            ids[i] = ObjectTable.NATIVE_IDS + i;
        }
        t.adopt(objs, ids, 200);
        for (Object o : objs) assertNull(o);
        assertEquals(200, t.size());
        for (int i = 0; i < 200; i++) {
            assertEquals(ObjectTable.NATIVE_IDS + i, id(t.register(made[i])));
            assertSame(made[i], t.get(ObjectTable.NATIVE_IDS + i));
        }
        long fresh = id(t.register(new Object()));
        assertTrue(fresh < ObjectTable.NATIVE_IDS);
        t.release(new long[] {ObjectTable.NATIVE_IDS + 3}, 1);
        assertNull(t.get(ObjectTable.NATIVE_IDS + 3));
        assertEquals(200, t.size());
    }
}
