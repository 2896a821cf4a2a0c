/* seedrng.h: bit-exact C twins of the randomness the Python engine uses, for compiled hand engines.
 * Plain C99, header-only (every function static inline: no unused-function warnings), no CPython include.
 *
 *   SHAKE-256 (FIPS 202)      hashlib.shake_256, absorb-then-squeeze, any split of the output
 *   SeedStream                majiang.seeded.SeedStream(seed, label).below(n) and
 *                             majiang.engine.wall.shuffle(tiles, seed)
 *   SHA-256 (FIPS 180-4)      hashlib.sha256
 *   MT19937                   random.Random of CPython 3.11: seeding from an int in [0, 2**64),
 *                             getrandbits(k <= 32), _randbelow / choice, getstate()-compatible state
 *
 * Tested equal to Python by tests/test_seedrng_fast.py (through the hooks of seedrng.c).
 * Nothing here allocates; the stream and generator states live in the caller's structs. */
#ifndef MAJIANG_SEEDRNG_H
#define MAJIANG_SEEDRNG_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ==== SHAKE-256: Keccak-f[1600], rate 136 bytes, domain bits 1111 then pad10*1 ================== */

#define SHAKE256_RATE 136

typedef struct {
    uint64_t a[25]; /* lane (x, y) at a[x + 5y]; byte i of the rate is byte i % 8 (LE) of lane i / 8 */
    size_t pos;     /* absorbing: bytes of the current block taken; squeezing: bytes of it given out */
    int squeezing;
} shake_t;

/* r in 1..63 */
static inline uint64_t keccak_rotl(uint64_t v, unsigned r) { return (v << r) | (v >> (64 - r)); }

/* Keccak-f[1600], the 24 rounds theta, rho, pi, chi, iota of FIPS 202 section 3.3, with the lane loops
 * written out (rho's offsets from Algorithm 2: 0 1 62 28 27 / 36 44 6 55 20 / 3 10 43 25 39 /
 * 41 45 15 21 8 / 18 2 61 56 14 for x + 5y = 0 .. 24) */
