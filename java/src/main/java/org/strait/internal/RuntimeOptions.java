package org.strait.internal;

import org.strait.HostAccess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The options of {@code JsRuntime.Builder}, by name, validated in one place
 * ({@link #parse}). Every typed setter of the builder and its generic
 * {@code option(name, value)} store into the same map, so an option has one
 * name, one parser and one message for a bad value. The names are those of
 * the launcher's flags without the leading "--" where a flag exists
 * (docs/sandbox.md). To add an option: a row in {@link #NAMES}, a case in
 * {@link #parse}, a field here.
 */
public final class RuntimeOptions {
    /** Bits of strait_options.deny (include/strait.h). */
    public static final int DENY_ENV = 1, DENY_FS = 2, DENY_EXIT = 4, DENY_WORKERS = 8;

    /** Every option name, in the order of docs/sandbox.md. */
    public static final List<String> NAMES = List.of(
            "arguments", "allow-all-access", "host-access", "class-filter", "allow-reflection",
            "allow-env", "allow-fs", "fs-root", "allow-exit", "allow-threads", "allow-native",
            "time-limit", "heap-limit", "max-source-size");

    public final String[] arguments;
    public final HostAccess hostAccess;
    public final Predicate<String> classFilter;
    public final Set<String> allowReflection;
    public final boolean allowEnv, allowFs, allowExit, allowThreads, allowNative;
    public final String fsRoot;
    public final long timeLimitUs;
    public final long heapLimit;
    /** strait_options.max_source: 0 the default (8 Mi characters under a time limit), -1 none. */
    public final long maxSource;

    private RuntimeOptions(Map<String, Object> o) {
        boolean all = bool(o, "allow-all-access", false);
        arguments = argv(o.containsKey("arguments") ? strings(o.get("arguments")) : new String[0]);
        hostAccess = o.containsKey("host-access") ? access(o.get("host-access"))
                : all ? HostAccess.ALL : HostAccess.GIVEN;
        classFilter = filter(o.get("class-filter"));
        allowReflection = names(o.get("allow-reflection"));
        allowEnv = bool(o, "allow-env", all);
        allowExit = bool(o, "allow-exit", true);
        allowThreads = bool(o, "allow-threads", all);
        allowNative = bool(o, "allow-native", all);
        fsRoot = o.containsKey("fs-root") ? root(o.get("fs-root")) : null;
        boolean fs = bool(o, "allow-fs", all || fsRoot != null);
        if (fsRoot != null && !fs)
            throw bad("fs-root", o.get("fs-root"), "contradicts allow-fs=false (a root allows files under it)");
        allowFs = fs;
        timeLimitUs = o.containsKey("time-limit") ? duration(o.get("time-limit")) : 0;
        heapLimit = o.containsKey("heap-limit") ? size("heap-limit", o.get("heap-limit"), 1 << 20) : 0;
        Object ms = o.get("max-source-size");
        maxSource = ms == null ? 0 : "none".equals(ms) ? -1 : size("max-source-size", ms, 1);
    }

    /**
     * Validates the options set on a builder. Throws
     * IllegalArgumentException naming the option for an unknown name or a
     * bad value.
     */
    public static RuntimeOptions parse(Map<String, Object> options) {
        for (String k : options.keySet())
            if (!NAMES.contains(k))
                throw new IllegalArgumentException("unknown runtime option '" + k + "' (known: "
                        + String.join(", ", NAMES) + ")");
        return new RuntimeOptions(options);
    }

    /** strait_options.deny of these options. */
    public int denyBits() {
        return (allowEnv ? 0 : DENY_ENV) | (allowFs ? 0 : DENY_FS) | (allowExit ? 0 : DENY_EXIT)
                | (allowThreads ? 0 : DENY_WORKERS);
    }

    /** The host access policy the JNI layer applies. */
    public HostPolicy policy() {
        return new HostPolicy(hostAccess, classFilter, allowReflection, allowThreads, allowNative);
    }

    // ---- parsers: each takes the typed value of a setter or a String -----

    private static IllegalArgumentException bad(String name, Object v, String why) {
        return new IllegalArgumentException("runtime option '" + name + "': " + why
                + (v == null ? "" : " (got " + (v instanceof String ? "\"" + v + "\"" : String.valueOf(v)) + ")"));
    }

    private static boolean bool(Map<String, Object> o, String name, boolean dflt) {
        if (!o.containsKey(name)) return dflt;
        Object v = o.get(name);
        if (v instanceof Boolean) return (Boolean) v;
        if ("true".equals(v)) return true;
        if ("false".equals(v)) return false;
        throw bad(name, v, "expected true or false");
    }

    /** process.argv: "strait", "<embedded>" (where Node has the executable and the script), then args. */
    private static String[] argv(String[] args) {
        String[] v = new String[args.length + 2];
        v[0] = "strait";
        v[1] = "<embedded>";
        System.arraycopy(args, 0, v, 2, args.length);
        return v;
    }

    private static String[] strings(Object v) {
        if (v instanceof String[]) {
            String[] a = ((String[]) v).clone();
            for (int i = 0; i < a.length; i++)
                if (a[i] == null) throw bad("arguments", null, "element " + i + " is null");
            return a;
        }
        if (v instanceof String) {
            String s = ((String) v).trim();
            return s.isEmpty() ? new String[0] : s.split("\\s+");
        }
        throw bad("arguments", v, "expected strings");
    }

    private static HostAccess access(Object v) {
        if (v instanceof HostAccess) return (HostAccess) v;
        if (v instanceof String) {
            for (HostAccess a : HostAccess.values())
                if (a.name().equalsIgnoreCase((String) v)) return a;
        }
        throw bad("host-access", v, "expected none, given, explicit or all");
    }

    @SuppressWarnings("unchecked")
    private static Predicate<String> filter(Object v) {
        if (v == null) return null;
        if (v instanceof Predicate) return (Predicate<String>) v;
        throw bad("class-filter", v, "expected a Predicate<String> (set it with classFilter())");
    }

    private static Set<String> names(Object v) {
        if (v == null) return Collections.emptySet();
        List<String> list;
        if (v instanceof String[]) list = Arrays.asList((String[]) v);
        else if (v instanceof String) list = Arrays.asList(((String) v).split(","));
        else throw bad("allow-reflection", v, "expected class, package or member names");
        Set<String> out = new LinkedHashSet<>();
        for (String n : list) {
            if (n == null) throw bad("allow-reflection", null, "a name is null");
            String t = n.trim();
            if (t.isEmpty()) continue;
            if (!t.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*(\\.\\*|#[\\p{L}_$][\\p{L}\\p{N}_$]*)?"))
                throw bad("allow-reflection", t, "expected a class name, a package prefix ending in .*,"
                        + " or Class#member");
            out.add(t);
        }
        return Collections.unmodifiableSet(out);
    }

    private static String root(Object v) {
        Path p;
        if (v instanceof Path) p = (Path) v;
        else if (v instanceof String && !((String) v).isEmpty()) p = Path.of((String) v);
        else throw bad("fs-root", v, "expected a directory");
        if (!Files.isDirectory(p)) throw bad("fs-root", v, "not an existing directory");
        try {
            return p.toRealPath().toString();
        } catch (java.io.IOException e) {
            throw bad("fs-root", v, "cannot be resolved: " + e.getMessage());
        }
    }

    /** A duration in microseconds: a java.time.Duration, or "500ms", "2s", "1.5s", "1m", "250" (ms). */
    static long duration(Object v) {
        double us;
        if (v instanceof java.time.Duration) {
            java.time.Duration d = (java.time.Duration) v;
            if (d.isNegative() || d.isZero()) throw bad("time-limit", v, "must be positive");
            try {
                long n = d.toNanos();
                us = Math.ceil(n / 1000.0);
            } catch (ArithmeticException e) {
                throw bad("time-limit", v, "too long");
            }
        } else if (v instanceof String) {
            String s = ((String) v).trim().toLowerCase(Locale.ROOT);
            double unit = 1000;   // ms
            if (s.endsWith("ms")) s = s.substring(0, s.length() - 2);
            else if (s.endsWith("us")) { unit = 1; s = s.substring(0, s.length() - 2); }
            else if (s.endsWith("s")) { unit = 1_000_000; s = s.substring(0, s.length() - 1); }
            else if (s.endsWith("m")) { unit = 60_000_000; s = s.substring(0, s.length() - 1); }
            double n;
            try {
                n = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw bad("time-limit", v, "expected a duration such as 500ms, 2s or 1m");
            }
            if (!(n > 0) || Double.isInfinite(n)) throw bad("time-limit", v, "must be positive");
            us = Math.ceil(n * unit);
        } else {
            throw bad("time-limit", v, "expected a Duration or a string such as 500ms");
        }
        if (us > 365.0 * 24 * 3600 * 1e6) throw bad("time-limit", v, "longer than a year");
        return (long) us;
    }

    /** A size in bytes (characters): a Long/Integer, or "64m", "1g", "512k", "1048576"; at least min. */
    static long size(String name, Object v, long min) {
        double n;
        if (v instanceof Long || v instanceof Integer) {
            n = ((Number) v).doubleValue();
        } else if (v instanceof String) {
            String s = ((String) v).trim().toLowerCase(Locale.ROOT);
            double unit = 1;
            if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
            if (s.endsWith("k")) { unit = 1L << 10; s = s.substring(0, s.length() - 1); }
            else if (s.endsWith("m")) { unit = 1L << 20; s = s.substring(0, s.length() - 1); }
            else if (s.endsWith("g")) { unit = 1L << 30; s = s.substring(0, s.length() - 1); }
            try {
                n = Double.parseDouble(s) * unit;
            } catch (NumberFormatException e) {
                throw bad(name, v, "expected a size such as 64m, 1g or a number");
            }
        } else {
            throw bad(name, v, "expected a number or a string such as 64m");
        }
        if (!(n > 0)) throw bad(name, v, "must be positive");
        if (n < min) throw bad(name, v, "below the minimum of " + (min == 1 << 20 ? "1 MiB" : String.valueOf(min)));
        if (n > (double) (1L << 50)) throw bad(name, v, "too large");
        return (long) n;
    }

    /** A copy of a builder's map, insertion order kept (messages name the first bad option). */
    public static Map<String, Object> copy(Map<String, Object> m) {
        return new LinkedHashMap<>(m);
    }
}
