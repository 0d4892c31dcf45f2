package org.strait.internal;

import static org.junit.jupiter.api.Assertions.*;

import org.strait.ValueFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Corrupt and truncated buffers make the Java reader throw a
 * ValueFormatException naming the offset, never another exception and never
 * a read outside the given range; 300,000 random and mutated buffers check
 * it, and whatever the reader accepts the writer writes back readably.
 */
class ValueFuzzTest {
    private static final ValueReader.Refs REFS = new ValueReader.Refs() {
        @Override
        public Object javaObject(int id) {
            return "java#" + id;
        }

        @Override
        public Object jsValue(int id) {
            return "js#" + id;
        }
    };

    static List<byte[]> seeds() throws Exception {
        List<byte[]> seeds = new ArrayList<>();
        try (Stream<Path> s = Files.list(ValueVectorsTest.dir())) {
            for (Path p : (Iterable<Path>) s.filter(x -> x.toString().endsWith(".bin")).sorted()::iterator)
                seeds.add(Files.readAllBytes(p));
        }
        return seeds;
    }

    @Test
    void everyTruncationIsRejectedWithTheOffset() throws Exception {
        for (byte[] seed : seeds()) {
            for (int n = 0; n < seed.length; n++) {
                byte[] cut = java.util.Arrays.copyOf(seed, n);
                assertThrows(ValueFormatException.class, () -> read(cut, REFS));
                if (n >= 8) { /* also with a header that agrees with the cut length */
                    ByteBuffer.wrap(cut).order(ByteOrder.LITTLE_ENDIAN).putInt(4, n - 8);
                    if (n > 8) assertThrows(ValueFormatException.class, () -> read(cut, REFS));
                }
            }
        }
    }

    private static Object read(byte[] b, ValueReader.Refs refs) {
        return ValueReader.read(ByteBuffer.wrap(b), refs);
    }

    @Test
    void clearMessagesForBadInput() {
        ValueFormatException e = assertThrows(ValueFormatException.class,
                () -> ValueReader.read(new byte[] {'X', 'T', 'V', 1, 1, 0, 0, 0, 1}));
        assertTrue(e.getMessage().contains("bad header"), e.getMessage());
        e = assertThrows(ValueFormatException.class,
                () -> ValueReader.read(new byte[] {'S', 'T', 'V', 1, 5, 0, 0, 0, 0x14, 0, 0, 0, 0}));
        assertTrue(e.getMessage().contains("back-reference 0 to an object not read yet"), e.getMessage());
        assertEquals(8, e.offset());
        e = assertThrows(ValueFormatException.class,
                () -> ValueReader.read(new byte[] {'S', 'T', 'V', 1, 5, 0, 0, 0, 0x0A, -1, -1, -1, -1}));
        assertTrue(e.getMessage().contains("count 4294967295 is larger than the bytes left"), e.getMessage());
        e = assertThrows(ValueFormatException.class,
                () -> ValueReader.read(new byte[] {'S', 'T', 'V', 1, 2, 0, 0, 0, 1, 1}));
        assertTrue(e.getMessage().contains("1 bytes after the value"), e.getMessage());
        e = assertThrows(ValueFormatException.class,
                () -> ValueReader.read(new byte[] {'S', 'T', 'V', 1, 1, 0, 0, 0, 0x7F}));
        assertTrue(e.getMessage().contains("unknown tag 0x7f"), e.getMessage());
    }

    @Test
    void aRangeOfALargerBufferIsReadWithoutLookingOutside() {
        byte[] v = ValueWriter.write(List.of("abc", 1));
        byte[] padded = new byte[v.length + 20];
        System.arraycopy(v, 0, padded, 10, v.length);
        ByteBuffer bb = ByteBuffer.wrap(padded);
        bb.position(10).limit(10 + v.length);
        assertEquals(List.of("abc", 1), ValueReader.read(bb));
        bb.limit(10 + v.length - 1);
        assertThrows(ValueFormatException.class, () -> ValueReader.read(bb));
    }

    @Test
    void threeHundredThousandMutatedBuffers() throws Exception {
        List<byte[]> seeds = seeds();
        SplittableRandom rnd = new SplittableRandom(42);
        byte[] interesting = {0, 1, 2, 0x7F, (byte) 0x80, (byte) 0xFF, 0x0A, 0x0D, 0x0E, 0x0F, 0x10, 0x14, 0x12};
        int accepted = 0;
        for (int i = 0; i < 300_000; i++) {
            byte[] b;
            if (rnd.nextInt(8) == 0) {
                b = new byte[8 + rnd.nextInt(64)];
                b[0] = 'S';
                b[1] = 'T';
                b[2] = 'V';
                b[3] = 1;
                for (int k = 8; k < b.length; k++)
                    b[k] = (byte) (rnd.nextInt(3) > 0 ? rnd.nextInt(0x18) : rnd.nextInt(256));
            } else {
                b = seeds.get(rnd.nextInt(seeds.size())).clone();
                int rounds = 1 + rnd.nextInt(4);
                for (int r = 0; r < rounds && b.length > 0; r++) {
                    switch (rnd.nextInt(5)) {
                        case 0: b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8)); break;
                        case 1: b[rnd.nextInt(b.length)] = interesting[rnd.nextInt(interesting.length)]; break;
                        case 2: b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256); break;
                        case 3: if (b.length > 8) b = java.util.Arrays.copyOf(b, 8 + rnd.nextInt(b.length - 8)); break;
                        default:
                            if (b.length >= 12) {
                                int at = 8 + rnd.nextInt(b.length - 11);
                                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at,
                                        rnd.nextInt(3) > 0 ? rnd.nextInt(300) : rnd.nextInt());
                            }
                    }
                }
            }
            if (b.length >= 8 && rnd.nextInt(10) > 0) ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(4, b.length - 8);
            Object v;
            try {
                v = read(b, REFS);
            } catch (ValueFormatException e) {
                assertTrue(e.offset() >= 0 && e.offset() <= b.length, "offset in range");
                continue;
            } catch (RuntimeException | Error e) {
                fail("buffer " + java.util.Arrays.toString(b) + " threw " + e, e);
                return;
            }
            accepted++;
            try {
                ValueReader.read(ValueWriter.write(v, o -> 0));
            } catch (RuntimeException e) {
                fail("re-writing an accepted value failed: " + java.util.Arrays.toString(b), e);
            }
        }
        assertTrue(accepted > 1000, "mutations reach past the checks: " + accepted);
    }
}
