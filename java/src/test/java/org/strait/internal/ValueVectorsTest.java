package org.strait.internal;

import static org.junit.jupiter.api.Assertions.*;

import org.strait.ValueConversionException;
import org.strait.ValueExt;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.*;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared vectors (tests/vectors): the Java reader turns every .bin into
 * the value its .txt names (printed canonically), and where the .txt says
 * "java-writes-same: yes" the Java writer gives back the same bytes.
 */
class ValueVectorsTest {
    static Path dir() {
        Path p = Paths.get(System.getProperty("strait.vectors", "tests/vectors"));
        if (!Files.isDirectory(p)) p = Paths.get("../tests/vectors");
        return p;
    }

    static Map<String, String> describe(Path txt) throws IOException {
        Map<String, String> m = new HashMap<>();
        for (String line : Files.readAllLines(txt)) {
            int i = line.indexOf(": ");
            if (!line.startsWith("#") && i > 0) m.put(line.substring(0, i), line.substring(i + 2));
        }
        return m;
    }

    @TestFactory
    Stream<DynamicTest> everyVectorReadsAndWritesByteForByte() throws IOException {
        List<Path> txts;
        try (Stream<Path> s = Files.list(dir())) {
            txts = s.filter(p -> p.toString().endsWith(".txt")).sorted().collect(Collectors.toList());
        }
        assertTrue(txts.size() >= 60, "vectors found in " + dir().toAbsolutePath());
        return txts.stream().map(txt -> DynamicTest.dynamicTest(txt.getFileName().toString(), () -> {
            Map<String, String> d = describe(txt);
            byte[] bin = Files.readAllBytes(Paths.get(txt.toString().replace(".txt", ".bin")));
            Object v = ValueReader.read(bin);
            assertEquals(d.get("java"), Canon.print(v), "read value of " + txt);
            Object v2 = ValueReader.read(ByteBuffer.allocateDirect(bin.length).put(bin).flip());
            assertEquals(d.get("java"), Canon.print(v2), "read from a direct buffer");
            byte[] again = ValueWriter.write(v);
            if ("yes".equals(d.get("java-writes-same"))) {
                assertArrayEquals(bin, again, "Java writer bytes of " + txt);
            }
            assertEquals(Canon.print(v), Canon.print(ValueReader.read(again)), "Java round trip");
        }));
    }

