#!/bin/sh
# build.sh - regenerates the .wasm fixtures of test_wasm_meter.c from their
# .wat sources (see README). The .wasm files are committed: the tests need
# none of these tools.
set -eu
cd "$(dirname "$0")"
wat2wasm mvp.wat -o mvp.wasm
wat2wasm ext.wat -o ext.wasm
wat2wasm simd.wat -o simd.wasm
wat2wasm --enable-tail-call tail.wat -o tail.wasm
wat2wasm --enable-exceptions eh.wat -o eh.wasm
wat2wasm --enable-threads atomics.wat -o atomics.wasm
wat2wasm --enable-exceptions --enable-tail-call stops.wat -o stops.wasm
wat2wasm --debug-names names.wat -o names.wasm
# two custom sections after the name section: a branch-hint section (one
# function, no hint) and one the meter keeps
python3 - <<'PY'
def leb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)
def custom(name, payload):
    body = leb(len(name)) + name + payload
    return b"\x00" + leb(len(body)) + body
with open("names.wasm", "ab") as f:
    f.write(custom(b"metadata.code.branch_hint", b"\x01\x00\x00"))
    f.write(custom(b"keep.me", b"\xde\xad\xbe\xef"))
PY
# GC, exnref, typed function references, extended constant expressions:
# wabt 1.0.32 has none of them; binaryen's text parser (npm binaryen, 132
# here; BINARYEN=/path/to/node_modules/binaryen/index.js if node does not
# find it)
for f in exnref funcref gc extconst stops_tt; do node binaryen-as.mjs "$f.wat" "$f.wasm"; done
