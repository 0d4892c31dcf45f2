package org.strait.bench;

import org.strait.JsRuntime;
import org.strait.JsValue;
import org.strait.internal.ApiAccess;

/**
 * Baselines of the value-codec benchmarks (CodecBench, CodecCpuTime): the
 * naive converters that make one JNI call (or more) per value instead of
 * crossing once with a buffer. Plain data only (Maps with String keys,
 * Lists, Strings, Booleans, Numbers, null; no cycles). Needs the test/bench
 * library (BenchNatives).
 */
public final class ValueBaselines {
    private static final ApiAccess A = ApiAccess.get();

    private ValueBaselines() {}

    /** v as Java data, built with one JNI call per value. */
    public static Object naiveToJava(JsValue v) {
        JsRuntime rt = A.enterUse(v);
        try {
            return BenchNatives.codecNaiveToJava(A.peer(rt), A.handle(v));
        } finally {
            A.leaveUse(v, rt);
        }
    }

    /** value as a JS value of rt, built by walking it with JNI calls. */
    public static Object naiveToJs(JsRuntime rt, Object value) {
        A.enter(rt);
        try {
            return BenchNatives.codecNaiveToJs(A.peer(rt), rt, value);
        } finally {
            A.leave(rt);
        }
    }
}
