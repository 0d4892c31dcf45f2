package org.strait;

import java.util.Arrays;

/** An EXT value of the value format that no extension hook claimed: its type and payload. */
public final class ValueExt {
    private final int type;
    private final byte[] data;

    public ValueExt(int type, byte[] data) {
        this.type = type;
        this.data = data.clone();
    }

    public int type() {
        return type;
    }

    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ValueExt && ((ValueExt) o).type == type && Arrays.equals(((ValueExt) o).data, data);
    }

    @Override
    public int hashCode() {
        return type * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "ValueExt(" + type + ", " + data.length + " bytes)";
    }
}