    @Test
    void javaTypesConvertByTheDocumentedRules() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("int", 7);
        m.put("short", (short) 3);
        m.put("long", 1L << 40);
        m.put("hugeLong", Long.MAX_VALUE);
        m.put("float", 1.5f);
        m.put("char", 'x');
        m.put("big", new BigInteger("-98765432109876543210"));
        m.put("date", new Date(1234));
        m.put("set", new LinkedHashSet<>(List.of("a", "b")));
        m.put("arr", new Object[] {1, "s"});
        m.put("bools", new boolean[] {true, false});
        m.put("coll", new ArrayDeque<>(List.of(1, 2)));
        m.put("nested", Map.of(1, "one"));
        Object back = ValueReader.read(ValueWriter.write(m));
        assertEquals("{\"int\": 7, \"short\": 3, \"long\": 1099511627776L, \"hugeLong\": 9223372036854775807L, "
                + "\"float\": 1.5d, \"char\": \"x\", \"big\": -98765432109876543210n, "
                + "\"date\": Instant(1970-01-01T00:00:01.234Z), \"set\": #{\"a\", \"b\"}, \"arr\": [1, \"s\"], "
                + "\"bools\": [true, false], \"coll\": [1, 2], \"nested\": {1: \"one\"}}", Canon.print(back));
    }

    @Test
    void sharingAndCyclesSurviveJava() {
        List<Object> list = new ArrayList<>();
        Map<String, Object> shared = new LinkedHashMap<>();
        shared.put("me", shared);
        list.add(shared);
        list.add(shared);
        list.add(list);
        @SuppressWarnings("unchecked")
        List<Object> back = (List<Object>) ValueReader.read(ValueWriter.write(list));
        assertSame(back.get(0), back.get(1));
        assertSame(back, back.get(2));
        assertSame(back.get(0), ((Map<?, ?>) back.get(0)).get("me"));
    }

    @Test
    void deepNestingUsesNoJavaStack() {
        Object v = 1;
        for (int i = 0; i < 300_000; i++) v = i % 2 == 0 ? new ArrayList<>(List.of(v, "x")) : Map.of("k", v);
        Object back = ValueReader.read(ValueWriter.write(v));
        int depth = 0;
        while (!(back instanceof Integer)) {
            back = back instanceof List ? ((List<?>) back).get(0) : ((Map<?, ?>) back).get("k");
            depth++;
        }
        assertEquals(300_000, depth);
    }

    @Test
    void objectsWithoutAJsFormNameTheirPath() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", Map.of("b", List.of(0, 0, 0, new Object())));
        ValueConversionException e = assertThrows(ValueConversionException.class, () -> ValueWriter.write(m));
        assertEquals("$.a.b[3]", e.path());
        assertTrue(e.getMessage().contains("java.lang.Object at $.a.b[3]"), e.getMessage());
        Map<Object, Object> odd = new LinkedHashMap<>();
        odd.put(1, new LinkedHashMap<>(Map.of("odd key", Set.of(Thread.currentThread()))));
        e = assertThrows(ValueConversionException.class, () -> ValueWriter.write(odd));
        assertEquals("$<Map value 0>[\"odd key\"]<Set 0>", e.path());
    }

    @Test
    void javaRefsGoThroughTheTable() {
        Object thing = new Object();
        List<Object> table = new ArrayList<>();
        byte[] bin = ValueWriter.write(List.of("a", thing), o -> {
            table.add(o);
            return table.size() - 1;
        });
        Object back = ValueReader.read(ByteBuffer.wrap(bin), table::get);
        assertSame(thing, ((List<?>) back).get(1));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ValueReader.read(bin));
        assertTrue(e.getMessage().contains("no object table"));
    }

    @Test
    void extValuesCrossAsIs() {
        Object back = ValueReader.read(ValueWriter.write(new ValueExt(9, new byte[] {1, 2})));
        assertEquals(new ValueExt(9, new byte[] {1, 2}), back);
    }

    /** Canonical text of a read value; "&N" marks a composite referenced again as "*N". */
    static final class Canon {
        private final IdentityHashMap<Object, Integer> index = new IdentityHashMap<>();
        private final IdentityHashMap<Object, Integer> refs = new IdentityHashMap<>();
        private final Set<Object> printed = Collections.newSetFromMap(new IdentityHashMap<>());

        static String print(Object v) {
            Canon c = new Canon();
            c.count(v);
            StringBuilder sb = new StringBuilder();
            c.print(v, sb);
            return sb.toString();
        }

        private static boolean composite(Object v) {
            return v instanceof Map || v instanceof Collection || v instanceof Instant
                    || (v != null && v.getClass().isArray());
        }

        private void count(Object root) {
            ArrayList<Object> work = new ArrayList<>();
            work.add(root);
            while (!work.isEmpty()) {
                Object v = work.remove(work.size() - 1);
                if (!composite(v)) continue;
                if (index.containsKey(v)) {
                    refs.merge(v, 1, Integer::sum);
                    continue;
                }
                index.put(v, index.size());
                List<Object> kids = new ArrayList<>();
                if (v instanceof Map) {
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                        kids.add(e.getKey());
                        kids.add(e.getValue());
                    }
                } else if (v instanceof Collection) {
                    kids.addAll((Collection<?>) v);
                }
                for (int i = kids.size() - 1; i >= 0; i--) work.add(kids.get(i));
            }
        }

        private void print(Object v, StringBuilder sb) {
            if (composite(v)) {
                if (printed.contains(v)) {
                    sb.append('*').append(index.get(v));
                    return;
                }
                printed.add(v);
                if (refs.containsKey(v)) sb.append('&').append(index.get(v));
            }
            if (v == null) sb.append("null");
            else if (v instanceof String) str((String) v, sb);
            else if (v instanceof Long) sb.append(v).append('L');
            else if (v instanceof Double) sb.append(v).append('d');
            else if (v instanceof BigInteger) sb.append(v).append('n');
            else if (v instanceof Instant) sb.append("Instant(").append(v).append(')');
            else if (v instanceof Map) {
                sb.append('{');
                boolean firstItem = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    if (!firstItem) sb.append(", ");
                    firstItem = false;
                    print(e.getKey(), sb);
                    sb.append(": ");
                    print(e.getValue(), sb);
                }
                sb.append('}');
            } else if (v instanceof Collection) {
                sb.append(v instanceof Set ? "#{" : "[");
                boolean firstItem = true;
                for (Object o : (Collection<?>) v) {
                    if (!firstItem) sb.append(", ");
                    firstItem = false;
                    print(o, sb);
                }
                sb.append(v instanceof Set ? "}" : "]");
            } else if (v instanceof byte[]) sb.append("byte").append(Arrays.toString((byte[]) v));
            else if (v instanceof short[]) sb.append("short").append(Arrays.toString((short[]) v));
            else if (v instanceof char[]) {
                char[] c = (char[]) v;
                int[] x = new int[c.length];
                for (int i = 0; i < c.length; i++) x[i] = c[i];
                sb.append("char").append(Arrays.toString(x));
            } else if (v instanceof int[]) sb.append("int").append(Arrays.toString((int[]) v));
            else if (v instanceof long[]) sb.append("long").append(Arrays.toString((long[]) v));
            else if (v instanceof float[]) sb.append("float").append(Arrays.toString((float[]) v));
            else if (v instanceof double[]) sb.append("double").append(Arrays.toString((double[]) v));
            else sb.append(v);
        }

        private static void str(String s, StringBuilder sb) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') sb.append('\\').append(c);
                else if (c < 0x20 || c >= 0x7F) sb.append(String.format("\\u%04x", (int) c));
                else sb.append(c);
            }
            sb.append('"');
        }
    }
}
