#!/bin/sh
# bench.sh - the benchmark harness (`make bench`). Builds what it needs under
# $BUILD (default build), runs the benchmark programs, collects their rows
# (format in bench/README.md), prints a table and writes it to
# bench/RESULTS.md and to README.md between <!-- bench:start --> and
# <!-- bench:end -->. Every row's ratio is taken against a baseline measured
# in the same run. Parts that cannot run yet (no launcher, no jar, a Java
# bench class that does not compile) become "not measured" lines.
#
# Environment:
#   BUILD           build directory (default build)
#   BENCH_ONLY      parts to run, from "floor api js startup workers" (default
#                   all);
#                   a partial run writes only $BUILD/bench/RESULTS.md
#   BENCH_FILTER    substring: only floor rows whose name contains it
#   BENCH_ROUND_MS, BENCH_WARMUP, BENCH_ROUNDS    C and Java rounds (40, 2, 7)
#   BENCH_JS_ROUND_MS, BENCH_JS_ROUNDS            JS rounds (40, 5)
#   BENCH_JS_WARMUP_MS                            JS warm-up at least (500)
#   BENCH_JS_PASSES number of passes over the JS engines (default 3)
#   BENCH_JS_GROUPS JS groups to run (bench/js/GROUP.js), default all
#   BENCH_SPAWN_RUNS, BENCH_SPAWN_WARMUP          start-up runs per pass (5, 2)
#   BENCH_STARTUP_PASSES                          start-up passes (3)
#   BENCH_WORKERS_PASSES  passes over strait, node and bench-clone for the
#                   worker and clone rows (default 1)
#   BENCH_WORKERS_PAYLOADS  payload names of bench/js/workers/payloads.js
#                   for those rows (default all)
#   BENCH_WORKERS_WARMUP_MS  warm-up of each worker message row (200)
#   BENCH_SCALE_RUNS runs of each scaling measurement (default 7)
#   BENCH_SCALE_N   worker counts of the scaling rows (default "1 $(nproc)")
#   NODE            node for the worker rows' Node baseline (default node)
#   BENCH_TIMEOUT   seconds one benchmark program may run (default 150)
#   BENCH_API_TIMEOUT  the same for the Java API programs (default 360: the
#                   codec rows move payloads up to 5 MB through three paths)
#   BENCH_NO_MAKE=1 do not run `make all` first
#   RHINO_JAR       default /usr/share/java/rhino.jar
set -u
cd "$(dirname "$0")/.." || exit 2

BUILD=${BUILD:-build}
JAVA_HOME=$(scripts/java-home.sh)
export JAVA_HOME
JAVA=$JAVA_HOME/bin/java
JAVAC=$JAVA_HOME/bin/javac
CC=${CC:-cc}
RHINO_JAR=${RHINO_JAR:-/usr/share/java/rhino.jar}
ONLY=${BENCH_ONLY:-floor api js startup workers}
NODE=${NODE:-node}
OUT=$BUILD/bench
BIN=$BUILD/bin/strait
JARFILE=$BUILD/lib/strait.jar
# The Java API rows run with the test/bench library variant: the product's
# code plus the baselines' natives (bench/jni, on org.strait.bench.BenchNatives).
TESTLIB=$BUILD/lib-testing/libstrait.so
ROWS=$OUT/rows.tsv
T0=$(date +%s)

log() { echo "bench: [$(($(date +%s) - T0)) s] $*" >&2; }
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }
skip() { printf 'skip\t%s\t%s\t%s\n' "$1" "$2" "$3" | tee -a "$ROWS"; }

# Runs a benchmark program; keeps its row/skip lines (and shows them). On
# failure adds a skip line for GROUP/NAME with the last line of stderr.
#   collect GROUP NAME COMMAND...
collect() {
  g=$1 n=$2
  shift 2
  timeout -k 5 "${BENCH_TIMEOUT:-150}" "$@" >"$OUT/part.out" 2>"$OUT/part.err"
  st=$?
  [ $st -eq 124 ] && echo "timed out after ${BENCH_TIMEOUT:-150} s" >>"$OUT/part.err"
  grep -E '^(row|skip)	' "$OUT/part.out" | tee -a "$ROWS"
  if [ $st -ne 0 ]; then
    why=$(grep -v '^[[:space:]]*$' "$OUT/part.err" | tail -n 1 | tr '\t' ' ' | cut -c1-160)
    skip "$g" "$n" "exit status $st${why:+: $why}"
  fi
}

