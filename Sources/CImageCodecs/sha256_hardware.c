/* SHA-256 with the x86 SHA extensions (SHA-NI), when the processor has them: a frame journal hashes every
 * frame it writes, and the instructions do a block in about a tenth of the time of portable code. The portable
 * implementation is TileViewCore's SHA256, whose round constants the caller passes in; this file only answers
 * when the hardware can. */

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "CImageCodecs.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

static int tv_sha_ni_present(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return ssse3 && sse41 && ((b >> 29) & 1);
}

/* Compresses `blocks` 64-byte blocks into `state` (a..h). */
__attribute__((target("sha,sse4.1,ssse3"))) static void tv_sha256_ni_blocks(uint32_t state[8], const uint32_t k[64],
                                                                           const uint8_t *data, size_t blocks) {
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&state[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);            /* CDAB */
    state1 = _mm_shuffle_epi32(state1, 0x1B);      /* EFGH */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);   /* CDGH */
    for (; blocks > 0; blocks--, data += 64) {
        __m128i abef = state0, cdgh = state1;
        __m128i w[4];
        for (int g = 0; g < 16; g++) {
            __m128i words;
            if (g < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), mask);
            } else {
                /* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], four words at a time: w[g & 3] holds the
                 * words of group g-4, w[(g+1) & 3] of g-3, w[(g+2) & 3] of g-2, w[(g+3) & 3] of g-1. */
                __m128i t = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
                t = _mm_add_epi32(t, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
                words = _mm_sha256msg2_epu32(t, w[(g + 3) & 3]);
            }
            w[g & 3] = words;
            __m128i msg = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&k[4 * g]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            msg = _mm_shuffle_epi32(msg, 0x0E);
            state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);        /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1);     /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);  /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);     /* ABEF */
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

int tv_sha256_hardware(const uint8_t *data, size_t length, const uint32_t k[64], uint8_t digest[32]) {
    static _Atomic int present = -1; /* every thread that asks first computes the same answer */
    int known = atomic_load_explicit(&present, memory_order_relaxed);
    if (known < 0) {
        known = tv_sha_ni_present();
        atomic_store_explicit(&present, known, memory_order_relaxed);
    }
    if (!known) return 0;
    uint32_t state[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    size_t full = length / 64;
    tv_sha256_ni_blocks(state, k, data, full);
    /* The padding: 0x80, zeros, the length in bits (big-endian), in one or two blocks. */
    uint8_t tail[128];
    size_t rest = length - full * 64;
    memset(tail, 0, sizeof tail);
    if (rest > 0) memcpy(tail, data + full * 64, rest);
    tail[rest] = 0x80;
    size_t tail_blocks = rest < 56 ? 1 : 2;
    uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[tail_blocks * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
    tv_sha256_ni_blocks(state, k, tail, tail_blocks);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)state[i];
    }
    return 1;
}

#else

int tv_sha256_hardware(const uint8_t *data, size_t length, const uint32_t k[64], uint8_t digest[32]) {
    (void)data;
    (void)length;
    (void)k;
    (void)digest;
    return 0;
}

#endif
