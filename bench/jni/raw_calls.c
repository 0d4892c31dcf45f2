/*
 * raw_calls.c - benchmark natives of org.strait.bench.BenchNatives (in the
 * test/bench library variant only, build/lib-testing): the raw Java -> JS
 * call floors of the contention rows (InteropBench) and the gate's spin
 * budget knob. Moved out of the product's call/java_to_js.c and
 * call/loop.c.
 */
#include "base/jni_base.h"
#include "base/interop_ids.h"


/* BenchNatives.rawCallNoGate: one call of fn with no arguments that skips
 * the admission gate and relies on JSC's own API lock alone (the "engine
 * lock only" baseline of the contention rows). fn must not touch runtime
 * state (timers, the loop, the bridge). Any Java thread. */
static void JNICALL n_raw_call_no_gate(JNIEnv *env, jclass c, jlong peer, jlong fn) {
  JSContextRef ctx = strait_runtime_context(STRAIT__PEER(peer)->rt);
  JSObjectCallAsFunction(ctx, (JSObjectRef)strait__handle_value(fn), NULL, 0, NULL, NULL);
}

/* BenchNatives.rawCallGated: the same call as rawCallNoGate, entering the
 * runtime through its admission gate as every product native does
 * (strait__native_enter: the gate and the entry frame): the
 * "gate" rows of the contention benchmark, where only the gate differs. Any
 * Java thread. */
static void JNICALL n_raw_call_gated(JNIEnv *env, jclass c, jlong peer, jlong fn) {
  strait__native n;
  if (strait__native_enter(env, &n, STRAIT__PEER(peer))) return;
  JSObjectCallAsFunction(n.ctx, (JSObjectRef)strait__handle_value(fn), NULL, 0, NULL, NULL);
  strait__native_leave(env, &n);
}

/* BenchNatives.setGateSpin: the gate's spin budget in microseconds
 * (negative: park at once; strait_gate_set_spin). Any thread. */
static void JNICALL n_set_gate_spin(JNIEnv *env, jclass c, jlong peer, jlong micros) {
  strait_gate_set_spin(STRAIT__PEER(peer)->rt, (long)micros);
}

const JNINativeMethod strait__bench_raw_natives[] = {
    {"rawCallNoGate", "(JJ)V", (void *)n_raw_call_no_gate},
    {"rawCallGated", "(JJ)V", (void *)n_raw_call_gated},
    {"setGateSpin", "(JJ)V", (void *)n_set_gate_spin},
};
const int strait__bench_raw_natives_count =
    (int)(sizeof strait__bench_raw_natives / sizeof strait__bench_raw_natives[0]);
