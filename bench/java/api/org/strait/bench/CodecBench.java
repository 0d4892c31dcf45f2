package org.strait.bench;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import org.strait.JsFunction;
import org.strait.JsRuntime;
import org.strait.JsValue;

/**
 * Rows for whole-value conversion (issue 5, docs/value-format.md), each
 * against two baselines measured in the same run:
 *   naive - one JNI call (or more) per value, no buffer (ValueBaselines);
 *   json  - JSON text: JSON.stringify in JS + Jackson in Java, or Jackson +
 *           JSON.parse the other way.
 * Payloads: "portfolio" JSON documents of about 400 B, 5 KB, 50 KB, 500 KB
 * and 5 MB (deterministic), an array of 100,000 numbers, a 1 MB string; and
 * sharing a 64 MB buffer both ways against a 1 KB one (constant time).
 */
public final class CodecBench {
    private CodecBench() {}

    /** Jackson from Debian's jars, loaded at run time (not on the harness's class path). */
    static final class Jackson {
        final Object mapper;
        final MethodHandle read, write;

        Jackson() throws Exception {
            String dir = "/usr/share/java/";
            URL[] urls = {new File(dir + "jackson-databind.jar").toURI().toURL(),
                    new File(dir + "jackson-core.jar").toURI().toURL(),
                    new File(dir + "jackson-annotations.jar").toURI().toURL()};
            ClassLoader cl = new URLClassLoader(urls, CodecBench.class.getClassLoader());
            Class<?> om = Class.forName("com.fasterxml.jackson.databind.ObjectMapper", true, cl);
            mapper = om.getConstructor().newInstance();
            MethodHandles.Lookup l = MethodHandles.publicLookup();
            read = l.findVirtual(om, "readValue", MethodType.methodType(Object.class, String.class, Class.class))
                    .bindTo(mapper);
            write = l.findVirtual(om, "writeValueAsString", MethodType.methodType(String.class, Object.class))
                    .bindTo(mapper);
        }

        Object parse(String s) throws Throwable {
            return read.invoke(s, Object.class);
        }

        String print(Object o) throws Throwable {
            return (String) write.invoke(o);
        }
    }

    public static final String GEN = String.join("\n",
            "(function (target) {",
            "  var seed = 42;",
            "  function rnd() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }",
            "  var words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india'];",
            "  function word() { return words[Math.floor(rnd() * words.length)]; }",
            "  var doc = {id: 7, owner: {name: 'Ada Lovelace', email: 'ada@example.com', verified: true},",
            "             currency: 'EUR', note: null, holdings: []};",
            "  var size = JSON.stringify(doc).length;",
            "  while (size < target) {",
            "    var h = {symbol: word().toUpperCase().slice(0, 4), name: word() + ' ' + word() + ' Inc.',",
            "             shares: Math.floor(rnd() * 10000), price: Math.round(rnd() * 100000) / 100,",
            "             active: rnd() > 0.3, note: null, tags: [word(), word()],",
            "             lots: [{date: '2021-0' + (1 + Math.floor(rnd() * 9)) + '-1' + Math.floor(rnd() * 10),",
            "                     qty: Math.floor(rnd() * 500), cost: Math.round(rnd() * 100000) / 100}]};",
            "    doc.holdings.push(h);",
            "    size += JSON.stringify(h).length + 1;",
            "    if (doc.holdings.length === 1 && target < 600) break;",
            "  }",
            "  return doc;",
            "})");

