package org.strait.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import org.strait.JsFunction;
import org.strait.JsRuntime;
import org.strait.JsValue;

/**
 * The conversions of CodecBench (same payloads, same three paths per
 * direction: naive per-value JNI, JSON text + Jackson, the value buffer),
 * measured as CPU time of the calling thread instead of wall time, with the
 * three paths of a direction interleaved round by round. On a loaded
 * machine wall time mostly measures the other processes; the calling
 * thread's CPU time does not (it leaves out time spent waiting for the CPU,
 * and also the JVM's and JSC's helper threads, which all three paths have).
 * Not run by bench.sh (not a *Bench class): a tool for checking CodecBench's
 * ratios by hand.
 *
 * Usage: java ... org.strait.bench.CodecCpuTime [payload,...] [rounds]
 * (payloads as in CodecBench: json_400b json_5kb json_50kb json_500kb
 * json_5mb numbers_100k string_1mb; default all; rounds default 9). Prints,
 * per payload and direction, the median CPU microseconds per conversion of
 * each path and the ratios of the buffer path to the two baselines.
 */
public final class CodecCpuTime {
    private CodecCpuTime() {}

    private static final ThreadMXBean TM = ManagementFactory.getThreadMXBean();

    interface Op {
        void run() throws Throwable;
    }

    static volatile Object sink;

    public static void main(String[] args) throws Throwable {
        String only = args.length > 0 && !args[0].isEmpty() ? args[0] : "json_400b,json_5kb,json_50kb,json_500kb,json_5mb,numbers_100k,string_1mb";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        CodecBench.Jackson jk = new CodecBench.Jackson();
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            JsFunction gen = (JsFunction) rt.eval(CodecBench.GEN);
            JsFunction stringify = (JsFunction) rt.eval("(function (v) { return JSON.stringify(v); })");
            JsFunction parse = (JsFunction) rt.eval("(function (s) { return JSON.parse(s); })");
            for (String name : only.split(",")) {
                JsValue doc;
                switch (name) {
                    case "numbers_100k":
                        doc = (JsValue) rt.eval("Array.from({length: 100000}, function (_, i) { return i * 1.5 + 0.25; })");
                        break;
                    case "string_1mb":
                        doc = (JsValue) rt.eval("({s: 'abcdefghij'.repeat(104858)})");
                        break;
                    default: {
                        int target = Integer.parseInt(name.replaceAll("\\D", "")) * (name.endsWith("mb") ? 1000000 : name.endsWith("kb") ? 1000 : 1);
                        doc = (JsValue) gen.call(target);
                    }
                }
                Object javaDoc = doc.toJava();
                compare(name, "to_java", rounds,
                        () -> sink = ValueBaselines.naiveToJava(doc),
                        () -> sink = jk.parse((String) stringify.call(doc)),
                        () -> sink = doc.toJava());
                compare(name, "to_js", rounds,
                        () -> ((JsValue) ValueBaselines.naiveToJs(rt, javaDoc)).close(),
                        () -> ((JsValue) parse.call(jk.print(javaDoc))).close(),
                        () -> ((JsValue) rt.toJs(javaDoc)).close());
            }
        }
    }

    /** CPU nanoseconds of the calling thread for n runs of op. */
    static long cpu(Op op, long n) throws Throwable {
        long t0 = TM.getCurrentThreadCpuTime();
        for (long i = 0; i < n; i++) op.run();
        return TM.getCurrentThreadCpuTime() - t0;
    }

    static void compare(String name, String dir, int rounds, Op naive, Op json, Op buffer) throws Throwable {
        Op[] ops = {naive, json, buffer};
        long[] n = new long[3];
        for (int i = 0; i < 3; i++) {
            long k = 1;
            while (cpu(ops[i], k) < 40_000_000L && k < (1L << 30)) k *= 2;
            n[i] = k;
            cpu(ops[i], k);
        }
        double[][] t = new double[3][rounds];
        for (int r = 0; r < rounds; r++)
            for (int i = 0; i < 3; i++) t[i][r] = cpu(ops[i], n[i]) / 1e3 / n[i];
        double[] med = new double[3];
        for (int i = 0; i < 3; i++) {
            Arrays.sort(t[i]);
            med[i] = t[i][rounds / 2];
        }
        System.out.printf(Locale.ROOT, "%s_%s\tnaive %.1f us\tjson %.1f us\tbuffer %.1f us\tbuffer/naive %.3f\tbuffer/json %.3f%n",
                dir, name, med[0], med[1], med[2], med[2] / med[0], med[2] / med[1]);
        System.out.flush();
    }
}
