/*
 * wasm.h - the natives of js/wasm.js (wasm.c): metering a module's bytes
 * (wasm_meter.c) and the host side of the imports a metered module calls
 * (the stop check, the heap admission of memory and table growth). Private
 * to the core.
 */
#ifndef STRAIT_WASM_H
#define STRAIT_WASM_H

#include "runtime.h"

/*
 * Adds wasmMeter(bytes), wasmCheck(), wasmGrow(pages), wasmTableGrow(n)
 * and wasmAdmit(bytes) to the bootstrap's natives object (see wasm.c).
 * Inside the gate, once per runtime.
 */
void strait__wasm_natives(JSContextRef ctx, JSObjectRef native);

#endif /* STRAIT_WASM_H */