    public static void main(String[] args) throws Throwable {
        Jackson jackson;
        try {
            jackson = new Jackson();
        } catch (Throwable e) {
            jackson = null;
        }
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            JsFunction gen = (JsFunction) rt.eval(GEN);
            JsFunction stringify = (JsFunction) rt.eval("(function (v) { return JSON.stringify(v); })");
            JsFunction parse = (JsFunction) rt.eval("(function (s) { return JSON.parse(s); })");
            String[][] docs = {{"json_400b", "400"}, {"json_5kb", "5000"}, {"json_50kb", "50000"},
                    {"json_500kb", "500000"}, {"json_5mb", "5000000"}};
            for (String[] d : docs) {
                JsValue doc = (JsValue) gen.call(Integer.parseInt(d[1]));
                int bytes = ((String) stringify.call(doc)).length();
                payload(rt, jackson, stringify, parse, d[0], doc, "a JSON document of " + bytes + " bytes");
            }
            JsValue nums = (JsValue) rt.eval("Array.from({length: 100000}, function (_, i) { return i * 1.5 + 0.25; })");
            payload(rt, jackson, stringify, parse, "numbers_100k", nums, "an array of 100000 numbers");
            JsValue str = (JsValue) rt.eval("({s: 'abcdefghij'.repeat(104858)})");
            payload(rt, jackson, stringify, parse, "string_1mb", str, "an object holding a 1 MB string");
            if (wanted("sharing")) sharing(rt);
        }
    }

    /** BENCH_CODEC_ONLY: comma-separated payload names to run (default all), for profiling one row. */
    static boolean wanted(String name) {
        String only = System.getenv("BENCH_CODEC_ONLY");
        if (only == null || only.isEmpty()) return true;
        for (String s : only.split(",")) if (s.equals(name)) return true;
        return false;
    }

    static void payload(JsRuntime rt, Jackson jackson, JsFunction stringify, JsFunction parse, String name,
            JsValue doc, String what) throws Throwable {
        if (!wanted(name)) return;
        String g = "codec";
        String tj = "to_java_" + name, ts = "to_js_" + name;
        Bench.run(g, tj + "_naive", null, what + ": JS -> Java, one JNI call per value (baseline)",
                n -> {
                    for (long i = 0; i < n; i++) sink = ValueBaselines.naiveToJava(doc);
                });
        if (jackson != null) {
            Jackson jk = jackson;
            Bench.run(g, tj + "_json", null, what + ": JS -> Java, JSON.stringify in JS + Jackson parse (baseline)",
                    n -> {
                        try {
                            for (long i = 0; i < n; i++) sink = jk.parse((String) stringify.call(doc));
                        } catch (Throwable e) {
                            throw new RuntimeException(e);
                        }
                    });
        } else {
            Bench.skip(g, tj + "_json", "Jackson not found in /usr/share/java");
        }
        Bench.run(g, tj, g + "." + tj + "_naive," + g + "." + tj + "_json",
                what + ": JS -> Java, JsValue.toJava() through the value buffer",
                n -> {
                    for (long i = 0; i < n; i++) sink = doc.toJava();
                });
        Object javaDoc = doc.toJava();
        Bench.run(g, ts + "_naive", null, what + ": Java -> JS, walking Maps/Lists with JNI calls (baseline)",
                n -> {
                    for (long i = 0; i < n; i++) ((JsValue) ValueBaselines.naiveToJs(rt, javaDoc)).close();
                });
        if (jackson != null) {
            Jackson jk = jackson;
            Bench.run(g, ts + "_json", null, what + ": Java -> JS, Jackson write + JSON.parse in JS (baseline)",
                    n -> {
                        try {
                            for (long i = 0; i < n; i++) ((JsValue) parse.call(jk.print(javaDoc))).close();
                        } catch (Throwable e) {
                            throw new RuntimeException(e);
                        }
                    });
        } else {
            Bench.skip(g, ts + "_json", "Jackson not found in /usr/share/java");
        }
        Bench.run(g, ts, g + "." + ts + "_naive," + g + "." + ts + "_json",
                what + ": Java -> JS, JsRuntime.toJs() through the value buffer",
                n -> {
                    for (long i = 0; i < n; i++) ((JsValue) rt.toJs(javaDoc)).close();
                });
    }

    static void sharing(JsRuntime rt) {
        ByteBuffer small = ByteBuffer.allocateDirect(1024), big = ByteBuffer.allocateDirect(64 << 20);
        Bench.run("codec", "share_bytebuffer_1kb", null, "JsRuntime.toJs(direct ByteBuffer of 1 KB): an ArrayBuffer over it",
                n -> {
                    for (long i = 0; i < n; i++) ((JsValue) rt.toJs(small)).close();
                });
        Bench.run("codec", "share_bytebuffer_64mb", "codec.share_bytebuffer_1kb",
                "JsRuntime.toJs(direct ByteBuffer of 64 MB): an ArrayBuffer over it, no copy",
                n -> {
                    for (long i = 0; i < n; i++) ((JsValue) rt.toJs(big)).close();
                });
        JsValue abSmall = (JsValue) rt.eval("new ArrayBuffer(1024)");
        JsValue abBig = (JsValue) rt.eval("new ArrayBuffer(64 * 1024 * 1024)");
        Bench.run("codec", "arraybuffer_as_bytebuffer_1kb", null, "JsValue.asByteBuffer() of a 1 KB ArrayBuffer",
                n -> {
                    for (long i = 0; i < n; i++) sink = abSmall.asByteBuffer();
                });
        Bench.run("codec", "arraybuffer_as_bytebuffer_64mb", "codec.arraybuffer_as_bytebuffer_1kb",
                "JsValue.asByteBuffer() of a 64 MB ArrayBuffer, no copy",
                n -> {
                    for (long i = 0; i < n; i++) sink = abBig.asByteBuffer();
                });
    }

    static volatile Object sink;
}
