#!/usr/bin/env bash
# Java suites: builds the JUnit 5 tests (java/src/test/java) into
# $BUILD/java-test and runs them with the console launcher under
# -Xcheck:jni, with only strait.jar on the class path (so the library is
# extracted from the jar); the tests tagged testing-lib (they need the test
# natives of org.strait.testing.TestNatives) run again in a second JVM with
# the test/bench library variant ($BUILD/lib-testing/libstrait.so, `make
# testing-lib`) given by -Dstrait.library. Then runs the signal/GC stress test
# (org.strait.SignalStress, test library) once per HotSpot collector, checks
# that the library loads from java.library.path when the classes come without
# it, that strait.jar works on the module path, and that the product library
# and jar hold no test or benchmark natives. Any JVM line
# "WARNING in native method" / "Warning: ..." from -Xcheck:jni, a crash or a
# non-zero exit counts as a failure. Prints one line
# `N passed, N failed[, N skipped]` and exits non-zero if anything failed.
# Environment: BUILD (default build), STRESS_SECONDS (default 8 per
# collector), JAVA_TEST_VERBOSE=1 shows the full console launcher output.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
JAVA_HOME=${JAVA_HOME:-$(scripts/java-home.sh)}
JAVA="$JAVA_HOME/bin/java"
JAVAC="$JAVA_HOME/bin/javac"
JUNIT=${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
JAR="$BUILD/lib/strait.jar"
TESTLIB="$BUILD/lib-testing/libstrait.so"
VERSION=$(cat VERSION)   # the one place the version is written (see Makefile)
OUT="$BUILD/java-test"
STRESS_SECONDS=${STRESS_SECONDS:-8}

passed=0 failed=0 skipped=0
# JNI checker complaints and JVM crash markers.
bad_re='WARNING in native method|^Warning: |FATAL ERROR in native method|A fatal error has been detected'

if [[ ! -f "$JAR" ]]; then
  echo "test-java: $JAR is missing: run make BUILD=$BUILD all" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if [[ ! -f "$TESTLIB" ]]; then
  echo "test-java: $TESTLIB is missing: run make BUILD=$BUILD testing-lib" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
if [[ ! -f "$JUNIT" ]]; then
  echo "test-java: $JUNIT is missing (Debian package junit5)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
if ! "$JAVAC" -g -d "$OUT/classes" --release 17 -cp "$JAR:$JUNIT" \
    $(find java/src/test/java -name '*.java' | sort); then
  echo "test-java: the tests do not compile"
  echo "0 passed, 1 failed"
  exit 1
fi

# ---- JUnit ----------------------------------------------------------------
log="$OUT/junit.log"
num() { grep -E "\[ *[0-9]+ tests $1 *\]" "$log" | grep -oE '[0-9]+' | head -n 1; }
# One console-launcher run: junit_run NAME LOG JVM-OPTIONS... -- LAUNCHER-OPTIONS...
junit_run() {
  local name=$1 jvm=() rc p f s ab
  log=$2
  shift 2
  while [[ $# -gt 0 && $1 != -- ]]; do jvm+=("$1"); shift; done
  shift
  timeout -k 5 600 "$JAVA" -Xcheck:jni "${jvm[@]}" \
    -jar "$JUNIT" -cp "$OUT/classes:$JAR" --scan-classpath "$OUT/classes" "$@" \
    --disable-banner --disable-ansi-colors --details=tree --details-theme=ascii >"$log" 2>&1 </dev/null
  rc=$?
  p=$(num successful) f=$(num failed) s=$(num skipped) ab=$(num aborted)
  p=${p:-0} f=${f:-0} s=${s:-0} ab=${ab:-0}
  f=$((f + ab))
  if [[ -z "$(num found)" ]]; then
    echo "test-java: no JUnit summary (exit code $rc)"; f=$((f + 1))
  elif [[ $rc -ne 0 && $f -eq 0 ]]; then
    echo "test-java: console launcher exit code $rc"; f=$((f + 1))
  fi
  if grep -qE "$bad_re" "$log"; then
    echo "test-java: the JVM complained during the JUnit run:"
    grep -E "$bad_re" "$log" | sort | uniq -c | head -n 20 | sed 's/^/  /'
    f=$((f + 1))
  fi
  if [[ $f -ne 0 || -n "${JAVA_TEST_VERBOSE:-}" ]]; then
    grep -vE '^\s*$' "$log" | grep -E '\[X\]|=>|Exception|Error|expected|tests ' | head -n 80 | sed 's/^/  /'
  fi
  printf '%-40s %s passed, %s failed%s\n' "$name" "$p" "$f" "$([[ $s -ne 0 ]] && echo ", $s skipped")"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
junit_run junit "$OUT/junit.log" -Dstrait.test.expectLoadedFrom=jar "-Dstrait.test.version=$VERSION" -- \
  --exclude-tag testing-lib
junit_run "junit testing-lib (lib-testing)" "$OUT/junit-testing.log" "-Dstrait.library=$TESTLIB" -- \
  --include-tag testing-lib

# One pass/fail line for a single check: check_line NAME OK DETAIL [LOG]
# (OK 1 passes; on failure DETAIL and the log's tail are shown).
check_line() {
  if [[ $2 -eq 1 ]]; then
    printf '%-40s 1 passed, 0 failed\n' "$1"
    passed=$((passed + 1))
  else
    printf '%-40s 0 passed, 1 failed   (%s)\n' "$1" "$3"
    [[ -n "${4:-}" ]] && tail -n 10 "$4" | sed 's/^/  /'
    failed=$((failed + 1))
  fi
}

# ---- JS exceptions and deep recursion again with small Java stacks ---------
for xss in 512k 256k; do
  xlog="$OUT/junit-xss$xss.log"
  timeout -k 5 300 "$JAVA" -Xcheck:jni "-Xss$xss" -jar "$JUNIT" -cp "$OUT/classes:$JAR" \
    --select-class org.strait.JsExceptionTest --disable-banner --disable-ansi-colors \
    --details=summary >"$xlog" 2>&1 </dev/null
  rc=$?
  log=$xlog
  p=$(num successful) f=$(num failed) ab=$(num aborted)
  p=${p:-0} f=${f:-0} ab=${ab:-0}
  f=$((f + ab))
  [[ -z "$(num found)" || ( $rc -ne 0 && $f -eq 0 ) ]] && f=$((f + 1))
  grep -qE "$bad_re" "$xlog" && f=$((f + 1))
  printf '%-40s %s passed, %s failed\n' "junit JsExceptionTest -Xss$xss" "$p" "$f"
  [[ $f -ne 0 ]] && tail -n 40 "$xlog" | sed 's/^/  /'
  passed=$((passed + p)) failed=$((failed + f))
done

# ---- the library from java.library.path (classes without the bundled .so) ---
lp="$OUT/libpath"
rm -rf "$lp" && mkdir -p "$lp/classes" "$lp/main"
cp -r "$BUILD/java/classes/org" "$lp/classes/" && rm -rf "$lp/classes/org/strait/native"
cat >"$lp/main/LibPathMain.java" <<'JAVA'
public class LibPathMain {
    public static void main(String[] a) {
        try (org.strait.JsRuntime rt = org.strait.JsRuntime.create()) {
            System.out.println("libpath " + rt.eval("6 * 7") + " " + org.strait.internal.NativeLoader.loadedFrom());
        }
    }
}
JAVA
lp_ok=0
if "$JAVAC" -d "$lp/main" -cp "$lp/classes" "$lp/main/LibPathMain.java" >"$lp/log" 2>&1; then
  want="libpath 42 $(cd "$BUILD/lib" && pwd)/libstrait.so"
  got=$(timeout -k 5 60 "$JAVA" -Xcheck:jni -cp "$lp/main:$lp/classes" \
        "-Djava.library.path=$BUILD/lib" LibPathMain 2>>"$lp/log" </dev/null)
  [[ "$got" == "$want" ]] && ! grep -qE "$bad_re" "$lp/log" && lp_ok=1
fi
check_line "library from java.library.path" "$lp_ok" "got ${got:-nothing}" "$lp/log"

# ---- strait.jar on the module path (module org.strait) -----------------------
# The library comes from the jar inside the module; JS calls Java (the
# bridge's internal classes found by JNI), a caller-sensitive member (through
# org.strait.jscaller.JsCaller), implements an interface (a Proxy) and
# extends a class (Java.extend: the bundled, relocated ASM inside the module).
mp="$OUT/modpath"
rm -rf "$mp" && mkdir -p "$mp/src/smoke" "$mp/classes"
cat >"$mp/src/module-info.java" <<'JAVA'
module smoke { requires org.strait; }
JAVA
cat >"$mp/src/smoke/Main.java" <<'JAVA'
package smoke;

import org.strait.JsObject;
import org.strait.JsRuntime;

public class Main {
    public static void main(String[] a) {
        try (JsRuntime rt = JsRuntime.newBuilder().allowAllAccess(true).build()) {
            Object max = rt.eval("java.lang.Math.max(6, 42)");
            Object cls = rt.eval("String(java.lang.Class.forName('java.util.ArrayList').getName())");
            Object caller = rt.eval("String(java.lang.invoke.MethodHandles.lookup().lookupClass().getName())");
            Runnable r = ((JsObject) rt.eval("({ run() { globalThis.ran = 1; } })")).as(Runnable.class);
            r.run();
            Object ext = rt.eval("var L = Java.extend(java.util.AbstractList, { get(i) { return i * 2; },"
                    + " size() { return 3; } }); String(new L().toString())");
            System.out.println("module " + JsRuntime.class.getModule().getName() + " " + JsRuntime.version()
                    + " " + max + " " + cls + " " + caller + " " + rt.eval("globalThis.ran") + " " + ext);
        }
    }
}
JAVA
mp_ok=0 got=""
if "$JAVAC" -d "$mp/classes" --module-path "$JAR" $(find "$mp/src" -name '*.java') >"$mp/log" 2>&1; then
  want="module org.strait $VERSION 42 java.util.ArrayList org.strait.jscaller.JsCaller 1 [0, 2, 4]"
  got=$(timeout -k 5 60 "$JAVA" -Xcheck:jni --module-path "$JAR:$mp/classes" -m smoke/smoke.Main \
        2>>"$mp/log" </dev/null)
  [[ "$got" == "$want" ]] && ! grep -qE "$bad_re" "$mp/log" && mp_ok=1
fi
check_line "strait.jar on the module path" "$mp_ok" "got ${got:-nothing}" "$mp/log"

# ---- no test or benchmark natives in the product -----------------------------
# Their names are string literals of the registration tables: the product
# library must hold none, the test/bench variant all; the jar no test class.
test_natives='probeInstall|probeLiveRuntimes|bridgeBenchInstall|codecNaiveToJava|rawCallNoGate|setGateSpin|__bench'
n_prod=$(strings "$BUILD/lib/libstrait.so" | grep -cE "^($test_natives)\$")
n_test=$(strings "$TESTLIB" | grep -cE "^($test_natives)\$")
n_jar=$("$JAVA_HOME/bin/jar" tf "$JAR" | grep -cE 'testing/|/bench/|Baselines|Tuning|InteropFloor')
nt_ok=0
[[ $n_prod -eq 0 && $n_test -eq 7 && $n_jar -eq 0 ]] && nt_ok=1
check_line "no test natives in the product" "$nt_ok" "product $n_prod, lib-testing $n_test of 7, jar $n_jar"

# ---- signal/GC stress, once per collector ------------------------------------
for gc in G1 Parallel Serial; do
  slog="$OUT/stress-$gc.log"
  timeout -k 5 $((STRESS_SECONDS * 4 + 60)) "$JAVA" -Xcheck:jni "-XX:+Use${gc}GC" -Xmx512m \
    "-Dstrait.library=$TESTLIB" -cp "$OUT/classes:$JAR" org.strait.SignalStress "$STRESS_SECONDS" \
    >"$slog" 2>&1 </dev/null
  rc=$?
  ok=1
  grep -q '^stress ok' "$slog" || ok=0
  [[ $rc -eq 0 ]] || ok=0
  grep -qE "$bad_re" "$slog" && ok=0
  if [[ $ok -eq 1 ]]; then
    printf '%-40s 1 passed, 0 failed   (%s)\n' "stress ($gc)" "$(grep '^stress ok' "$slog")"
    passed=$((passed + 1))
  else
    printf '%-40s 0 passed, 1 failed   (exit code %s)\n' "stress ($gc)" "$rc"
    tail -n 30 "$slog" | sed 's/^/  /'
    failed=$((failed + 1))
  fi
done

line="$passed passed, $failed failed"
[[ $skipped -ne 0 ]] && line="$line, $skipped skipped"
echo "$line"
[[ $failed -eq 0 ]]
