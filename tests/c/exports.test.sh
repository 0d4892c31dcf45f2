#!/bin/sh
# exports.test.sh - libstrait.so exports exactly its public API: every
# function declared STRAIT_API in include/strait.h and include/strait_jvm.h,
# plus the JNI entry points JNI_OnLoad / JNI_OnUnload, and nothing else (no
# strait__* internal, no static helper). Also checks the SONAME and that the
# launcher needs the library by it, and that no strait symbol is left
# undefined for the dynamic linker. Run by scripts/test-c.sh; BUILD selects
# the build directory. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
lib="$BUILD/lib/libstrait.so"
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "exports: $*" >&2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declared: the name before "(" on each STRAIT_API declaration (the macro's
# own definition lines have no "strait_" name and are skipped).
cat include/strait.h include/strait_jvm.h | tr '\n' ' ' | sed 's/;/;\n/g' |
  grep 'STRAIT_API' | grep -o 'strait_[a-z0-9_]*[[:space:]]*(' | tr -d '( ' |
  sort -u >"$tmp/declared"
printf '%s\n' JNI_OnLoad JNI_OnUnload >>"$tmp/declared"
sort -u -o "$tmp/declared" "$tmp/declared"
nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u >"$tmp/exported"

extra=$(comm -13 "$tmp/declared" "$tmp/exported")
if [ -z "$extra" ]; then ok; else bad "exported but not public: $(echo $extra)"; fi
missing=$(comm -23 "$tmp/declared" "$tmp/exported" | grep -v '^JNI_OnUnload$')
if [ -z "$missing" ]; then ok; else bad "public but not exported: $(echo $missing)"; fi
if grep -q '^strait__' "$tmp/exported"; then bad "internal strait__ symbols exported"; else ok; fi
# Nor imported: an undefined strait__ reference in the dynamic table (a weak
# hook left unresolved) could be answered by any other library loaded in
# the process.
imported=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | grep '^strait' || true)
if [ -z "$imported" ]; then ok; else bad "strait symbols left for the dynamic linker: $(echo $imported)"; fi
if [ "$(wc -l <"$tmp/declared")" -gt 40 ]; then ok; else bad "found only $(wc -l <"$tmp/declared") declarations"; fi

major=$(sed -n 's/^#define STRAIT_VERSION_MAJOR \([0-9]*\)$/\1/p' include/strait.h)
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = "libstrait.so.$major" ]; then ok; else bad "SONAME is '$soname'"; fi
if readelf -d "$BUILD/bin/strait" | grep -q "(NEEDED).*\[libstrait.so.$major\]"; then ok
else bad "the launcher does not need libstrait.so.$major"; fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
