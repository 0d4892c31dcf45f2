package org.strait.bench;

/**
 * Targets of the JS -> Java bridge rows (bench/js/java.js): methods whose
 * own cost is nothing, so a row measures the crossing.
 */
public final class BridgeTarget {
    private BridgeTarget() {}

    /** A non-final static field (read through the bridge's accessor). */
    public static int counter = 7;

    /** Takes three objects and returns an int: the argument-passing row. */
    public static int three(Object a, Object b, Object c) {
        return a == b ? 0 : 3;
    }
}
