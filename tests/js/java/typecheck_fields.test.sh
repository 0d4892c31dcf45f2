#!/usr/bin/env bash
# Field writes and argument slots of a class compiled for the test
# (fixtures/TypeSlots.java: public static and instance fields and methods of
# many declared types; the JDK has no public static non-final field to
# write): fixtures/typeslots.js writes or passes a Java object of every
# unrelated class to each and expects a TypeError naming the member.
# Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")"
STRAIT=${STRAIT:-../../../${BUILD:-build}/bin/strait}
JAVA_HOME=${JAVA_HOME:-$(../../../scripts/java-home.sh)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$JAVA_HOME/bin/javac" -d "$tmp" fixtures/TypeSlots.java; then
  echo "0 passed, 1 failed"
  exit 1
fi
out=$(timeout -k 5 120 "$STRAIT" -cp "$tmp" fixtures/typeslots.js 2>&1)
rc=$?
printf '%s\n' "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed$' | head -40
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
if [[ $rc -ne 0 || -z "$line" ]]; then
  echo "typeslots.js exited with $rc"
  p=${line%% *}
  echo "${p:-0} passed, 1 failed"
  exit 1
fi
echo "$line"
[[ "$line" == *" 0 failed" ]]
