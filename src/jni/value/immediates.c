/*
 * immediates.c - the self-test that decides whether the bridge may read
 * and make immediate JS values (numbers, booleans, null, undefined) from
 * their JSValueRef bits (see value/value.h) instead of through the C API.
 */
#include "value/value.h"

bool jb_imm_ok;
static pthread_once_t imm_once = PTHREAD_ONCE_INIT;
static JSContextRef imm_ctx;

/* Compares the encoding with what the C API makes and reads. Once per
 * process, inside the gate of the first runtime that attaches the bridge. */
static void self_test(void) {
  JSContextRef ctx = imm_ctx;
  static const double nums[] = {0, 1, -1, 42, 2147483647.0, -2147483648.0, 2147483648.0, 1.5, -0.0,
                                1e300, -2.5e-300, 9007199254740993.0};
  bool ok = sizeof(void *) == 8;
  for (size_t i = 0; ok && i < sizeof nums / sizeof nums[0]; i++) {
    JSValueRef api = JSValueMakeNumber(ctx, nums[i]);
    double back;
    if (!jb_imm_number(api, &back) || memcmp(&back, &nums[i], sizeof back) != 0) ok = false;
    JSValueRef mine = jb_imm_double(nums[i]);
    if (!JSValueIsNumber(ctx, mine)) ok = false;
    double viaapi = JSValueToNumber(ctx, mine, NULL);
    if (memcmp(&viaapi, &nums[i], sizeof viaapi) != 0) ok = false;
    if (!JSValueIsStrictEqual(ctx, mine, api)) ok = false;
  }
  if (ok) {
    JSValueRef nan = jb_imm_double(__builtin_nan(""));
    ok = JSValueIsNumber(ctx, nan) && JSValueToNumber(ctx, nan, NULL) != JSValueToNumber(ctx, nan, NULL);
  }
  ok = ok && jb_bits(JSValueMakeBoolean(ctx, true)) == JB_VALUE_TRUE &&
       jb_bits(JSValueMakeBoolean(ctx, false)) == JB_VALUE_FALSE &&
       jb_bits(JSValueMakeNull(ctx)) == JB_VALUE_NULL &&
       jb_bits(JSValueMakeUndefined(ctx)) == JB_VALUE_UNDEFINED;
  /* strings and objects must not look like numbers or constants */
  if (ok) {
    JSStringRef s = JSStringCreateWithUTF8CString("x");
    JSValueRef sv = JSValueMakeString(ctx, s);
    JSStringRelease(s);
    double d;
    JSObjectRef o = JSObjectMake(ctx, NULL, NULL);
    ok = !jb_imm_number(sv, &d) && !jb_imm_number(o, &d) && jb_bits(sv) > 0xff && jb_bits(o) > 0xff;
  }
  jb_imm_ok = ok;
}

/* Runs the self-test once per process (see value/value.h). Inside the gate. */
void jb_imm_init(JSContextRef ctx) {
  imm_ctx = ctx;
  pthread_once(&imm_once, self_test);
}
