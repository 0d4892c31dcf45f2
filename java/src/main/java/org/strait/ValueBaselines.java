package org.strait;

/**
 * Baselines of the value-codec benchmarks (bench/java/api/.../CodecBench):
 * the naive converters that make one JNI call (or more) per value instead
 * of crossing once with a buffer. Plain data only (Maps with String keys,
 * Lists, Strings, Booleans, Numbers, null; no cycles). Not part of the API.
 */
public final class ValueBaselines {
    private ValueBaselines() {}

    /** v as Java data, built with one JNI call per value. */
    public static Object naiveToJava(JsValue v) {
        JsRuntime rt = v.enterUse();
        try {
            return Natives.codecNaiveToJava(rt.peer, v.handle);
        } finally {
            v.leaveUse(rt);
        }
    }

    /** value as a JS value of rt, built by walking it with JNI calls. */
    public static Object naiveToJs(JsRuntime rt, Object value) {
        rt.enter();
        try {
            return Natives.codecNaiveToJs(rt.peer, rt, value);
        } finally {
            rt.leave();
        }
    }
}