static inline void keccak_f1600(uint64_t a[25]) {
    /* iota's round constants (Algorithm 6, from rc(t) of Algorithm 5) */
    static const uint64_t RC[24] = {
        0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
        0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
        0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
        0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
        0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
        0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
    };
    uint64_t b[25], c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    for (int round = 0; round < 24; round++) {
        /* theta: column parities c, d[x] = c[x-1] ^ rot(c[x+1], 1) */
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
        d0 = c4 ^ keccak_rotl(c1, 1);
        d1 = c0 ^ keccak_rotl(c2, 1);
        d2 = c1 ^ keccak_rotl(c3, 1);
        d3 = c2 ^ keccak_rotl(c4, 1);
        d4 = c3 ^ keccak_rotl(c0, 1);
        /* theta applied, rho (rotations) and pi (lane x + 5y to y + 5((2x + 3y) mod 5)) in one pass */
        b[0] = a[0] ^ d0;
        b[10] = keccak_rotl(a[1] ^ d1, 1);
        b[20] = keccak_rotl(a[2] ^ d2, 62);
        b[5] = keccak_rotl(a[3] ^ d3, 28);
        b[15] = keccak_rotl(a[4] ^ d4, 27);
        b[16] = keccak_rotl(a[5] ^ d0, 36);
        b[1] = keccak_rotl(a[6] ^ d1, 44);
        b[11] = keccak_rotl(a[7] ^ d2, 6);
        b[21] = keccak_rotl(a[8] ^ d3, 55);
        b[6] = keccak_rotl(a[9] ^ d4, 20);
        b[7] = keccak_rotl(a[10] ^ d0, 3);
        b[17] = keccak_rotl(a[11] ^ d1, 10);
        b[2] = keccak_rotl(a[12] ^ d2, 43);
        b[12] = keccak_rotl(a[13] ^ d3, 25);
        b[22] = keccak_rotl(a[14] ^ d4, 39);
        b[23] = keccak_rotl(a[15] ^ d0, 41);
        b[8] = keccak_rotl(a[16] ^ d1, 45);
        b[18] = keccak_rotl(a[17] ^ d2, 15);
        b[3] = keccak_rotl(a[18] ^ d3, 21);
        b[13] = keccak_rotl(a[19] ^ d4, 8);
        b[14] = keccak_rotl(a[20] ^ d0, 18);
        b[24] = keccak_rotl(a[21] ^ d1, 2);
        b[9] = keccak_rotl(a[22] ^ d2, 61);
        b[19] = keccak_rotl(a[23] ^ d3, 56);
        b[4] = keccak_rotl(a[24] ^ d4, 14);
        /* chi, row by row: a[x] = b[x] ^ (~b[x + 1] & b[x + 2]) along each row */
        a[0] = b[0] ^ (~b[1] & b[2]);
        a[1] = b[1] ^ (~b[2] & b[3]);
        a[2] = b[2] ^ (~b[3] & b[4]);
        a[3] = b[3] ^ (~b[4] & b[0]);
        a[4] = b[4] ^ (~b[0] & b[1]);
        a[5] = b[5] ^ (~b[6] & b[7]);
        a[6] = b[6] ^ (~b[7] & b[8]);
        a[7] = b[7] ^ (~b[8] & b[9]);
        a[8] = b[8] ^ (~b[9] & b[5]);
        a[9] = b[9] ^ (~b[5] & b[6]);
        a[10] = b[10] ^ (~b[11] & b[12]);
        a[11] = b[11] ^ (~b[12] & b[13]);
        a[12] = b[12] ^ (~b[13] & b[14]);
        a[13] = b[13] ^ (~b[14] & b[10]);
        a[14] = b[14] ^ (~b[10] & b[11]);
        a[15] = b[15] ^ (~b[16] & b[17]);
        a[16] = b[16] ^ (~b[17] & b[18]);
        a[17] = b[17] ^ (~b[18] & b[19]);
        a[18] = b[18] ^ (~b[19] & b[15]);
        a[19] = b[19] ^ (~b[15] & b[16]);
        a[20] = b[20] ^ (~b[21] & b[22]);
        a[21] = b[21] ^ (~b[22] & b[23]);
        a[22] = b[22] ^ (~b[23] & b[24]);
        a[23] = b[23] ^ (~b[24] & b[20]);
        a[24] = b[24] ^ (~b[20] & b[21]);
        /* iota */
        a[0] ^= RC[round];
    }
}

/* Streaming use: shake256_reset, shake256_absorb any number of times, then shake256_squeeze any number
 * of times (the first squeeze pads).  The output is the prefix-consistent SHAKE stream: squeezing n1
 * then n2 bytes gives hashlib.shake_256(input).digest(n1 + n2). */
static inline void shake256_reset(shake_t *s) {
    memset(s->a, 0, sizeof(s->a));
    s->pos = 0;
    s->squeezing = 0;
}

static inline void shake256_absorb(shake_t *s, const uint8_t *in, size_t len) {
    size_t pos = s->pos;
    for (size_t i = 0; i < len; i++) {
        s->a[pos >> 3] ^= (uint64_t)in[i] << (8 * (pos & 7));
        if (++pos == SHAKE256_RATE) {
            keccak_f1600(s->a);
            pos = 0;
        }
    }
    s->pos = pos;
}

