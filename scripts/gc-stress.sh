#!/usr/bin/env bash
# GC stress loop (`make gc-stress`): runs tests/js/fixtures/gc_stress.js
# GC_STRESS_RUNS times (default 2000) under JavaScriptCore's stress options
# (JSC_collectContinuously=1 JSC_scribbleFreeCells=1: a collection always
# running, freed cells overwritten), alternating HotSpot's G1 and Parallel
# collectors, and stops at the first failure. A run passes when it exits 0
# and prints "ok true <callbacks>". A failure prints the run's number, its
# collector and command, the crash summary from its hs_err file (or the end
# of its output when the JVM wrote none, e.g. an abort inside JSC), and keeps
# its directory. Ends with `N passed, N failed`; exits non-zero on a failure.
#
# The collector is chosen with JAVA_TOOL_OPTIONS, not -J, so the JVM still
# starts lazily after JavaScriptCore (the order the fixture is about).
# Environment:
#   GC_STRESS_RUNS     number of runs (default 2000)
#   GC_STRESS_MS       how long each run allocates, in ms (default 2000)
#   GC_STRESS_JOBS     runs at a time (default 2; each run keeps ~1 CPU busy)
#   GC_STRESS_TIMEOUT  seconds before a run counts as hung (default 120)
#   GC_STRESS_CORE=1   let a crashing run write a core file (large)
#   BUILD              build directory (default build)
# Run 1, 3, 5... use G1 and 2, 4, 6... Parallel; the run number is the seed:
# GC_STRESS_FIRST=N starts at run N (to redo one failing run alone, with
# GC_STRESS_RUNS=1).
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
STRAIT=$PWD/$BUILD/bin/strait
FIXTURE=$PWD/tests/js/fixtures/gc_stress.js
RUNS=${GC_STRESS_RUNS:-2000}
MS=${GC_STRESS_MS:-2000}
JOBS=${GC_STRESS_JOBS:-2}
TIMEOUT=${GC_STRESS_TIMEOUT:-120}
FIRST=${GC_STRESS_FIRST:-1}
if [[ ! -x $STRAIT ]]; then
  echo "gc-stress: $STRAIT is missing: run make all" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
[[ ${GC_STRESS_CORE:-0} == 1 ]] && ulimit -c unlimited || ulimit -c 0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gc-stress.XXXXXX")
RESULTS=$WORK/results     # one line per finished run: "pass N" / "fail N"
STOP=$WORK/stop           # exists once a run failed
: >"$RESULTS"

gc_of() { (( $1 % 2 )) && echo -XX:+UseG1GC || echo -XX:+UseParallelGC; }

# The crash lines of an hs_err file: signal, problematic frame, siginfo,
# the crashing thread and the top of its native stack.
hs_summary() {
  grep -E '^# +(SIGSEGV|SIGBUS|SIGILL|SIGFPE|SIGABRT|Internal Error|fatal error)|^# (C|J|j|V)  \[|^# Problematic frame|^siginfo:|^Current thread|^Stack: ' "$1"
  sed -n '/^Native frames:/,/^$/p' "$1" | head -n 12
}

# One run: its directory, output and outcome. Returns non-zero on failure.
run_one() {
  local n=$1 gc dir out rc
  gc=$(gc_of "$n")
  dir=$WORK/run-$n
  mkdir -p "$dir"
  out=$(cd "$dir" && env JSC_collectContinuously=1 JSC_scribbleFreeCells=1 \
        JAVA_TOOL_OPTIONS="$gc -XX:ErrorFile=$dir/hs_err.log" \
        timeout -k 5 "$TIMEOUT" "$STRAIT" "$FIXTURE" "$MS" 2>&1)
  rc=$?
  if [[ $rc -eq 0 ]] && grep -qE '^ok true [0-9]+$' <<<"$out"; then
    rm -rf "$dir"
    echo "pass $n" >>"$RESULTS"
    return 0
  fi
  printf '%s\n' "$out" >"$dir/output.txt"
  echo "fail $n" >>"$RESULTS"
  {
    echo "gc-stress: run $n FAILED (seed $n, collector $gc, exit status $rc$( ((rc > 128 && rc != 124)) && echo ", signal $((rc - 128))")$( ((rc == 124)) && echo ", hung: timed out after ${TIMEOUT}s"))"
    echo "  command: (cd $dir && JSC_collectContinuously=1 JSC_scribbleFreeCells=1 JAVA_TOOL_OPTIONS='$gc' $STRAIT $FIXTURE $MS)"
    if [[ -s $dir/hs_err.log ]]; then
      echo "  crash report: $dir/hs_err.log"
      hs_summary "$dir/hs_err.log" | sed 's/^/    /'
    else
      echo "  no hs_err file; the end of the output ($dir/output.txt):"
    fi
    grep -v '^Picked up JAVA_TOOL_OPTIONS' <<<"$out" | tail -n 15 | sed 's/^/    /'
  } >"$dir/summary.txt"
  cat "$dir/summary.txt" >&2
  touch "$STOP"
  return 1
}

# Worker j of JOBS takes runs FIRST+j, FIRST+j+JOBS, ... until done or stopped.
worker() {
  local j=$1 n
  for ((n = FIRST + j; n < FIRST + RUNS; n += JOBS)); do
    [[ -e $STOP ]] && return
    run_one "$n" || return
  done
}

start=$(date +%s)
echo "gc-stress: $RUNS runs of $(basename "$FIXTURE") ($MS ms each, $JOBS at a time), G1 and Parallel alternating; work dir $WORK" >&2
pids=()
for ((j = 0; j < JOBS; j++)); do worker "$j" & pids+=($!); done
# progress every 100 finished runs, until the workers end
(
  last=0
  while :; do
    sleep 10
    done_n=$(wc -l <"$RESULTS")
    if (( done_n / 100 > last / 100 )); then
      echo "gc-stress: $done_n/$RUNS runs done, $(( $(date +%s) - start ))s" >&2
      last=$done_n
    fi
  done
) &
progress=$!
for p in "${pids[@]}"; do wait "$p"; done
kill "$progress" 2>/dev/null
wait "$progress" 2>/dev/null

passed=$(grep -c '^pass' "$RESULTS")
failed=$(grep -c '^fail' "$RESULTS")
secs=$(( $(date +%s) - start ))
g1=$(awk '$1 == "pass" && $2 % 2 == 1' "$RESULTS" | wc -l)
echo "gc-stress: $passed runs passed ($g1 with G1, $((passed - g1)) with Parallel) in ${secs}s" >&2
if (( failed == 0 )); then
  rm -rf "$WORK"
else
  echo "gc-stress: failing runs kept under $WORK" >&2
fi
echo "$passed passed, $failed failed"
(( failed == 0 && passed == RUNS ))
