/* CRC-32C (Castagnoli, the iSCSI and ext4 checksum): the disk cache's entries are checked with it on every read.
 * It guards against damage (a torn or flipped entry), not against someone who can write the cache folder, so it
 * need not be a cryptographic hash: with SSE 4.2 the processor does 8 bytes an instruction, about eight times
 * SHA-NI's SHA-256 (a first view after a restart checks a 2 MB entry). Elsewhere a table does a byte a step. */

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "CImageCodecs.h"

static uint32_t tv_crc32c_table[256];
static pthread_once_t tv_crc32c_table_once = PTHREAD_ONCE_INIT;

static void tv_crc32c_make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        tv_crc32c_table[n] = c;
    }
}

uint32_t tv_crc32c_portable(const uint8_t *data, size_t length) {
    pthread_once(&tv_crc32c_table_once, tv_crc32c_make_table);
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < length; i++) crc = tv_crc32c_table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

static int tv_sse42_present(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c >> 20) & 1;
}

__attribute__((target("sse4.2"))) static uint32_t tv_crc32c_sse42(const uint8_t *data, size_t length) {
    uint64_t crc = 0xFFFFFFFFu;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, data, 8);
        crc = _mm_crc32_u64(crc, word);
        data += 8;
        length -= 8;
    }
    uint32_t small = (uint32_t)crc;
    while (length > 0) {
        small = _mm_crc32_u8(small, *data++);
        length--;
    }
    return small ^ 0xFFFFFFFFu;
}

uint32_t tv_crc32c(const uint8_t *data, size_t length) {
    static int present = -1; /* -1 unknown; a race writes the same answer twice */
    int known = __atomic_load_n(&present, __ATOMIC_RELAXED);
    if (known < 0) {
        known = tv_sse42_present();
        __atomic_store_n(&present, known, __ATOMIC_RELAXED);
    }
    return known ? tv_crc32c_sse42(data, length) : tv_crc32c_portable(data, length);
}
#else
uint32_t tv_crc32c(const uint8_t *data, size_t length) { return tv_crc32c_portable(data, length); }
#endif