mkdir -p "$OUT/classes" "$OUT/api-classes" "$OUT/js"
: >"$ROWS"

# ---- build ---------------------------------------------------------------
if [ -z "${BENCH_NO_MAKE:-}" ]; then
  # the core archive: bench-clone (worker rows) links the clone engine
  extra=""
  want workers && extra="$BUILD/libstraitcore.a"
  # shellcheck disable=SC2086
  if ! make -k --no-print-directory BUILD="$BUILD" all testing-lib $extra >"$OUT/make.log" 2>&1; then
    log "make all failed (see $OUT/make.log); rows that need the missing parts are skipped"
  fi
fi
JSC_CFLAGS=$(pkg-config --cflags javascriptcoregtk-4.1)
JSC_LIBS=$(pkg-config --libs javascriptcoregtk-4.1)
BCFLAGS="-std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -pthread"
JNI_FLAGS="-I$JAVA_HOME/include -I$JAVA_HOME/include/linux"
JVM_LIBS="-L$JAVA_HOME/lib/server -ljvm -Wl,-rpath,$JAVA_HOME/lib/server"
set -e
# shellcheck disable=SC2086
$CC $BCFLAGS $JSC_CFLAGS $JNI_FLAGS -Isrc/common -o "$OUT/bench-floors" bench/c/floors.c bench/c/measure.c \
  bench/c/jsc_util.c $JSC_LIBS $JVM_LIBS
# shellcheck disable=SC2086
$CC $BCFLAGS $JSC_CFLAGS -o "$OUT/bench-jsc" bench/c/jsrun.c bench/c/jsc_util.c $JSC_LIBS
$CC $BCFLAGS -o "$OUT/bench-spawn" bench/c/spawn.c bench/c/measure.c
"$JAVAC" -d "$OUT/classes" --release 17 $(find bench/java/core -name '*.java')
set +e

# strait works when `strait -e 1` does; with -cp when it accepts -cp.
STRAIT=""
if [ -x "$BIN" ] && timeout -k 2 20 "$BIN" -e 1 >/dev/null 2>&1; then
  STRAIT="$BIN"
  if timeout -k 2 20 "$BIN" -cp "$OUT/classes" -e 1 >/dev/null 2>&1; then
    STRAIT="$BIN -cp $OUT/classes"
  fi
fi

# ---- floors: one process with a JVM and a JSC context ----------------------
# Run once before and once after the Java API rows (which compare with them
# from another process); the report takes the median of the two.
floors() {
  if want floor; then
    log "floors (bench-floors, pass $1)"
    collect floor bench-floors "$OUT/bench-floors" --classpath "$OUT/classes"
  fi
}
floors 1

