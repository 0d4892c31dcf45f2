package org.strait.bench;

import org.strait.JsRuntime;

/**
 * Rows for the Java embedding API (org.strait.JsRuntime), each compared with
 * the floor rows measured by bench-floors in the same run.
 */
public final class ApiBench {
    private ApiBench() {}

    public static void main(String[] args) throws Exception {
        try (JsRuntime js = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Bench.run("api", "eval_1", "floor.jsc_eval_1,floor.jsc_eval_1+floor.jni_downcall",
                    "JsRuntime.eval(\"1\") from Java, result converted to Integer/Double",
                    n -> {
                        for (long i = 0; i < n; i++) js.eval("1");
                    });
        }
        Bench.run("api", "create_close", "floor.jsc_context_create",
                "JsRuntime.newBuilder().allowAllAccess(true).build() + close()",
                n -> {
                    for (long i = 0; i < n; i++) JsRuntime.newBuilder().allowAllAccess(true).build().close();
                });
    }
}
