#!/usr/bin/env bash
# Runs the JS suites through the strait launcher and prints one summed line
# `N passed, N failed[, N skipped]`; exits non-zero if anything failed.
#   - every tests/js/**/*.spec.js runs in its own `strait` process (the spec
#     runner, tests/js/runner.js, prints the file's own summary line);
#   - every tests/js/**/*.test.sh is a shell-driven suite (launcher
#     behaviour seen from outside) printing the same kind of line.
# A file that crashes, hangs (SPEC_TIMEOUT seconds, default 120; a suite may
# ask for more with a line `# spec-timeout: SECONDS` of its own, as the
# interop sweep does, which bounds each of its processes itself) or ends
# without a summary line counts as one failure; the run goes on.
# Environment: BUILD (default build), SPEC_VERBOSE=1 lists every test.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
STRAIT="$BUILD/bin/strait"
# Absolute, so suites that cd elsewhere still find it.
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TIMEOUT=${SPEC_TIMEOUT:-120}
export BUILD STRAIT

total_p=0 total_f=0 total_s=0
summary_re='^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$'

# run_one NAME CMD...: runs a suite, adds its counts to the totals.
run_one() {
  local name=$1 file=$2; shift 2
  local out rc line p=0 f=0 s=0 limit
  limit=$(sed -n 's/^# spec-timeout: \([0-9][0-9]*\)$/\1/p' "$file" | head -n 1)
  [[ -n "$limit" && $limit -gt $TIMEOUT ]] || limit=$TIMEOUT
  out=$(timeout -k 5 "$limit" "$@" 2>&1 </dev/null)
  rc=$?
  line=$(printf '%s\n' "$out" | grep -E "$summary_re" | tail -n 1)
  if [[ -n "$line" && "$line" =~ $summary_re ]]; then
    p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[4]:-0}
    if [[ $rc -ne 0 && $f -eq 0 ]]; then f=1; fi
  else
    f=1
  fi
  if [[ $f -ne 0 || -n "${SPEC_VERBOSE:-}" ]]; then
    printf '%s\n' "$out" | grep -vE "$summary_re" | tail -n 60 | sed 's/^/  /'
  fi
  local why=""
  [[ -z "$line" ]] && why=" (no summary line; exit code $rc)"
  [[ -n "$line" && $rc -ne 0 && ${BASH_REMATCH[2]:-0} -eq 0 ]] && why=" (exit code $rc)"
  [[ $rc -eq 124 || $rc -eq 137 ]] && why=" (timed out after ${limit}s)"
  printf '%-40s %s passed, %s failed%s%s\n' "$name" "$p" "$f" \
    "$([[ $s -ne 0 ]] && echo ", $s skipped")" "$why"
  total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
}

if [[ ! -x "$STRAIT" ]]; then
  echo "test-js: $STRAIT is missing: run make BUILD=$BUILD all" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

while IFS= read -r spec; do
  run_one "${spec#tests/js/}" "$spec" "$STRAIT" "$spec"
done < <(find tests/js -name '*.spec.js' -not -path '*/fixtures/*' -not -path '*/node_modules/*' | sort)

while IFS= read -r suite; do
  run_one "${suite#tests/js/}" "$suite" bash "$suite"
done < <(find tests/js -name '*.test.sh' -not -path '*/fixtures/*' | sort)

line="$total_p passed, $total_f failed"
[[ $total_s -ne 0 ]] && line="$line, $total_s skipped"
echo "$line"
[[ $total_f -eq 0 ]]