# ---- Java API: every bench/java/api/**/*Bench.java main class --------------
if want api; then
  for src in $(find bench/java/api -name '*Bench.java' | sort); do
    cls=$(echo "$src" | sed 's|^bench/java/api/||; s|\.java$||; s|/|.|g')
    short=${cls##*.}
    if [ ! -f "$JARFILE" ] || [ ! -f "$TESTLIB" ]; then
      skip api "$short" "no $JARFILE or $TESTLIB (make all testing-lib failed)"
      continue
    fi
    if ! "$JAVAC" -d "$OUT/api-classes" --release 17 -cp "$JARFILE:$OUT/classes" \
        -sourcepath bench/java/api "$src" >"$OUT/javac.err" 2>&1; then
      skip api "$short" "does not compile: $(grep -m1 'error:' "$OUT/javac.err" | sed 's|.*error: ||' | cut -c1-120)"
      continue
    fi
    log "java api ($short)"
    BENCH_TIMEOUT=${BENCH_API_TIMEOUT:-360} collect api "$short" "$JAVA" "-Dstrait.library=$TESTLIB" \
      -cp "$JARFILE:$OUT/classes:$OUT/api-classes" "$cls"
  done
fi

floors 2

# ---- JS workloads: every bench/js/*.js (but prelude.js) in each engine -----
if want js; then
  # Engines run in separate processes, so each workload runs in
  # BENCH_JS_PASSES rounds of (strait, jsc, rhino) and the report takes the
  # median per row: a burst of machine noise then hits every engine alike.
  pass=0
  while [ $pass -lt "${BENCH_JS_PASSES:-3}" ]; do
    pass=$((pass + 1))
    for src in $(ls bench/js/*.js | sort); do
      g=$(basename "$src" .js)
      [ "$g" = prelude ] && continue
      if [ -n "${BENCH_JS_GROUPS:-}" ]; then
        case " $BENCH_JS_GROUPS " in *" $g "*) ;; *) continue ;; esac
      fi
      engines="strait jsc rhino"
      # compute.* also with a time limit and a heap limit set, far from
      # what the workloads use: the cost of limits to code within them
      [ "$g" = compute ] && engines="strait strait_limited jsc rhino"
      # realistic.* loops with for...of, which Rhino parses in ES2015 mode
      rhino_version=""
      [ "$g" = realistic ] && rhino_version="-version 200"
      for engine in $engines; do
        f="$OUT/js/$g.$engine.js"
        {
          printf 'var BENCH_ENGINE = "%s", BENCH_GROUP = "%s", BENCH_ROUND_MS = %s, BENCH_WARMUP_MS = %s, BENCH_ROUNDS = %s;\n' \
            "$engine" "$g" "${BENCH_JS_ROUND_MS:-40}" "${BENCH_JS_WARMUP_MS:-500}" "${BENCH_JS_ROUNDS:-5}"
          cat bench/js/prelude.js "$src"
        } >"$f"
        log "js $g ($engine, pass $pass)"
        case $engine in
          strait)
            if [ -z "$STRAIT" ]; then skip "$g" "*.strait" "no working $BIN (strait -e 1 failed or hung)"; continue; fi
            # shellcheck disable=SC2086
            collect "$g" "*.strait" $STRAIT "$f" ;;
          strait_limited)
            if [ -z "$STRAIT" ]; then skip "$g" "*.strait_limited" "no working $BIN"; continue; fi
            # shellcheck disable=SC2086
            collect "$g" "*.strait_limited" $STRAIT --timeout=3600s --heap-limit=4g "$f" ;;
          jsc) collect "$g" "*.jsc" "$OUT/bench-jsc" "$f" ;;
          rhino)
            if [ ! -f "$RHINO_JAR" ]; then skip "$g" "*.rhino" "no $RHINO_JAR"; continue; fi
            collect "$g" "*.rhino" "$JAVA" -cp "$RHINO_JAR:$OUT/classes" \
              org.mozilla.javascript.tools.shell.Main -opt 9 $rhino_version "$f" ;;
        esac
      done
    done
  done
fi

# ---- start-up: wall time of whole processes -------------------------------
# In BENCH_STARTUP_PASSES (3) passes of BENCH_SPAWN_RUNS (5) runs per command,
# commands in turn; the report takes the median of the passes.
if want startup; then
  SP="$OUT/bench-spawn"
  export BENCH_SPAWN_RUNS=${BENCH_SPAWN_RUNS:-5}
  pass=0
  while [ $pass -lt "${BENCH_STARTUP_PASSES:-3}" ]; do
    pass=$((pass + 1))
    log "start-up (bench-spawn, pass $pass)"
    if [ -n "$STRAIT" ]; then
      collect startup strait_e1 "$SP" startup strait_e1 \
        "startup.jsc_context,startup.jvm_jsc,startup.rhino_e1" \
        "strait -e '1' (launcher, runtime, exit; the JVM starts on first use of Java)" -- "$BIN" -e 1
      collect startup strait_java "$SP" startup strait_java "startup.jvm_jsc,startup.rhino_e1" \
        "strait -e 'java.lang.System.nanoTime()' (with the JVM)" -- \
        "$BIN" -e 'java.lang.System.nanoTime()'
    else
      skip startup strait_e1 "no working $BIN (strait -e 1 failed or hung)"
    fi
    collect startup jvm_jsc "$SP" startup jvm_jsc "startup.jvm+startup.jsc_context" \
      "C program: create JVM + JSC context, eval 1, destroy JVM" -- \
      "$OUT/bench-floors" --classpath "$OUT/classes" --start both
    collect startup jvm "$SP" startup jvm - \
      "C program: JNI_CreateJavaVM + DestroyJavaVM" -- \
      "$OUT/bench-floors" --classpath "$OUT/classes" --start jvm
    collect startup jsc_context "$SP" startup jsc_context - \
      "C program: JSC context, eval 1 (bench-jsc -e 1)" -- "$OUT/bench-jsc" -e 1
    if [ -f "$RHINO_JAR" ]; then
      collect startup rhino_e1 "$SP" startup rhino_e1 - \
        "java Rhino shell -e 1" -- "$JAVA" -cp "$RHINO_JAR" org.mozilla.javascript.tools.shell.Main -e 1
    fi
  done
fi

# ---- workers: messages between threads, the clone engine, scaling ---------
# bench/js/workers/: messages.js runs under strait and under node (the same
# file, Node's worker_threads API); bench-clone (bench/c/clone_rows.c)
# compares the clone engine with the binary value format in one thread;
# scale.sh compares N workers with N processes. In BENCH_WORKERS_PASSES
# passes of (strait, node, bench-clone); the report takes the median.
if want workers; then
  WP=${BENCH_WORKERS_PAYLOADS:-}
  export BENCH_JS_ROUND_MS="${BENCH_JS_ROUND_MS:-40}" BENCH_JS_ROUNDS="${BENCH_JS_ROUNDS:-5}"
  export BENCH_WORKERS_WARMUP_MS="${BENCH_WORKERS_WARMUP_MS:-200}"
  clone_ok=""
  if [ ! -f "$BUILD/libstraitcore.a" ]; then
    skip clone "*" "no $BUILD/libstraitcore.a (make $BUILD/libstraitcore.a failed)"
  else
    # shellcheck disable=SC2086
    if $CC $BCFLAGS $JSC_CFLAGS -Iinclude -Isrc/core -o "$OUT/bench-clone" bench/c/clone_rows.c \
        bench/c/measure.c "$BUILD/libstraitcore.a" $JSC_LIBS -ldl -lm >"$OUT/cc.err" 2>&1; then
      clone_ok=1
    else
      skip clone "*" "bench/c/clone_rows.c does not build: $(grep -m1 'error' "$OUT/cc.err" | cut -c1-120)"
    fi
  fi
  # messages.js prints "done" after its last payload; a run that ended
  # early with status 0 gets a skip line (collect adds one for other ends)
  msg_done() {
    if ! grep -q '^done$' "$OUT/part.out" && [ "$st" -eq 0 ]; then
      skip workers_latency "*.$1" "messages.js ($1) ended (status 0) before its last payload, after: $(grep '^row' "$OUT/part.out" | tail -n 1 | cut -f2,3 | tr '\t' .)"
    fi
  }
  node_ok=""
  if command -v "$NODE" >/dev/null 2>&1; then node_ok=1; else skip workers_latency "*.node" "no $NODE"; fi
  pass=0
  while [ $pass -lt "${BENCH_WORKERS_PASSES:-1}" ]; do
    pass=$((pass + 1))
    log "workers: messages (strait, pass $pass)"
    if [ -n "$STRAIT" ]; then
      # shellcheck disable=SC2086
      collect workers_latency "*.strait" "$BIN" bench/js/workers/messages.js strait $WP
      msg_done strait
    else
      skip workers_latency "*.strait" "no working $BIN (strait -e 1 failed or hung)"
    fi
    if [ -n "$node_ok" ]; then
      log "workers: messages (node $("$NODE" --version 2>/dev/null), pass $pass)"
      # shellcheck disable=SC2086
      collect workers_latency "*.node" "$NODE" bench/js/workers/messages.js node $WP
      msg_done node
    fi
    if [ -n "$clone_ok" ]; then
      log "workers: bench-clone (pass $pass)"
      # shellcheck disable=SC2086
      collect clone "*" "$OUT/bench-clone" bench/js/workers/payloads.js $WP
    fi
  done
  if [ -n "$STRAIT" ]; then
    for n in $(echo "${BENCH_SCALE_N:-1 $(nproc)}" | tr ' ' '\n' | sort -un); do
      log "workers: scaling, $n worker(s) vs $n process(es)"
      collect workers_scale "n$n.*" bench/js/workers/scale.sh "$BIN" "$n" "${BENCH_SCALE_RUNS:-7}" "$OUT/scale"
    done
  else
    skip workers_scale "*" "no working $BIN (strait -e 1 failed or hung)"
  fi
fi

# ---- report ----------------------------------------------------------------
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
jsc_v=$(pkg-config --modversion javascriptcoregtk-4.1 2>/dev/null)
jdk_v=$("$JAVA" -version 2>&1 | head -n 1)
rhino_v=$(timeout 30 "$JAVA" -cp "$RHINO_JAR" org.mozilla.javascript.tools.shell.Main -e \
  "print('Rhino ' + new java.util.jar.JarFile('$RHINO_JAR').getManifest().getMainAttributes().getValue('Bundle-Version'))" 2>/dev/null)
strait_v=$([ -n "$STRAIT" ] && timeout 20 "$BIN" --version 2>/dev/null | head -n 1)
commit=$(git rev-parse --short HEAD 2>/dev/null)
{
  echo "Measured by \`make bench\` (scripts/bench.sh) on $(date -u '+%Y-%m-%d %H:%M') UTC at commit \`${commit:-?}\`${strait_v:+ ($strait_v)}, in $(($(date +%s) - T0)) s."
  echo
  echo "- Machine: $(nproc) CPUs, ${cpu:-unknown CPU}, ${mem:-? GiB}, Linux $(uname -r)"
  echo "- JavaScriptCore ${jsc_v:-?} (javascriptcoregtk-4.1); JDK: ${jdk_v:-?}; ${rhino_v:-Rhino ?} (\`-opt 9\`)"
  echo "- Each C and Java row is the median of ${BENCH_ROUNDS:-7} timed rounds of at least ${BENCH_ROUND_MS:-40} ms after warm-up; JS rows the median of ${BENCH_JS_ROUNDS:-5} rounds of at least ${BENCH_JS_ROUND_MS:-40} ms after ${BENCH_JS_WARMUP_MS:-500} ms of warm-up (timed inside the script with \`performance.now()\`, \`process.hrtime()\` or, in Rhino, \`java.lang.System.nanoTime()\`), then the median of ${BENCH_JS_PASSES:-3} processes per engine, run in turn; start-up rows the median of ${BENCH_STARTUP_PASSES:-3} passes, each the median wall time of ${BENCH_SPAWN_RUNS:-5} processes; floor rows the median of 2 runs of \`bench-floors\` (before and after the Java API rows)."
  if want workers; then
    echo "- Worker and clone rows (\`bench/js/workers/\`, \`bench-clone\`): $("$NODE" --version 2>/dev/null | sed 's/^/Node /') for the \`*.node\` rows (the same script, Node's \`worker_threads\`); message rows the median of ${BENCH_JS_ROUNDS:-5} rounds of at least ${BENCH_JS_ROUND_MS:-40} ms after ${BENCH_WORKERS_WARMUP_MS:-200} ms of warm-up, \`clone.*\` rows of ${BENCH_ROUNDS:-7} rounds, in ${BENCH_WORKERS_PASSES:-1} pass(es) of (strait, node, bench-clone); scaling rows the median of ${BENCH_SCALE_RUNS:-7} interleaved runs on $(nproc) CPUs."
  fi
  echo "- Ratio = the row's time / the baseline's time (a sum \`a+b\` adds the baselines), all measured in this run: below 1 is faster than the baseline. How to add a row: \`bench/README.md\`."
  awk -f bench/report.awk "$ROWS"
} >"$OUT/table.md"
{
  echo "# Benchmark results"
  echo
  cat "$OUT/table.md"
} >"$OUT/RESULTS.md"
echo
cat "$OUT/RESULTS.md"

if [ -z "${BENCH_ONLY:-}" ] && [ -z "${BENCH_FILTER:-}" ] && [ -z "${BENCH_JS_GROUPS:-}" ]; then
  cp "$OUT/RESULTS.md" bench/RESULTS.md
  if grep -q '<!-- bench:start -->' README.md && grep -q '<!-- bench:end -->' README.md; then
    awk -v table="$OUT/table.md" '
      /<!-- bench:start -->/ { print; while ((getline l < table) > 0) print l; skipping = 1; next }
      /<!-- bench:end -->/ { skipping = 0 }
      !skipping { print }' README.md >"$OUT/README.md" && cp "$OUT/README.md" README.md
  fi
  log "wrote bench/RESULTS.md and the README table"
else
  log "partial run: wrote $OUT/RESULTS.md only"
fi
