/* kernels.c - freestanding kernels for meter_bench.c (see README): sha256, quicksort, a bytecode interpreter, matmul, a hash map, crc32, recursive fib, a counting loop */
typedef unsigned int u32; typedef unsigned long long u64; typedef unsigned char u8;
static u8 heap[1 << 20];
static u32 rotr(u32 x, int n) { return (x >> n) | (x << (32 - n)); }
static const u32 K[64] = {0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2};
static void sha_block(u32 *h, const u8 *p) {
  u32 w[64];
  for (int i = 0; i < 16; i++) w[i] = (u32)p[4*i] << 24 | (u32)p[4*i+1] << 16 | (u32)p[4*i+2] << 8 | p[4*i+3];
  for (int i = 16; i < 64; i++) { u32 s0 = rotr(w[i-15],7)^rotr(w[i-15],18)^(w[i-15]>>3), s1 = rotr(w[i-2],17)^rotr(w[i-2],19)^(w[i-2]>>10); w[i] = w[i-16]+s0+w[i-7]+s1; }
  u32 a=h[0],b=h[1],c=h[2],d=h[3],e=h[4],f=h[5],g=h[6],hh=h[7];
  for (int i = 0; i < 64; i++) { u32 S1=rotr(e,6)^rotr(e,11)^rotr(e,25), ch=(e&f)^(~e&g), t1=hh+S1+ch+K[i]+w[i], S0=rotr(a,2)^rotr(a,13)^rotr(a,22), mj=(a&b)^(a&c)^(b&c), t2=S0+mj; hh=g; g=f; f=e; e=d+t1; d=c; c=b; b=a; a=t1+t2; }
  h[0]+=a;h[1]+=b;h[2]+=c;h[3]+=d;h[4]+=e;h[5]+=f;h[6]+=g;h[7]+=hh;
}
u32 sha256(int n) { u32 h[8] = {0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19}; for (int i = 0; i < n * 64; i++) heap[i & 0xfffff] = (u8)i; for (int b = 0; b < n; b++) sha_block(h, heap + ((b * 64) & 0xfffff)); return h[0] ^ h[7]; }
static void qs(int *a, int lo, int hi) { while (lo < hi) { int p = a[(lo+hi)/2], i = lo, j = hi; while (i <= j) { while (a[i] < p) i++; while (a[j] > p) j--; if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; } } if (j - lo < hi - i) { qs(a, lo, j); lo = i; } else { qs(a, i, hi); hi = j; } } }
u32 sort(int n) { int *a = (int *)heap; u32 x = 12345; for (int i = 0; i < n; i++) { x = x * 1103515245 + 12345; a[i] = (int)(x >> 8); } qs(a, 0, n - 1); u32 s = 0; for (int i = 0; i < n; i += 97) s += (u32)a[i]; return s; }
enum { PUSH, ADD, SUB, MUL, DUP, SWAP, JNZ, DEC, DROP, HALT, LOADI, STOREI, XOR, SHL };
u32 interp(int n) {
  static const int prog[] = { PUSH, 0, LOADI, 0, PUSH, 1, ADD, DUP, PUSH, 3, MUL, PUSH, 7, XOR, STOREI, 1, DROP, LOADI, 0, DEC, DUP, STOREI, 0, JNZ, 2, HALT };
  int st[64], sp = 0, pc = 0; int regs[4] = {n, 0, 0, 0};
  for (;;) { switch (prog[pc++]) {
    case PUSH: st[sp++] = prog[pc++]; break; case ADD: sp--; st[sp-1] += st[sp]; break; case SUB: sp--; st[sp-1] -= st[sp]; break;
    case MUL: sp--; st[sp-1] *= st[sp]; break; case DUP: st[sp] = st[sp-1]; sp++; break; case SWAP: { int t = st[sp-1]; st[sp-1] = st[sp-2]; st[sp-2] = t; break; }
    case JNZ: { int t = prog[pc++]; if (st[--sp]) pc = t; break; } case DEC: st[sp-1]--; break; case DROP: sp--; break;
    case LOADI: st[sp++] = regs[prog[pc++]]; break; case STOREI: regs[prog[pc++]] = st[--sp]; break; case XOR: sp--; st[sp-1] ^= st[sp]; break;
    case SHL: sp--; st[sp-1] <<= st[sp]; break; case HALT: return (u32)regs[1] + (u32)sp; default: return 0; } }
}
u32 matmul(int n) { double *A = (double *)heap, *B = A + n*n, *C = B + n*n; for (int i = 0; i < n*n; i++) { A[i] = i % 7; B[i] = i % 5; }
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { double s = 0; for (int k = 0; k < n; k++) s += A[i*n+k] * B[k*n+j]; C[i*n+j] = s; } return (u32)C[n*n/2]; }
typedef struct ent { u32 key, val; } ent;
static u32 hash(u32 k) { k ^= k >> 16; k *= 0x85ebca6b; k ^= k >> 13; k *= 0xc2b2ae35; return k ^ (k >> 16); }
static void put(ent *t, u32 mask, u32 k, u32 v) { u32 i = hash(k) & mask; while (t[i].key && t[i].key != k) i = (i + 1) & mask; t[i].key = k; t[i].val = v; }
static u32 get(ent *t, u32 mask, u32 k) { u32 i = hash(k) & mask; while (t[i].key) { if (t[i].key == k) return t[i].val; i = (i + 1) & mask; } return 0; }
u32 hashmap(int n) { ent *t = (ent *)heap; u32 mask = (1 << 16) - 1; for (u32 i = 0; i <= mask; i++) t[i].key = 0; u32 s = 0; for (int r = 0; r < n; r++) { for (u32 i = 1; i < 30000; i++) put(t, mask, i * 2654435761u | 1, i); for (u32 i = 1; i < 30000; i++) s += get(t, mask, i * 2654435761u | 1); } return s; }
u32 crc32(int n) { static u32 tab[256]; for (u32 i = 0; i < 256; i++) { u32 c = i; for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1; tab[i] = c; } u32 c = ~0u; for (int r = 0; r < n; r++) for (int i = 0; i < (1 << 16); i++) c = tab[(c ^ heap[i]) & 0xff] ^ (c >> 8); return ~c; }
static u32 fib(u32 n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
u32 calls(int n) { return fib((u32)n); }
u32 tight(int n) { u32 s = 0; for (int i = 0; i < n; i++) s += (u32)i * 7u ^ (s >> 3); return s; }