/* pad: SHAKE's domain bits 1111 and the first 1 of pad10*1 make 0x1F; the last 1 is 0x80 of byte 135 */
static inline void shake256_finish(shake_t *s) {
    s->a[s->pos >> 3] ^= (uint64_t)0x1F << (8 * (s->pos & 7));
    s->a[(SHAKE256_RATE - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((SHAKE256_RATE - 1) & 7));
    keccak_f1600(s->a);
    s->pos = 0;
    s->squeezing = 1;
}

/* absorb all of in (any length, may be NULL when len is 0) and get ready to squeeze */
static inline void shake256_init(shake_t *s, const uint8_t *in, size_t len) {
    shake256_reset(s);
    shake256_absorb(s, in, len);
    shake256_finish(s);
}

static inline void shake256_squeeze(shake_t *s, uint8_t *out, size_t n) {
    if (!s->squeezing) shake256_finish(s);
    size_t pos = s->pos;
    for (size_t i = 0; i < n; i++) {
        if (pos == SHAKE256_RATE) {
            keccak_f1600(s->a);
            pos = 0;
        }
        out[i] = (uint8_t)(s->a[pos >> 3] >> (8 * (pos & 7)));
        pos++;
    }
    s->pos = pos;
}

/* ==== SeedStream: majiang.seeded.SeedStream ===================================================== */

typedef struct {
    shake_t sh; /* SHAKE-256 of seed + label, squeezed 4 bytes per word */
} seedstream_t;

static inline void seedstream_init(seedstream_t *st, const uint8_t *seed, size_t seedlen, const uint8_t *label,
                                   size_t labellen) {
    shake256_reset(&st->sh);
    shake256_absorb(&st->sh, seed, seedlen);
    shake256_absorb(&st->sh, label, labellen);
    shake256_finish(&st->sh);
}

/* the next 32-bit big-endian word of the stream */
static inline uint32_t seedstream_word(seedstream_t *st) {
    shake_t *s = &st->sh;
    size_t pos = s->pos;
    if (pos & 3) { /* only after a squeeze of the same shake_t by a non-multiple of 4 */
        uint8_t b[4];
        shake256_squeeze(s, b, 4);
        return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    }
    if (pos == SHAKE256_RATE) { /* 136 = 34 words: a word never straddles two blocks */
        keccak_f1600(s->a);
        pos = 0;
    }
    uint32_t v = (uint32_t)(s->a[pos >> 3] >> (8 * (pos & 4))); /* bytes pos..pos+3, first in the low byte */
    s->pos = pos + 4;
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

/* uniform in [0, n) for n >= 1 (n = 0 gives 0): words are drawn until x < 2**32 - 2**32 % n, then x % n.
 * x < that limit exactly when the multiple of n at or below x leaves room for n values below 2**32,
 * so one division decides both. */
static inline uint32_t seedstream_below(seedstream_t *st, uint32_t n) {
    if (n == 0) return 0;
    for (;;) {
        uint32_t x = seedstream_word(st);
        uint32_t r = x % n;
        if (x - r <= (uint32_t)0 - n) return r;
    }
}

/* majiang.engine.wall.shuffle(tiles, seed) in place: Fisher-Yates from SeedStream(seed, b"shuffle"),
 * for i = n-1 .. 1 swap tiles[i] and tiles[below(i + 1)] */
static inline void seeded_shuffle(const uint8_t seed[], size_t seedlen, uint8_t *tiles, int n) {
    static const uint8_t label[7] = {'s', 'h', 'u', 'f', 'f', 'l', 'e'};
    seedstream_t st;
    seedstream_init(&st, seed, seedlen, label, sizeof(label));
    for (int i = n - 1; i > 0; i--) {
        uint32_t j = seedstream_below(&st, (uint32_t)i + 1);
        uint8_t t = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = t;
    }
}

/* ==== SHA-256 (FIPS 180-4) ======================================================================== */

static inline uint32_t sha256_rotr(uint32_t v, unsigned r) { return (v >> r) | (v << (32 - r)); }

static inline void sha256_block(uint32_t h[8], const uint8_t blk[64]) {
    static const uint32_t SHA256_K[64] = {
        0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
        0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
        0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
        0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
        0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
        0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
        0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
        0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
    };
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)blk[4 * t] << 24 | (uint32_t)blk[4 * t + 1] << 16 | (uint32_t)blk[4 * t + 2] << 8 |
               blk[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = sha256_rotr(w[t - 15], 7) ^ sha256_rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = sha256_rotr(w[t - 2], 17) ^ sha256_rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + (sha256_rotr(e, 6) ^ sha256_rotr(e, 11) ^ sha256_rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                      SHA256_K[t] + w[t];
        uint32_t t2 = (sha256_rotr(a, 2) ^ sha256_rotr(a, 13) ^ sha256_rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

static inline void sha256(const uint8_t *in, size_t len, uint8_t out[32]) {
    uint32_t h[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                     0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    size_t full = len / 64;
    for (size_t i = 0; i < full; i++) sha256_block(h, in + 64 * i);
    /* the tail, 0x80, zeros, then the length in bits as a 64-bit big-endian number: one or two blocks */
    uint8_t last[128];
    size_t rest = len - 64 * full;
    memset(last, 0, sizeof(last));
    if (rest) memcpy(last, in + 64 * full, rest);
    last[rest] = 0x80;
    size_t total = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len << 3;
    for (unsigned i = 0; i < 8; i++) last[total - 1 - i] = (uint8_t)(bits >> (8 * i));
    sha256_block(h, last);
    if (total == 128) sha256_block(h, last + 64);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h[i] >> 8);
        out[4 * i + 3] = (uint8_t)h[i];
    }
}

/* ==== MT19937 as CPython's random.Random (Modules/_randommodule.c, Lib/random.py) ================= */

#define MT_N 624
#define MT_M 397

/* mt and index mean what random.Random.getstate()[1] holds: the 624 words, then the index of the next
 * word to temper (624: regenerate first).  gauss_next is not modelled (nothing here draws gauss). */
typedef struct {
    uint32_t mt[MT_N];
    int index;
} mt_t;

static inline void mt_init_genrand(mt_t *g, uint32_t s) {
    g->mt[0] = s;
    for (int i = 1; i < MT_N; i++) g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + (uint32_t)i;
    g->index = MT_N;
}

/* init_by_array of the reference MT19937 (and CPython); n >= 1 */
static inline void mt_init_by_array(mt_t *g, const uint32_t *key, size_t n) {
    uint32_t *mt = g->mt;
    mt_init_genrand(g, 19650218u);
    size_t i = 1, j = 0;
    for (size_t k = MT_N > n ? MT_N : n; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= n) j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u; /* MSB is 1, assuring a non-zero initial array */
}

/* random.Random(a) for an int 0 <= a < 2**64: the key is a's 32-bit words, least significant first,
 * as many as its bit length needs but at least one (a = 0 gives the key [0]; a < 2**32 one word). */
static inline void mt_seed_u64(mt_t *g, uint64_t a) {
    uint32_t key[2] = {(uint32_t)a, (uint32_t)(a >> 32)};
    mt_init_by_array(g, key, key[1] ? 2 : 1);
}

static inline void mt_generate(mt_t *g) {
    uint32_t *mt = g->mt, y;
    int kk;
    for (kk = 0; kk < MT_N - MT_M; kk++) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
    }
    for (; kk < MT_N - 1; kk++) {
        y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
        mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
    }
    y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((0u - (y & 1u)) & 0x9908b0dfu);
    g->index = 0;
}

/* genrand_uint32 */
static inline uint32_t mt_u32(mt_t *g) {
    if (g->index >= MT_N) mt_generate(g);
    uint32_t y = g->mt[g->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* random.getrandbits(k) for 1 <= k <= 32 (k <= 0 gives 0 without a draw, as getrandbits(0) does) */
static inline uint32_t mt_getrandbits(mt_t *g, int k) {
    if (k <= 0) return 0;
    return mt_u32(g) >> (32 - k);
}

/* n.bit_length() for n >= 1 */
static inline int mt_bit_length(uint32_t n) {
#if defined(__GNUC__) || defined(__clang__)
    return 32 - __builtin_clz(n);
#else
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
#endif
}

/* Random._randbelow_with_getrandbits(n) for n >= 1 (n = 0 gives 0 without a draw; Python raises):
 * k = n.bit_length() bits per try, tried again while >= n.  seq[mt_randbelow(g, len)] is
 * random.Random.choice(seq); note n = 1 still draws (at least) one word. */
static inline uint32_t mt_randbelow(mt_t *g, uint32_t n) {
    if (n == 0) return 0;
    int shift = 32 - mt_bit_length(n);
    uint32_t r;
    do r = mt_u32(g) >> shift;
    while (r >= n);
    return r;
}

#endif /* MAJIANG_SEEDRNG_H */
