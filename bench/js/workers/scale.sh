#!/bin/sh
# scale.sh - the scaling rows: N workers in one strait process against N
# strait processes, each running one unit of scale.js (fib(27), sort 200k
# numbers) at the same time.
#
#   scale.sh STRAIT N RUNS TMPDIR
#
# RUNS runs of each, in turn (workers, processes, workers, ...), so machine
# noise hits both alike; prints the median of each as rows:
#   workers_scale.nN.workers   span from the first unit's start to the last
#                              one's end (process.hrtime(), shared by
#                              threads and processes), one process with N
#                              workers; baseline nN.processes
#   workers_scale.nN.processes the same span over N processes started
#                              together
#   workers_scale.nN.workers_wall / processes_wall  the whole wall time,
#                              start-up and exit included
# A run that fails prints the reason on stderr and exits 1.
set -u
BIN=$1 N=$2 RUNS=$3 TMP=$4
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$TMP"
now() { date +%s%N; }

# span of the lines "span START END" in the given files: max END - min START (ms)
span() { awk '$1 == "span" { if (s == "" || $2 < s) s = $2; if (e == "" || $3 > e) e = $3; k++ }
              END { if (k == 0) exit 1; printf "%.3f\n", e - s }' "$@"; }

: >"$TMP/w.txt"
: >"$TMP/p.txt"
r=0
while [ "$r" -lt "$RUNS" ]; do
  r=$((r + 1))
  t0=$(now)
  # shellcheck disable=SC2086
  if ! $BIN "$HERE/scale.js" workers "$N" >"$TMP/w.out" 2>"$TMP/w.err"; then
    echo "scale.js workers $N failed: $(tail -n 1 "$TMP/w.err")" >&2; exit 1
  fi
  t1=$(now)
  s=$(span "$TMP/w.out") || { echo "scale.js workers $N printed no span" >&2; exit 1; }
  echo "$s $(( (t1 - t0) / 1000 ))" >>"$TMP/w.txt"

  t0=$(now)
  pids=""
  i=0
  while [ "$i" -lt "$N" ]; do
    # shellcheck disable=SC2086
    $BIN "$HERE/scale.js" task >"$TMP/p$i.out" 2>"$TMP/p$i.err" &
    pids="$pids $!"
    i=$((i + 1))
  done
  fail=0
  for p in $pids; do wait "$p" || fail=1; done
  t1=$(now)
  if [ $fail -ne 0 ]; then echo "scale.js task failed: $(cat "$TMP"/p*.err | tail -n 1)" >&2; exit 1; fi
  outs=""
  i=0
  while [ "$i" -lt "$N" ]; do outs="$outs $TMP/p$i.out"; i=$((i + 1)); done
  # shellcheck disable=SC2086
  s=$(span $outs) || { echo "scale.js task printed no span" >&2; exit 1; }
  echo "$s $(( (t1 - t0) / 1000 ))" >>"$TMP/p.txt"
done

# median of column COL (ms, or us for the wall time) of FILE, in ns
med() { sort -g -k"$2","$2" "$1" | awk -v c="$2" -v f="$3" '{ v[NR] = $c }
  END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f\n", m * f }'; }

unit="fib(27) + a sort of 200k numbers"
g=workers_scale
printf 'row\t%s\tn%s.workers\t%s\t%s.n%s.processes\tone strait process, N workers each running %s at once: first start to last end // N = %s\tns\n' \
  "$g" "$N" "$(med "$TMP/w.txt" 1 1e6)" "$g" "$N" "$unit" "$N"
printf 'row\t%s\tn%s.processes\t%s\t-\tN strait processes started together, each running %s: first start to last end // N = %s\tns\n' \
  "$g" "$N" "$(med "$TMP/p.txt" 1 1e6)" "$unit" "$N"
printf 'row\t%s\tn%s.workers_wall\t%s\t%s.n%s.processes_wall\twall time of strait scale.js workers N (start-up and exit included) // N = %s\tns\n' \
  "$g" "$N" "$(med "$TMP/w.txt" 2 1e3)" "$g" "$N" "$N"
printf 'row\t%s\tn%s.processes_wall\t%s\t-\twall time of N strait scale.js task processes started together (start-up and exit included) // N = %s\tns\n' \
  "$g" "$N" "$(med "$TMP/p.txt" 2 1e3)" "$N"
