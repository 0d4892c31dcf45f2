/* codec_bigint.c - BigInt magnitudes (little-endian bytes) to and from
 * decimal text, the form the JavaScriptCore C API speaks. Quadratic in the
 * number of digits, which is fine for the sizes BigInts have in data. */
#define STRAIT_CODEC_NO_JSC
#include "codec.h"
#include "strait.h"

#include <stdlib.h>
#include <string.h>

/* Parses [-]digits into a little-endian magnitude. Any thread; the caller
 * frees *mag. */
int strait__bigint_from_decimal(const char *s, size_t len, uint8_t **mag, size_t *n, bool *neg) {
  *mag = NULL;
  *n = 0;
  *neg = false;
  if (len && s[0] == '-') { *neg = true; s++; len--; }
  if (!len) return STRAIT_EINVAL;
  uint8_t *m = calloc(len / 2 + 2, 1); /* 10^len < 256^(len/2+1) */
  if (!m) return STRAIT_ENOMEM;
  size_t used = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') { free(m); return STRAIT_EINVAL; }
    unsigned carry = (unsigned)(s[i] - '0');
    for (size_t k = 0; k < used; k++) {
      unsigned v = m[k] * 10u + carry;
      m[k] = (uint8_t)v;
      carry = v >> 8;
    }
    if (carry) m[used++] = (uint8_t)carry;
  }
  *mag = m;
  *n = used;
  if (!used) *neg = false;
  return 0;
}

/* Formats a little-endian magnitude as decimal. Any thread; caller frees. */
char *strait__bigint_to_decimal(const uint8_t *mag, size_t n, bool neg) {
  while (n && !mag[n - 1]) n--;
  uint8_t *work = malloc(n ? n : 1);
  char *digits = malloc(n * 3 + 3);
  if (!work || !digits) { free(work); free(digits); return NULL; }
  if (n) memcpy(work, mag, n);
  size_t nd = 0, top = n;
  while (top) {
    unsigned rem = 0;
    for (size_t k = top; k-- > 0;) {
      unsigned v = (rem << 8) | work[k];
      work[k] = (uint8_t)(v / 10);
      rem = v % 10;
    }
    digits[nd++] = (char)('0' + rem);
    while (top && !work[top - 1]) top--;
  }
  free(work);
  if (!nd) digits[nd++] = '0';
  char *out = malloc(nd + 2);
  if (!out) { free(digits); return NULL; }
  size_t o = 0;
  if (neg && !(nd == 1 && digits[0] == '0')) out[o++] = '-';
  while (nd) out[o++] = digits[--nd];
  out[o] = 0;
  free(digits);
  return out;
}
