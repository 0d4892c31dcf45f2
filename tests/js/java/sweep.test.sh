#!/usr/bin/env bash
# The generated interop sweep (tests/js/java/sweep/driver.js): every public
# constructor, method and field of the JDK classes of sweep/classes.js
# (670 classes of java.lang, java.util(.concurrent, .function, .stream),
# java.math, java.time, java.text, java.nio, java.io, java.net,
# java.util.regex, java.security and a few subpackages) called from JS with
# unrelated wrappers, odd JS values and too many or too few arguments, by
# name and by explicit signature, under -Xcheck:jni.
#
# The classes run in chunks, one strait process per chunk, in a fresh
# temporary directory that is also java.io.tmpdir (the sweep passes only
# relative sample paths, so files it creates or deletes stay there). Before
# each member the driver prints "@@sweep step N CLASS MEMBER"; a process that
# dies (signal, hs_err file, exit code) or outlives SWEEP_TIMEOUT seconds is
# a crash or a hang of the last member it started (printed at once, so a
# run cut short still shows them), and the chunk goes on
# after that member in a new process (at most SWEEP_RESTARTS times). A
# crashed member is replayed alone with each call announced, so the report
# names the call (or says that it did not crash alone).
#
# A test is one class: it passes when none of its calls crashed, hung,
# printed a JNI checker warning ("WARNING in native method", fatal errors)
# or ended in a failure outcome of the driver (a wrapper of the wrong class
# let through to a member, a bridge rejection that does not name the member, an explicit signature that does not resolve, an
# explicit constructor that cannot construct, any other throw, a runtime
# that no longer answers). Prints the counters, the failures, and
# `N passed, N failed`; exits non-zero on a failure.
#
# Environment: SWEEP_SEED (default 1), SWEEP_BUDGET (argument vectors per
# member; default 4, 0 = all), SWEEP_CLASSES (a number: the first N classes;
# else an extended regexp the class names must match; default all),
# SWEEP_CHUNK (classes per process, default 112), SWEEP_JOBS (processes at
# once, default 2), SWEEP_TIMEOUT (seconds per process, default 90),
# SWEEP_XCHECK (0 to run without -Xcheck:jni),
# SWEEP_KEEP (keep the work directory and print its path).
# `make sweep-long` runs every vector of every member (SWEEP_BUDGET=0).
# spec-timeout: 900
set -u
cd "$(dirname "$0")" || exit 1
HERE=$PWD
STRAIT=${STRAIT:-../../../${BUILD:-build}/bin/strait}
case "$STRAIT" in /*) ;; *) STRAIT="$(cd "$(dirname "$STRAIT")" && pwd)/$(basename "$STRAIT")" ;; esac
DRIVER=$HERE/sweep/driver.js
SEED=${SWEEP_SEED:-1}
BUDGET=${SWEEP_BUDGET:-4}
CLASSES=${SWEEP_CLASSES:-}
CHUNK=${SWEEP_CHUNK:-112}
PTIMEOUT=${SWEEP_TIMEOUT:-90}
RESTARTS=${SWEEP_RESTARTS:-30}
JOBS=${SWEEP_JOBS:-2}
JVMOPTS=(-J-Xmx256m)
[[ ${SWEEP_XCHECK:-1} != 0 ]] && JVMOPTS+=(-J-Xcheck:jni)

work=$(mktemp -d "${TMPDIR:-/tmp}/strait-sweep.XXXXXX")
if [[ -n ${SWEEP_KEEP:-} ]]; then echo "sweep: work directory $work"; else trap 'rm -rf "$work"' EXIT; fi
started=$SECONDS

# run_driver DIR ARGS...: runs the driver in DIR (fresh, its own tmpdir),
# output in DIR/out.txt; returns the exit code.
run_driver() {
  local d=$1; shift
  mkdir -p "$d"
  (cd "$d" && timeout -k 5 "$PTIMEOUT" "$STRAIT" "${JVMOPTS[@]}" -J-Djava.io.tmpdir="$d" \
    -J-XX:ErrorFile="$d/hs_err.log" "$DRIVER" "$@" >out.txt 2>&1 </dev/null) 2>/dev/null
  # (the shell's own "Aborted" note about a crashed process goes to /dev/null:
  # the crash is reported below with its member)
}

PTIMEOUT=$((PTIMEOUT > 120 ? PTIMEOUT : 120)) run_driver "$work/list" list
rc=$?
mapfile -t all < <(grep -E '^java\.' "$work/list/out.txt")
if [[ $rc -ne 0 || ${#all[@]} -lt 300 ]]; then
  echo "FAIL sweep: listing the classes failed (exit $rc, ${#all[@]} classes)"
  head -20 "$work/list/out.txt" | sed 's/^/  /'
  echo "0 passed, 1 failed"
  exit 1
fi
if [[ $CLASSES =~ ^[0-9]+$ ]]; then
  all=("${all[@]:0:$CLASSES}")
elif [[ -n $CLASSES ]]; then
  mapfile -t all < <(printf '%s\n' "${all[@]}" | grep -E -- "$CLASSES")
fi

results=$work/results.txt     # ==sweep lines of every process
problems=$work/problems.txt   # CLASS<TAB>KIND<TAB>TEXT: crashes, hangs, checker warnings, driver failures

# run_chunk INDEX CLASS...: sweeps the classes, restarting after a crash or
# a hang with the member that caused it left out.
# Writes its own results.N and problems.N (chunks run in parallel).
run_chunk() {
  local idx=$1; shift
  local from=0 avoid="" attempt=0 rc d last step cls member kind
  local results=$work/results.$idx problems=$work/problems.$idx
  : >"$results"
  : >"$problems"
  while :; do
    d=$work/c$idx.$attempt
    SWEEP_SEED=$SEED SWEEP_BUDGET=$BUDGET SWEEP_FROM=$from SWEEP_AVOID=$avoid run_driver "$d" run "$@"
    rc=$?
    grep -a '^==sweep ' "$d/out.txt" >>"$results"
    # failures the driver reported, and the JNI checker's warnings, by class
    awk -v OFS='\t' '
      /^@@sweep step / { cls = $4; member = $0; sub(/^@@sweep step [0-9]+ [^ ]+ /, "", member) }
      /^!!sweep / { c = $3; k = $2; t = $0; sub(/^!!sweep [^ ]+ [^ ]+ /, "", t); print c, k, t }
      /^\.\.sweep incomplete / { c = $3; t = $0; sub(/^\.\.sweep incomplete [^ ]+ /, "", t); print c, "incomplete", t }
      /WARNING in native method|FATAL ERROR in native method/ { print (cls ? cls : "?"), "xcheck", member ": " $0 }
    ' "$d/out.txt" >>"$problems"
    if [[ $rc -eq 0 ]] && grep -q '^\.\.sweep done' "$d/out.txt" && [[ ! -e $d/hs_err.log ]]; then
      return
    fi
    last=$(grep -a '^@@sweep step ' "$d/out.txt" | tail -n 1)
    if grep -q '^\.\.sweep done' "$d/out.txt" || [[ -z $last ]]; then
      # died after its last member, or before its first one
      printf '%s\t%s\t%s\n' "(chunk $idx)" "crash" "process ended with exit code $rc outside any member: $(tail -n 3 "$d/out.txt" | tr '\n' ' ' | cut -c1-300)" >>"$problems"
      return
    fi
    step=$(awk '{print $3}' <<<"$last")
    cls=$(awk '{print $4}' <<<"$last")
    member=${last#@@sweep step * * }
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
      kind=hang
      printf '%s\thang\t%s: no end after %ss\n' "$cls" "$member" "$PTIMEOUT" | tee -a "$problems" | awk -F'\t' '{ print "FAIL sweep " $1 " " $2 ": " $3 }'
    else
      kind=crash
      local frame=""
      [[ -e $d/hs_err.log ]] && frame=$(grep -m1 -A1 '^# Problematic frame:' "$d/hs_err.log" | tail -n 1)
      [[ -z $frame ]] && frame=$(grep -a -m1 -E 'SIGSEGV|SIGBUS|SIGABRT|fatal error|Segmentation|Aborted' "$d/out.txt")
      local sig=""
      [[ $rc -gt 128 ]] && sig=" (signal $((rc - 128)))"
      # replay the member alone, each call announced, to name the call
      local call
      SWEEP_SEED=$SEED SWEEP_BUDGET=$BUDGET SWEEP_FROM=$step SWEEP_TO=$step SWEEP_TRACE=1 run_driver "$d.replay" run "$@"
      if grep -q '^\.\.sweep done' "$d.replay/out.txt"; then
        call="(did not crash when replayed alone)"
      else
        call=$(grep -a '^\.\.sweep call ' "$d.replay/out.txt" | tail -n 1)
        call=${call:+last call: ${call#..sweep call }}
      fi
      printf '%s\tcrash\t%s: exit code %s%s; %s; %s\n' "$cls" "$member" "$rc" "$sig" "$call" "$frame" |
        tee -a "$problems" | awk -F'\t' '{ print "FAIL sweep " $1 " " $2 ": " $3 }'
    fi
    attempt=$((attempt + 1))
    if [[ $attempt -gt $RESTARTS ]]; then
      printf '%s\t%s\t%s\n' "(chunk $idx)" "$kind" "gave up after $RESTARTS restarts" >>"$problems"
      return
    fi
    avoid=${avoid:+$avoid,}$step
    from=$((step + 1))
  done
}

nchunks=0
for ((i = 0; i < ${#all[@]}; i += CHUNK)); do
  run_chunk "$nchunks" "${all[@]:i:CHUNK}" &
  nchunks=$((nchunks + 1))
  while [[ $(jobs -rp | wc -l) -ge $JOBS ]]; do wait -n; done
done
wait
for ((k = 0; k < nchunks; k++)); do cat "$work/results.$k"; done >"$results"
for ((k = 0; k < nchunks; k++)); do cat "$work/problems.$k"; done >"$problems"
processes=$(find "$work" -maxdepth 1 -name 'c*' -not -name '*.replay' | wc -l)

# Sum the counters; a class passes when it reported, every report said ok,
# and it has no crash, hang or checker warning.
declare -A bad=()
while IFS=$'\t' read -r cls kind _; do [[ $kind == incomplete ]] || bad[$cls]=1; done <"$problems"
while read -r _ cls status _; do [[ $status == ok ]] || bad[$cls]=1; done <"$results"
passed=0 failed=0
declare -A reported=()
while read -r _ cls _; do reported[$cls]=1; done <"$results"
for cls in "${all[@]}"; do
  if [[ -z ${bad[$cls]:-} && -n ${reported[$cls]:-} ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    [[ -z ${reported[$cls]:-} && -z ${bad[$cls]:-} ]] && printf '%s\tmissing\tno report\n' "$cls" >>"$problems"
  fi
done
for key in "${!bad[@]}"; do [[ $key == "(chunk "* ]] && failed=$((failed + 1)); done

echo "sweep: seed $SEED, budget ${BUDGET} vectors per member, ${#all[@]} classes in $nchunks chunks, $processes processes, $((SECONDS - started))s"
awk '{ for (i = 4; i <= NF; i++) { split($i, kv, "="); sum[kv[1]] += kv[2]; if (!(kv[1] in seen)) { seen[kv[1]] = 1; order[++n] = kv[1] } } }
     END { line = "sweep:"; for (i = 1; i <= n; i++) line = line " " order[i] "=" sum[order[i]]; print line }' "$results"
for kind in crash hang xcheck accepted unclear unresolved ctorform other broken missing incomplete; do
  n=$(awk -F'\t' -v k="$kind" '$2 == k' "$problems" | wc -l)
  c=$(awk -F'\t' -v k="$kind" '$2 == k { print $1 }' "$problems" | sort -u | wc -l)
  [[ $n -eq 0 ]] && continue
  case $kind in
    crash | hang) echo "sweep: $kind: $n in $c classes (listed above as they happened)"; continue ;;
    xcheck | missing) echo "sweep: $kind: $n in $c classes" ;;
    incomplete) echo "sweep: $kind (not a failure: the message after 'argument N' lacks the declared type): in $c classes" ;;
    *) echo "sweep: $kind: in $c classes (the counters above have the number of calls)" ;;
  esac
  # one line per class, so the list shows many classes
  awk -F'\t' -v k="$kind" '$2 == k && !seen[$1]++ { print "  " (k == "incomplete" ? "note" : "FAIL") " sweep " $1 " " $2 ": " substr($3, 1, 400) }' "$problems" |
    head -n "${SWEEP_SHOW:-20}"
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
