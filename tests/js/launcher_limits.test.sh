#!/usr/bin/env bash
# launcher_limits.test.sh - the sandbox flags of the strait command
# (--timeout, --heap-limit, --deny-env, --deny-fs, --fs-root, --deny-exit),
# bad values, and Ctrl-C (SIGINT -> exit 130) with and without the JVM.
# Run by scripts/test-js.sh. Prints `N passed, N failed`.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
STRAIT=${STRAIT:-$BUILD/bin/strait}
case $STRAIT in /*) ;; *) STRAIT=$PWD/$STRAIT ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strait-limits.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1: rc=$RC out=$OUT err=$ERR"; fi; }
st() { timeout -k 5 60 "$STRAIT" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err"); }

st --timeout=300ms -e 'for (;;) {}'
check "--timeout ends a busy loop" '[[ $RC -eq 1 && "$ERR" == *"time limit of 300 ms exceeded"* ]]'
st --timeout 2s -e 'setTimeout(() => console.log("ok"), 10)'
check "--timeout lets a short script finish" '[[ $RC -eq 0 && "$OUT" == ok ]]'
# the limit bounds the script's entries, not the runtime's set-up (which
# takes longer than 1 ms): a 1 ms limit stops the script, every time
for i in 1 2 3 4 5; do
  st --timeout=1 -e 'for (;;) {}'
  check "--timeout=1 stops the script, not the runtime's set-up (run $i)" '[[ $RC -eq 1 && "$ERR" == *"time limit of 1 ms exceeded"* && "$ERR" != *"cannot create"* ]]'
done
st --timeout=500 -e 'setTimeout(() => { for (;;) {} }, 1)'
check "--timeout applies to a timer callback" '[[ $RC -eq 1 && "$ERR" == *"time limit of 500 ms"* ]]'
for bad in --timeout=abc --timeout=0 --timeout=-5 --timeout=5h --heap-limit=lots --heap-limit=0 --heap-limit=12x; do
  st "$bad" -e 1
  check "bad value $bad" '[[ $RC -eq 2 && "$ERR" == *"${bad%%=*}"* ]]'
done
printf 'module.exports = 1;%*s' 9000000 '' >"$TMP/big.js"
st --timeout=5s "$TMP/big.js"
check "--timeout: a source over 8 Mi characters is refused before its parse" '[[ $RC -eq 1 && "$ERR" == *"RangeError: source of 9000019 characters is over the runtime'"'"'s max-source-size of 8388608"* ]]'
st --timeout=5s --max-source-size=none "$TMP/big.js"
check "--max-source-size=none" '[[ $RC -eq 0 ]]'
st --max-source-size=1k -e "require('$TMP/big.js')"
check "--max-source-size=1k refuses a module" '[[ $RC -eq 1 && "$ERR" == *"max-source-size of 1024"* ]]'
st --max-source-size=lots -e 1
check "bad --max-source-size" '[[ $RC -eq 2 && "$ERR" == *"--max-source-size"* ]]'
st --heap-limit=64m -e 'const a = []; for (;;) a.push({ i: a.length })'
check "--heap-limit" '[[ $RC -eq 1 && "$ERR" == *"heap limit of 67108864 bytes exceeded"* ]]'
st --deny-env -e 'console.log(Object.keys(process.env).length)'
check "--deny-env" '[[ $RC -eq 0 && "$OUT" == 0 ]]'
echo 'module.exports = 1' >"$TMP/m.js"
st --deny-fs -e "try { require('$TMP/m.js') } catch (e) { console.log(e.message) } console.log(typeof require('util').inspect)"
check "--deny-fs" '[[ "$OUT" == *"file access is not allowed"* && "$OUT" == *function* ]]'
st --deny-fs "$TMP/m.js"
check "--deny-fs refuses the main module" '[[ $RC -ne 0 && "$ERR" == *"not allowed"* ]]'
mkdir -p "$TMP/root" && echo 'console.log(require("./b"))' >"$TMP/root/a.js" && echo 'module.exports = "b"' >"$TMP/root/b.js"
ln -s "$TMP/m.js" "$TMP/root/link.js"
st --fs-root="$TMP/root" "$TMP/root/a.js"
check "--fs-root inside" '[[ $RC -eq 0 && "$OUT" == b ]]'
st --fs-root="$TMP/root" -e "try { require('$TMP/root/link.js') } catch (e) { console.log(e.code) }"
check "--fs-root symlink out" '[[ "$OUT" == ERR_ACCESS_DENIED ]]'
st --fs-root="$TMP/root" -e "try { require('$TMP/root/../m.js') } catch (e) { console.log(e.code) }"
check "--fs-root ../" '[[ "$OUT" == ERR_ACCESS_DENIED ]]'
st --fs-root="$TMP/nope" -e 1
check "--fs-root missing dir" '[[ $RC -eq 2 && "$ERR" == *"--fs-root"* ]]'
st --deny-exit -e 'try { process.exit(3) } catch (e) { console.log(e.message) } console.log("on")'
check "--deny-exit" '[[ $RC -eq 0 && "$OUT" == *"not allowed in this runtime"*on ]]'
st --help
check "--help lists the flags" '[[ "$OUT" == *--timeout* && "$OUT" == *--heap-limit* && "$OUT" == *--fs-root* && "$OUT" == *--deny-exit* ]]'

# Ctrl-C: SIGINT after the script printed its ready line.
sigint() {
  rm -f "$TMP/o"
  "$STRAIT" -e "$1" >"$TMP/o" 2>"$TMP/e" </dev/null & local pid=$!
  for _ in $(seq 300); do grep -q ready "$TMP/o" 2>/dev/null && break; sleep 0.1; done
  sleep 0.2; kill -INT $pid; wait $pid; RC=$?; OUT=$(cat "$TMP/o"); ERR=$(cat "$TMP/e")
}
sigint 'console.log("ready"); for (;;) {}'
check "Ctrl-C busy loop" '[[ $RC -eq 130 && "$ERR" == "strait: interrupted" ]]'
sigint 'console.log("ready"); setInterval(() => {}, 1000)'
check "Ctrl-C idle interval" '[[ $RC -eq 130 && "$ERR" == "strait: interrupted" ]]'
if st -e 'console.log(typeof java.lang.System)' && [[ "$OUT" == function || "$OUT" == object ]]; then
  sigint 'java.lang.System.currentTimeMillis(); console.log("ready"); for (;;) {}'
  check "Ctrl-C busy loop with the JVM" '[[ $RC -eq 130 && "$ERR" == "strait: interrupted" ]]'
  sigint 'java.lang.System.currentTimeMillis(); console.log("ready"); setInterval(() => {}, 1000)'
  check "Ctrl-C idle interval with the JVM" '[[ $RC -eq 130 && "$ERR" == "strait: interrupted" ]]'
fi
# host access flags (the JVM's policy half: include/strait_jvm.h)
st --host-access=none -e 'console.log(typeof java, typeof Packages, typeof Java)'
check "--host-access=none: no Java globals" '[[ $RC -eq 0 && "$OUT" == "undefined undefined undefined" ]]'
st --host-access=explicit -e 'console.log(typeof java)'
check "--host-access=explicit: no lookups" '[[ $RC -eq 0 && "$OUT" == undefined ]]'
st --host-access=some -e 1
check "--host-access bad value" '[[ $RC -eq 2 && "$ERR" == *"--host-access"* ]]'
st --deny-threads -e 'try { new java.lang.Thread(() => {}); console.log("made") } catch (e) { console.log(e.message) }'
check "--deny-threads" '[[ "$OUT" == *"java.lang.Thread is not accessible"* ]]'
st --deny-native -e 'try { java.lang.System.loadLibrary("x"); console.log("loaded") } catch (e) { console.log(e.message) }'
check "--deny-native" '[[ "$OUT" == *"loadLibrary is not accessible"* ]]'
st -e 'console.log(typeof new java.lang.Object().getClass().getClassLoader)'
check "all access by default" '[[ "$OUT" == function ]]'
st --help
check "--help lists the host access flags" '[[ "$OUT" == *--host-access* && "$OUT" == *--deny-threads* && "$OUT" == *--deny-native* && "$OUT" == *--allow-reflection* ]]'
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
