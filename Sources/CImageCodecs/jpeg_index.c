/* Random access into a baseline JPEG: an index of the Huffman decoder's state every few MCUs,
 * built by one pass over the entropy-coded data, and crops that use it. The same entropy decoder also makes the
 * 1/8 scale in parts decoded at once (the last section).
 *
 * A baseline JPEG has no way in but the top: the rows above a rect must be entropy-decoded to find
 * where the rect's bits begin and what the DC predictors are there. One pass records, every
 * TV_INDEX_STEP MCUs of every MCU row, the bit position in the file, the DC predictors and the
 * restart-interval state. A crop then decodes only the MCUs of its rect (from the entry at or before
 * its first column), puts their coefficients into a new JPEG of just that rect through libjpeg's
 * transcoder (jpeg_write_coefficients: the same coefficients and quantisation tables, standard
 * Huffman tables), and the caller decodes that small JPEG as it would the file. The coefficients are
 * the same, so every pixel away from the rect's edges is the same as the whole file's decode; the
 * caller keeps one MCU of margin on each side that is not an edge of the image (fancy upsampling
 * reads one chroma sample beyond a block).
 *
 * The pass accepts only what it can reproduce exactly: one interleaved Huffman scan of 8-bit samples
 * (SOF0 or SOF1) with 1 or 3 components, well-formed restart markers, and the EOI right after the
 * scan. Anything else (progressive, arithmetic coding, several scans, damaged data, stray bytes) is
 * refused, and the caller keeps to the plain decoder, whose behaviour on such files is the contract. */

#include <stddef.h>
#include <stdio.h>

#include <errno.h>
#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim_internal.h"

#define TV_INDEX_STEP 8
#define TV_INDEX_LOOKAHEAD 9
#define TV_INDEX_MAX_COMPONENTS 3
/* The indexing pass reads the file through a window of this many bytes (or the whole header, when that is longer,
 * up to TV_JPEG_INDEX_MAX_HEADER), refilled when fewer than TV_INDEX_MARGIN bytes are left ahead: an MCU takes at
 * most a few KiB. */
#define TV_INDEX_WINDOW (1ul << 20)
#define TV_INDEX_MARGIN (64ul << 10)

/* Zigzag position -> natural position, with 16 spare entries as libjpeg has. */
static const int tv_natural_order[64 + 16] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13,
    6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31,
    39, 46, 53, 60, 61, 54, 47, 55, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};

struct tv_huffman {
    int defined;
    int32_t maxcode[18]; /* largest code of each length, -1 when none; [17] is a sentinel */
    int32_t valoffset[17];
    uint8_t values[256];
    uint16_t look[1 << TV_INDEX_LOOKAHEAD]; /* (length << 8) | value for codes of up to 9 bits, else 0 */
};

/* The decoder's state at the start of an MCU. 16 bytes. */
struct tv_index_entry {
    uint32_t byte;          /* file offset of the byte holding the next bit */
    uint16_t restarts_left; /* MCUs until the next restart marker (0: one is due before this MCU) */
    uint8_t bit;            /* bits of that byte already consumed */
    uint8_t next_restart;   /* the number of the next RSTn marker */
    int16_t dc[TV_INDEX_MAX_COMPONENTS];
    int16_t pad;
};

struct tv_jpeg_index {
    int fd;         /* the index's own descriptor of the file (read with pread only) */
    size_t file_length;
    uint8_t *header; /* the file's bytes up to the end of the SOS segment */
    size_t header_length;
    uint32_t width, height;
    int components;
    int id[TV_INDEX_MAX_COMPONENTS], h[TV_INDEX_MAX_COMPONENTS], v[TV_INDEX_MAX_COMPONENTS];
    int dc_table[TV_INDEX_MAX_COMPONENTS], ac_table[TV_INDEX_MAX_COMPONENTS];
    int blocks_per_mcu;
    uint32_t mcu_width, mcu_height; /* pixels */
    uint32_t mcus_x, mcus_y;
    uint32_t restart_interval;
    uint32_t steps; /* entries per MCU row, the last one the row's end */
    struct tv_index_entry *entries;
    struct tv_huffman dc[4], ac[4];
};

/* ---- reading bits ---- */

struct tv_bits {
    const uint8_t *start, *p, *end;
    uint64_t buffer; /* MSB first */
    int count;       /* valid bits in buffer */
    int zeros;       /* of those, bits made up after a marker or the end of the data (the low ones) */
    size_t base;     /* the file offset of `start` when the bytes are a window of the file (positions count from 0) */
};

static void tv_bits_fill(struct tv_bits *b) {
    /* Eight bytes at once when none of them is 0xFF (no stuffing, no marker): the common case. */
    if (b->end - b->p >= 8 && b->count <= 56) {
        uint64_t word;
        memcpy(&word, b->p, 8);
        word = __builtin_bswap64(word);
        uint64_t inverse = ~word; /* a 0xFF byte of word is a zero byte of inverse */
        if (((inverse - 0x0101010101010101ull) & ~inverse & 0x8080808080808080ull) == 0) {
            int bytes = (64 - b->count) >> 3;
            b->buffer |= (word >> (64 - 8 * bytes)) << (64 - b->count - 8 * bytes);
            b->p += bytes;
            b->count += 8 * bytes;
            return;
        }
    }
    while (b->count <= 56) {
        uint64_t byte = 0;
        if (b->p < b->end && (b->p[0] != 0xFF || (b->p + 1 < b->end && b->p[1] == 0x00))) {
            byte = b->p[0];
            b->p += byte == 0xFF ? 2 : 1;
        } else {
            b->zeros += 8;
        }
        b->buffer |= byte << (56 - b->count);
        b->count += 8;
    }
}

static inline uint32_t tv_bits_take(struct tv_bits *b, int n) {
    if (n == 0) return 0;
    if (b->count < n) tv_bits_fill(b);
    uint32_t value = (uint32_t)(b->buffer >> (64 - n));
    b->buffer <<= n;
    b->count -= n;
    return value;
}

/* Reads one Huffman-coded value; -1 for a code no table has. */
static inline int tv_bits_decode(struct tv_bits *b, const struct tv_huffman *t) {
    if (b->count < 16) tv_bits_fill(b);
    uint16_t look = t->look[b->buffer >> (64 - TV_INDEX_LOOKAHEAD)];
    if (look != 0) {
        int length = look >> 8;
        b->buffer <<= length;
        b->count -= length;
        return look & 0xFF;
    }
    int length = TV_INDEX_LOOKAHEAD + 1;
    int32_t code = (int32_t)(b->buffer >> (64 - length));
    while (code > t->maxcode[length]) {
        length++;
        if (length > 16) return -1;
        code = (int32_t)(b->buffer >> (64 - length));
    }
    b->buffer <<= length;
    b->count -= length;
    int index = code + t->valoffset[length];
    return index >= 0 && index < 256 ? t->values[index] : -1;
}

static inline int32_t tv_extend(uint32_t value, int size) {
    return size == 0 ? 0 : (value < (1u << (size - 1)) ? (int32_t)value - (int32_t)(1u << size) + 1 : (int32_t)value);
}

/* Starts reading at `byte` (an offset into start...end) with `bit` bits of it consumed. */
static void tv_bits_seek(struct tv_bits *b, size_t byte, int bit) {
    b->p = b->start + byte;
    b->buffer = 0;
    b->count = 0;
    b->zeros = 0;
    tv_bits_fill(b);
    b->buffer <<= bit;
    b->count -= bit;
}

/* The position of the next unread bit: the data byte holding it and the bits of it consumed. Fails
 * (returns 0) when made-up bits were read. */
static int tv_bits_position(const struct tv_bits *b, size_t *byte, int *bit) {
    int real = b->count - b->zeros;
    if (real < 0) return 0;
    int bytes = (real + 7) / 8;
    const uint8_t *q = b->p;
    for (int i = 0; i < bytes; i++) {
        q -= (q - b->start >= 2 && q[-1] == 0x00 && q[-2] == 0xFF) ? 2 : 1;
    }
    *byte = b->base + (size_t)(q - b->start);
    *bit = bytes * 8 - real;
    return 1;
}

/* At a restart boundary: drops the padding bits and reads the RSTn marker. */
static int tv_bits_restart(struct tv_bits *b, int number) {
    if (b->count - b->zeros >= 8) return 0; /* more than padding is left */
    if (b->p + 1 >= b->end || b->p[0] != 0xFF || b->p[1] != 0xD0 + number) return 0;
    b->p += 2;
    b->buffer = 0;
    b->count = 0;
    b->zeros = 0;
    return 1;
}

/* ---- Huffman tables ---- */

static int tv_huffman_build(struct tv_huffman *t, const uint8_t counts[17], const uint8_t *values, int total) {
    memset(t, 0, sizeof *t);
    if (total > 256) return 0;
    uint8_t sizes[257];
    uint32_t codes[257];
    int p = 0;
    for (int length = 1; length <= 16; length++) {
        for (int i = 0; i < counts[length]; i++) sizes[p++] = (uint8_t)length;
    }
    sizes[p] = 0;
    if (p != total) return 0;
    uint32_t code = 0;
    int size = sizes[0];
    p = 0;
    while (sizes[p]) {
        while (sizes[p] == size) codes[p++] = code++;
        if (code >= (1u << size)) return 0;
        code <<= 1;
        size++;
    }
    p = 0;
    for (int length = 1; length <= 16; length++) {
        if (counts[length]) {
            t->valoffset[length] = p - (int32_t)codes[p];
            p += counts[length];
            t->maxcode[length] = (int32_t)codes[p - 1];
        } else {
            t->maxcode[length] = -1;
        }
    }
    t->maxcode[17] = 0x7FFFFFFF;
    memcpy(t->values, values, (size_t)total);
    p = 0;
    for (int length = 1; length <= TV_INDEX_LOOKAHEAD; length++) {
        for (int i = 0; i < counts[length]; i++, p++) {
            uint32_t bits = codes[p] << (TV_INDEX_LOOKAHEAD - length);
            for (int n = 1 << (TV_INDEX_LOOKAHEAD - length); n > 0; n--) {
                t->look[bits++] = (uint16_t)((length << 8) | values[p]);
            }
        }
    }
    t->defined = 1;
    return 1;
}

/* ---- the MCU loop ---- */

/* Decodes a block's AC coefficients (into `block`, natural order, when not NULL). Returns 0 on bad data. With
 * `largest`, the largest size in bits of a coefficient (0 when every AC coefficient is 0). Always inlined, so that
 * each caller gets its own copy and tv_decode_ac's, where `largest` is NULL, does no work for it. */
static inline __attribute__((always_inline)) int tv_decode_ac_sized(struct tv_bits *b, const struct tv_huffman *ac,
                                                                   JCOEF *block, int *largest) {
    int most = 0;
    for (int k = 1; k < 64; k++) {
        int rs = tv_bits_decode(b, ac);
        if (rs < 0) return 0;
        int r = rs >> 4, size = rs & 15;
        if (size) {
            k += r;
            if (k > 63 || size > 10) return 0;
            uint32_t bits = tv_bits_take(b, size);
            if (block != NULL) block[tv_natural_order[k]] = (JCOEF)tv_extend(bits, size);
            most = size > most ? size : most;
        } else {
            if (r != 15) break;
            k += 15;
            if (k >= 63) return 0;
        }
    }
    if (largest != NULL) *largest = most;
    return 1;
}

static int tv_decode_ac(struct tv_bits *b, const struct tv_huffman *ac, JCOEF *block) {
    return tv_decode_ac_sized(b, ac, block, NULL);
}

/* Decodes one block (into `block`, natural order, when not NULL). Returns 0 on bad data. */
static inline int tv_decode_block(struct tv_bits *b, const struct tv_huffman *dc, const struct tv_huffman *ac,
                                  int16_t *predictor, JCOEF *block) {
    int s = tv_bits_decode(b, dc);
    if (s < 0 || s > 11) return 0;
    int32_t value = *predictor + tv_extend(tv_bits_take(b, s), s);
    /* The DC of 8-bit samples lies in [-1024, 1016] at any quantisation: a value beyond is damage (libjpeg
     * decodes it anyway), and a crop's new DC differences could not be Huffman-coded again. */
    if (value < -1024 || value > 1023) return 0;
    *predictor = (int16_t)value;
    if (block != NULL) block[0] = (JCOEF)value;
    return tv_decode_ac(b, ac, block);
}

struct tv_mcu_state {
    uint32_t restarts_left;
    int next_restart;
    int16_t dc[TV_INDEX_MAX_COMPONENTS];
};

/* Decodes one MCU; `blocks` (when not NULL) holds where each of its blocks_per_mcu blocks goes, in scan order. */
static int tv_decode_mcu(const struct tv_jpeg_index *x, struct tv_bits *b, struct tv_mcu_state *s,
                         JCOEF *const *blocks) {
    if (x->restart_interval) {
        if (s->restarts_left == 0) {
            if (!tv_bits_restart(b, s->next_restart)) return 0;
            s->next_restart = (s->next_restart + 1) & 7;
            s->restarts_left = x->restart_interval;
            memset(s->dc, 0, sizeof s->dc);
        }
        s->restarts_left--;
    }
    int n = 0;
    for (int c = 0; c < x->components; c++) {
        int count = x->components == 1 ? 1 : x->h[c] * x->v[c];
        for (int i = 0; i < count; i++, n++) {
            JCOEF *block = blocks != NULL ? blocks[n] : NULL;
            if (block != NULL) memset(block, 0, sizeof(JBLOCK));
            if (!tv_decode_block(b, &x->dc[x->dc_table[c]], &x->ac[x->ac_table[c]], &s->dc[c], block)) return 0;
        }
    }
    return b->count >= b->zeros;
}

static void tv_entry_store(struct tv_index_entry *e, const struct tv_bits *b, const struct tv_mcu_state *s,
                           int *ok) {
    size_t byte;
    int bit;
    if (!tv_bits_position(b, &byte, &bit) || byte > UINT32_MAX) {
        *ok = 0;
        return;
    }
    e->byte = (uint32_t)byte;
    e->bit = (uint8_t)bit;
    e->restarts_left = (uint16_t)s->restarts_left;
    e->next_restart = (uint8_t)s->next_restart;
    for (int c = 0; c < TV_INDEX_MAX_COMPONENTS; c++) e->dc[c] = s->dc[c];
}

static void tv_entry_load(const struct tv_index_entry *e, struct tv_bits *b, struct tv_mcu_state *s, size_t base) {
    tv_bits_seek(b, e->byte - base, e->bit);
    s->restarts_left = e->restarts_left;
    s->next_restart = e->next_restart;
    for (int c = 0; c < TV_INDEX_MAX_COMPONENTS; c++) s->dc[c] = e->dc[c];
}

/* ---- parsing the header ---- */

static uint32_t tv_be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* Parses the markers up to the SOS; fills the geometry and tables, returns the offset of the first
 * entropy-coded byte, or 0 with a reason. */
static size_t tv_index_parse(struct tv_jpeg_index *x, const uint8_t *data, size_t length, const char **why) {
    *why = "not a JPEG";
    if (length < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    size_t p = 2;
    int frame = 0;
    while (p + 4 <= length) {
        if (data[p] != 0xFF) {
            *why = "bytes between markers";
            return 0;
        }
        uint8_t marker = data[p + 1];
        if (marker == 0xFF) {
            p++;
            continue;
        }
        size_t size = tv_be16(data + p + 2);
        if (size < 2 || p + 2 + size > length) {
            *why = "a marker segment runs past the end";
            return 0;
        }
        const uint8_t *s = data + p + 4;
        size_t n = size - 2;
        if (marker == 0xC0 || marker == 0xC1) {
            if (n < 6 || s[0] != 8) {
                *why = "not 8-bit samples";
                return 0;
            }
            x->height = tv_be16(s + 1);
            x->width = tv_be16(s + 3);
            x->components = s[5];
            if ((x->components != 1 && x->components != 3) || n < 6 + 3 * (size_t)x->components || x->width == 0 ||
                x->height == 0) {
                *why = "not 1 or 3 components of a known size";
                return 0;
            }
            for (int c = 0; c < x->components; c++) {
                x->id[c] = s[6 + 3 * c];
                x->h[c] = s[7 + 3 * c] >> 4;
                x->v[c] = s[7 + 3 * c] & 15;
                if (x->h[c] < 1 || x->h[c] > 4 || x->v[c] < 1 || x->v[c] > 4) {
                    *why = "bad sampling factors";
                    return 0;
                }
            }
            frame = 1;
        } else if (marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE) {
            *why = "a progressive JPEG (its coefficients come in several scans)";
            return 0;
        } else if (marker >= 0xC9 && marker <= 0xCF && marker != 0xCC) {
            *why = "arithmetic coding";
            return 0;
        } else if (marker >= 0xC3 && marker <= 0xC7 && marker != 0xC4) {
            *why = "not a baseline or extended sequential Huffman JPEG";
            return 0;
        } else if (marker == 0xCC) {
            *why = "arithmetic coding";
            return 0;
        } else if (marker == 0xC4) {
            size_t q = 0;
            while (q + 17 <= n) {
                int klass = s[q] >> 4, id = s[q] & 15;
                uint8_t counts[17] = {0};
                int total = 0;
                for (int i = 1; i <= 16; i++) total += counts[i] = s[q + i];
                if (klass > 1 || id > 3 || q + 17 + (size_t)total > n ||
                    !tv_huffman_build(klass == 0 ? &x->dc[id] : &x->ac[id], counts, s + q + 17, total)) {
                    *why = "a bad Huffman table";
                    return 0;
                }
                q += 17 + (size_t)total;
            }
        } else if (marker == 0xDD) {
            if (n < 2) {
                *why = "a bad DRI segment";
                return 0;
            }
            x->restart_interval = tv_be16(s);
        } else if (marker == 0xDA) {
            if (!frame || n < 1 || s[0] != x->components || n < 4 + 2 * (size_t)x->components) {
                *why = "not one interleaved scan";
                return 0;
            }
            for (int c = 0; c < x->components; c++) {
                /* Components in frame order only (libjpeg allows others; not worth the table here). */
                if (s[1 + 2 * c] != x->id[c]) {
                    *why = "the scan's components are not in frame order";
                    return 0;
                }
                x->dc_table[c] = s[2 + 2 * c] >> 4;
                x->ac_table[c] = s[2 + 2 * c] & 15;
                if (x->dc_table[c] > 3 || x->ac_table[c] > 3 || !x->dc[x->dc_table[c]].defined ||
                    !x->ac[x->ac_table[c]].defined) {
                    *why = "a scan uses an undefined Huffman table";
                    return 0;
                }
            }
            const uint8_t *t = s + 1 + 2 * x->components;
            if (t[0] != 0 || t[1] != 63 || t[2] != 0) {
                *why = "not a sequential scan";
                return 0;
            }
            return p + 2 + size;
        } else if (marker == 0xD8 || marker == 0xD9 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            *why = "a stray marker in the header";
            return 0;
        }
        p += 2 + size;
    }
    *why = "no scan";
    return 0;
}

/* ---- building ---- */

/* Builds the index over `fd`, which it owns from here on (closed with the index, also on failure). */
static tv_status tv_jpeg_index_build_owned(int fd, tv_jpeg_index **out, tv_error *err);

static tv_status tv_index_header_check(const uint8_t *header, size_t length, tv_error *err);

/* Why an index of the parsed header `x` whose header is `header_length` bytes is not made (NULL: it is): past
 * TV_JPEG_INDEX_MAX_HEADER or TV_JPEG_INDEX_MAX_ENTRIES. After tv_index_geometry. */
static const char *tv_index_past_limits(const struct tv_jpeg_index *x, size_t header_length) {
    if (header_length > TV_JPEG_INDEX_MAX_HEADER) return "a header longer than 4 MiB before its scan";
    if ((uint64_t)x->steps * x->mcus_y * sizeof(struct tv_index_entry) > TV_JPEG_INDEX_MAX_ENTRIES) {
        return "too many MCUs to index (their entries would take more than 16 MiB)";
    }
    return NULL;
}

/* The MCU geometry of a parsed header: 0 when an MCU has more than 10 blocks. */
static int tv_index_geometry(struct tv_jpeg_index *x) {
    int hmax = 1, vmax = 1;
    x->blocks_per_mcu = 0;
    for (int c = 0; c < x->components; c++) {
        if (x->h[c] > hmax) hmax = x->h[c];
        if (x->v[c] > vmax) vmax = x->v[c];
        x->blocks_per_mcu += x->components == 1 ? 1 : x->h[c] * x->v[c];
    }
    if (x->blocks_per_mcu > 10) return 0;
    x->mcu_width = x->components == 1 ? 8 : 8u * (uint32_t)hmax;
    x->mcu_height = x->components == 1 ? 8 : 8u * (uint32_t)vmax;
    x->mcus_x = (x->width + x->mcu_width - 1) / x->mcu_width;
    x->mcus_y = (x->height + x->mcu_height - 1) / x->mcu_height;
    x->steps = (x->mcus_x + TV_INDEX_STEP - 1) / TV_INDEX_STEP + 1;
    return 1;
}

size_t tv_jpeg_index_fixed_bytes(void) { return sizeof(struct tv_jpeg_index); }

tv_status tv_jpeg_index_build(const char *path, tv_jpeg_index **out, tv_error *err) {
    *out = NULL;
    int fd = tv_open_regular(path, err);
    if (fd < 0) return TV_ERR_IO;
    return tv_jpeg_index_build_owned(fd, out, err);
}

tv_status tv_jpeg_index_build_descriptor(int fd, tv_jpeg_index **out, tv_error *err) {
    *out = NULL;
    int copy = tv_dup_regular(fd, err);
    if (copy < 0) return TV_ERR_IO;
    return tv_jpeg_index_build_owned(copy, out, err);
}

static tv_status tv_jpeg_index_build_owned(int fd, tv_jpeg_index **out, tv_error *err) {
    *out = NULL;
    struct tv_jpeg_index *x = calloc(1, sizeof *x);
    if (x == NULL) {
        close(fd);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    x->fd = fd;
    uint8_t *data = NULL;
    tv_status status = TV_OK;
    const char *why = NULL;
    struct stat info;
    if (fstat(x->fd, &info) != 0) {
        status = tv_fail(err, TV_ERR_IO, strerror(errno));
        goto done;
    }
    long long end = (long long)info.st_size;
    if (end <= 0) {
        status = tv_fail(err, TV_ERR_UNSUPPORTED, "the file is empty");
        goto done;
    }
    if ((unsigned long long)end > TV_JPEG_INDEX_MAX_FILE) {
        status = tv_fail(err, TV_ERR_UNSUPPORTED, "larger than 64 MiB");
        goto done;
    }
    x->file_length = (size_t)end;
    /* The first window; a header that does not fit in it (large APP segments) is read again in the largest. */
    size_t window = x->file_length < TV_INDEX_WINDOW ? x->file_length : TV_INDEX_WINDOW;
    const size_t largest = x->file_length < TV_JPEG_INDEX_MAX_HEADER ? x->file_length : TV_JPEG_INDEX_MAX_HEADER;
    size_t scan = 0;
    for (;;) {
        data = malloc(window);
        if (data == NULL) {
            status = tv_fail(err, TV_ERR_NOMEM, "out of memory");
            goto done;
        }
        if (pread(x->fd, data, window, 0) != (ssize_t)window) {
            status = tv_fail(err, TV_ERR_IO, "the file could not be read");
            goto done;
        }
        scan = tv_index_parse(x, data, window, &why);
        if (scan != 0 || window >= largest) break;
        free(data);
        data = NULL;
        window = largest;
    }
    /* Out of bytes before the scan, with more of the file to come: the header is past the limit. */
    if (scan == 0 && window < x->file_length &&
        (strcmp(why, "no scan") == 0 || strcmp(why, "a marker segment runs past the end") == 0)) {
        why = "a header longer than 4 MiB before its scan";
    }
    if (scan == 0) {
        status = tv_fail(err, TV_ERR_UNSUPPORTED, why);
        goto done;
    }
    if (!tv_index_geometry(x)) {
        status = tv_fail(err, TV_ERR_UNSUPPORTED, "more than 10 blocks in an MCU");
        goto done;
    }
    why = tv_index_past_limits(x, scan);
    if (why != NULL) {
        status = tv_fail(err, TV_ERR_UNSUPPORTED, why);
        goto done;
    }
    x->header_length = scan;
    x->header = malloc(scan);
    x->entries = calloc((size_t)x->steps * x->mcus_y, sizeof *x->entries);
    if (x->header == NULL || x->entries == NULL) {
        status = tv_fail(err, TV_ERR_NOMEM, "out of memory");
        goto done;
    }
    memcpy(x->header, data, scan);
    status = tv_index_header_check(x->header, x->header_length, err);
    if (status != TV_OK) goto done;

    struct tv_bits b = {data, data + scan, data + window, 0, 0, 0, 0};
    struct tv_mcu_state s = {x->restart_interval, 0, {0, 0, 0}};
    int ok = 1;
    size_t have = window; /* bytes of the file in `data`, from file offset b.base */
    for (uint32_t row = 0; row < x->mcus_y && ok; row++) {
        struct tv_index_entry *entries = x->entries + (size_t)row * x->steps;
        for (uint32_t column = 0; column < x->mcus_x && ok; column++) {
            if ((size_t)(b.end - b.p) < TV_INDEX_MARGIN && b.base + have < x->file_length) {
                /* Slide the window: keep 32 bytes behind the read position (a position looks back over the bytes
                 * in the bit buffer, at most 8, each at most 2 with stuffing), read on after what is kept. */
                size_t from = (size_t)(b.p - data) > 32 ? (size_t)(b.p - data) - 32 : 0;
                size_t kept = have - from;
                memmove(data, data + from, kept);
                size_t want = window - kept;
                if (b.base + have + want > x->file_length) want = x->file_length - b.base - have;
                if (pread(x->fd, data + kept, want, (off_t)(b.base + have)) != (ssize_t)want) {
                    status = tv_fail(err, TV_ERR_IO, "the file could not be read");
                    goto done;
                }
                b.p -= from;
                b.base += from;
                have = kept + want;
                b.end = data + have;
            }
            if (column % TV_INDEX_STEP == 0) tv_entry_store(&entries[column / TV_INDEX_STEP], &b, &s, &ok);
            if (ok) ok = tv_decode_mcu(x, &b, &s, NULL);
        }
        if (ok) tv_entry_store(&entries[x->steps - 1], &b, &s, &ok);
    }
    /* The scan must end in padding and the EOI, as a clean file does. */
    if (ok && (b.count - b.zeros >= 8 || b.p + 1 >= b.end || b.p[0] != 0xFF || b.p[1] != 0xD9)) ok = 0;
    if (!ok) status = tv_fail(err, TV_ERR_CORRUPT, "the entropy-coded data is not clean");

done:
    free(data);
    if (status != TV_OK) {
        tv_jpeg_index_free(x);
        return status;
    }
    *out = x;
    return TV_OK;
}

/* The saved layout: "TVJX", the entry size, then (little-endian 64-bit) the file's length, the header's length,
 * the entries' count; the header's bytes, then the entries as this build lays them out. */
static const uint8_t tv_index_magic[4] = {'T', 'V', 'J', 'X'};

static void tv_put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t tv_get64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

tv_status tv_jpeg_index_save(const tv_jpeg_index *x, uint8_t **out, size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    size_t count = (size_t)x->steps * x->mcus_y;
    size_t length = 4 + 8 * 4 + x->header_length + count * sizeof *x->entries;
    uint8_t *bytes = malloc(length);
    if (bytes == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    memcpy(bytes, tv_index_magic, 4);
    tv_put64(bytes + 4, sizeof *x->entries);
    tv_put64(bytes + 12, x->file_length);
    tv_put64(bytes + 20, x->header_length);
    tv_put64(bytes + 28, count);
    memcpy(bytes + 36, x->header, x->header_length);
    memcpy(bytes + 36 + x->header_length, x->entries, count * sizeof *x->entries);
    *out = bytes;
    *out_length = length;
    return TV_OK;
}

tv_status tv_jpeg_index_load(int fd, const uint8_t *bytes, size_t length, tv_jpeg_index **out, tv_error *err) {
    *out = NULL;
    if (length < 36 || memcmp(bytes, tv_index_magic, 4) != 0 || tv_get64(bytes + 4) != sizeof(struct tv_index_entry)) {
        return tv_fail(err, TV_ERR_CORRUPT, "not a saved index of this layout");
    }
    uint64_t file_length = tv_get64(bytes + 12), header_length = tv_get64(bytes + 20), count = tv_get64(bytes + 28);
    if (header_length == 0 || header_length > length - 36 ||
        count != (length - 36 - header_length) / sizeof(struct tv_index_entry) ||
        (length - 36 - header_length) % sizeof(struct tv_index_entry) != 0) {
        return tv_fail(err, TV_ERR_CORRUPT, "a saved index of the wrong length");
    }
    int copy = tv_dup_regular(fd, err);
    if (copy < 0) return TV_ERR_IO;
    struct tv_jpeg_index *x = calloc(1, sizeof *x);
    if (x == NULL) {
        close(copy);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    x->fd = copy;
    struct stat info;
    const char *why = NULL;
    tv_status status = TV_ERR_CORRUPT;
    if (fstat(copy, &info) != 0 || (uint64_t)info.st_size != file_length || file_length > UINT32_MAX) {
        tv_fail(err, status, "a saved index of another file");
        goto fail;
    }
    x->file_length = (size_t)file_length;
    x->header_length = (size_t)header_length;
    x->header = malloc(x->header_length);
    if (x->header == NULL) {
        status = tv_fail(err, TV_ERR_NOMEM, "out of memory");
        goto fail;
    }
    memcpy(x->header, bytes + 36, x->header_length);
    if (tv_index_parse(x, x->header, x->header_length, &why) != x->header_length) {
        tv_fail(err, status, why);
        goto fail;
    }
    if (!tv_index_geometry(x) || (uint64_t)x->steps * x->mcus_y != count) {
        tv_fail(err, status, "a saved index whose header does not match its entries");
        goto fail;
    }
    why = tv_index_past_limits(x, x->header_length);
    if (why != NULL) {
        tv_fail(err, status, why);
        goto fail;
    }
    status = tv_index_header_check(x->header, x->header_length, err);
    if (status != TV_OK) goto fail;
    status = TV_ERR_CORRUPT;
    x->entries = malloc((size_t)count * sizeof *x->entries);
    if (x->entries == NULL) {
        status = tv_fail(err, TV_ERR_NOMEM, "out of memory");
        goto fail;
    }
    memcpy(x->entries, bytes + 36 + header_length, (size_t)count * sizeof *x->entries);
    /* Every row's offsets in order, after the header and within the file; bits and restarts in range. */
    for (uint32_t row = 0; row < x->mcus_y; row++) {
        const struct tv_index_entry *e = x->entries + (size_t)row * x->steps;
        for (uint32_t k = 0; k < x->steps; k++) {
            if (e[k].byte < x->header_length || e[k].byte > x->file_length || e[k].bit > 7 ||
                (k > 0 && e[k].byte < e[k - 1].byte) || e[k].next_restart > 7) {
                tv_fail(err, status, "a saved index with an entry outside the file");
                goto fail;
            }
        }
    }
    *out = x;
    return TV_OK;
fail:
    tv_jpeg_index_free(x);
    return status;
}

void tv_jpeg_index_free(tv_jpeg_index *x) {
    if (x == NULL) return;
    if (x->fd >= 0) close(x->fd);
    free(x->header);
    free(x->entries);
    free(x);
}

void tv_jpeg_index_describe(const tv_jpeg_index *x, tv_jpeg_index_geometry *g) {
    g->width = x->width;
    g->height = x->height;
    g->mcu_width = x->mcu_width;
    g->mcu_height = x->mcu_height;
    g->mcus_x = x->mcus_x;
    g->mcus_y = x->mcus_y;
    g->bytes = sizeof *x + x->header_length + (size_t)x->steps * x->mcus_y * sizeof *x->entries;
}

/* ---- cropping ---- */

struct tv_index_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    tv_status status; /* what the jump reports: libjpeg's error sorted by tv_jpeg_status_of, or the caller's */
    char message[JMSG_LENGTH_MAX];
    unsigned char *output; /* jpeg_mem_dest's buffer (libjpeg may move it; freed on an error) */
    unsigned long output_length;
    uint8_t *scratch; /* the file bytes of one MCU row's part */
    size_t scratch_size;
};

static void tv_index_error_exit(j_common_ptr cinfo) {
    struct tv_index_error *e = (struct tv_index_error *)cinfo->err;
    e->status = tv_jpeg_status_of(cinfo->err->msg_code, TV_ERR_CORRUPT);
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

static void tv_index_quiet(j_common_ptr cinfo) { (void)cinfo; }

/* A transcode: a decompressor reading a stream and a compressor writing its coefficients, sharing one error manager
 * that jumps to `jerr.jump` (the caller's setjmp) and says nothing. `created` says whether the two exist yet. */
struct tv_transcoder {
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct target;
    struct tv_index_error jerr;
    volatile int created;
    /* A TIFF's stored tile may be progressive: its scans are counted. */
    struct {
        struct jpeg_progress_mgr pub; /* first: libjpeg calls the monitor through source.progress */
        struct tv_jpeg_scan_count count;
    } scans;
};

/* Stops a transcode whose source's scans go over its blocks more than TV_JPEG_MAX_PASSES times (a stored tile of
 * 2,647 valid scans, or of scans repeated without end: jpeg_read_coefficients reads them all). */
static void tv_transcoder_monitor(j_common_ptr common) {
    struct tv_transcoder *t = (struct tv_transcoder *)((char *)common->progress - offsetof(struct tv_transcoder, scans));
    if (!tv_jpeg_scans_past_limit(&t->source, &t->scans.count, t->jerr.message, sizeof t->jerr.message)) return;
    t->jerr.status = TV_ERR_UNSUPPORTED;
    longjmp(t->jerr.jump, 1);
}

/* Everything cleared, the error manager in place, no output yet: then the caller's setjmp. */
static void tv_transcoder_prepare(struct tv_transcoder *t) {
    memset(t, 0, sizeof *t);
    t->jerr.status = TV_ERR_CORRUPT;
    t->source.err = jpeg_std_error(&t->jerr.pub);
    t->target.err = &t->jerr.pub;
    t->jerr.pub.error_exit = tv_index_error_exit;
    t->jerr.pub.output_message = tv_index_quiet;
}

/* After the setjmp: creates the two and reads the header of the `length` bytes at `stream` (which may jump). */
static void tv_transcoder_open(struct tv_transcoder *t, const uint8_t *stream, size_t length, boolean whole_image) {
    jpeg_create_decompress(&t->source);
    jpeg_create_compress(&t->target);
    t->created = 1;
    t->scans.pub.progress_monitor = tv_transcoder_monitor;
    t->source.progress = &t->scans.pub;
    jpeg_mem_src(&t->source, stream, (unsigned long)length);
    jpeg_read_header(&t->source, whole_image);
}

/* After the jump of an error: releases what the transcode made (the two objects when `created`, the output and
 * the scratch) and reports the error. */
static tv_status tv_transcoder_failed(struct tv_transcoder *t, tv_error *err) {
    if (t->created) {
        jpeg_destroy_compress(&t->target);
        jpeg_destroy_decompress(&t->source);
    }
    free(t->jerr.output);
    free(t->jerr.scratch);
    return tv_fail(err, t->jerr.status, t->jerr.message);
}

/* After the compressor finished: releases the two and the scratch and hands the output over. */
static tv_status tv_transcoder_done(struct tv_transcoder *t, uint8_t **out, size_t *out_length) {
    jpeg_destroy_compress(&t->target);
    jpeg_destroy_decompress(&t->source);
    free(t->jerr.scratch);
    *out = t->jerr.output;
    *out_length = t->jerr.output_length;
    return TV_OK;
}

/* A warning's text kept (the first one's) instead of printed; libjpeg's emit_message counts them. */
static void tv_index_first_warning(j_common_ptr cinfo) {
    struct tv_index_error *e = (struct tv_index_error *)cinfo->err;
    if (e->message[0] == 0) (*cinfo->err->format_message)(cinfo, e->message);
}

/* The header as libjpeg's own decoder takes it, to the start of the scan: an error, or a warning (a strict decode
 * stops at the first), refuses the file here too, so that the index never serves what a decode of the file refuses
 * (an unknown JFIF revision; a DC table with a symbol over 15, which libjpeg's start refuses). */
static tv_status tv_index_header_check(const uint8_t *header, size_t length, tv_error *err) {
    struct tv_transcoder t;
    tv_transcoder_prepare(&t);
    t.jerr.pub.output_message = tv_index_first_warning;
    if (setjmp(t.jerr.jump)) {
        if (t.jerr.status != TV_ERR_NOMEM) t.jerr.status = TV_ERR_UNSUPPORTED;
        return tv_transcoder_failed(&t, err);
    }
    tv_transcoder_open(&t, header, length, TRUE);
    /* At 1/8 the start allocates least; its tables are checked at any scale. */
    t.source.scale_num = 1;
    t.source.scale_denom = 8;
    jpeg_start_decompress(&t.source);
    if (t.jerr.pub.num_warnings > 0) longjmp(t.jerr.jump, 1);
    jpeg_destroy_compress(&t.target);
    jpeg_destroy_decompress(&t.source);
    return TV_OK;
}

/* The target's coefficient arrays for its image size and sampling, one per component, sized as jpegtran sizes them
 * (whole iMCUs), realized. */
static void tv_transcoder_arrays(j_compress_ptr target, jvirt_barray_ptr *arrays) {
    int hmax = 1, vmax = 1;
    for (int c = 0; c < target->num_components; c++) {
        if (target->comp_info[c].h_samp_factor > hmax) hmax = target->comp_info[c].h_samp_factor;
        if (target->comp_info[c].v_samp_factor > vmax) vmax = target->comp_info[c].v_samp_factor;
    }
    for (int c = 0; c < target->num_components; c++) {
        int h = target->comp_info[c].h_samp_factor, v = target->comp_info[c].v_samp_factor;
        JDIMENSION w = (JDIMENSION)(((unsigned long)target->image_width * h + (unsigned long)hmax * 8 - 1) /
                                    ((unsigned long)hmax * 8));
        JDIMENSION ht = (JDIMENSION)(((unsigned long)target->image_height * v + (unsigned long)vmax * 8 - 1) /
                                     ((unsigned long)vmax * 8));
        JDIMENSION wide = (w + h - 1) / h * h, tall = (ht + v - 1) / v * v;
        arrays[c] = (*target->mem->request_virt_barray)((j_common_ptr)target, JPOOL_IMAGE, TRUE, wide, tall,
                                                         (JDIMENSION)v);
    }
    (*target->mem->realize_virt_arrays)((j_common_ptr)target);
}

/* Decodes MCU row `row`, columns [x0, x1), into `lines` (per component, its block rows of that MCU row; blocks
 * land at column (MCU - x0) * h + within). Returns 1, 0 on bad data or a short read, -1 out of memory. */
static int tv_index_decode_row(const tv_jpeg_index *x, uint32_t row, uint32_t x0, uint32_t x1,
                               JBLOCKARRAY lines[TV_INDEX_MAX_COMPONENTS], uint8_t **scratch, size_t *scratch_size) {
    const struct tv_index_entry *entries = x->entries + (size_t)row * x->steps;
    uint32_t first = x0 / TV_INDEX_STEP;
    uint32_t last = (x1 + TV_INDEX_STEP - 1) / TV_INDEX_STEP;
    if (last > x->steps - 1) last = x->steps - 1;
    /* The bytes from the first entry to just past the last one (a restart marker may follow it). */
    size_t from = entries[first].byte;
    size_t to = (size_t)entries[last].byte + 8;
    if (to > x->file_length) to = x->file_length;
    size_t size = to - from;
    if (size > *scratch_size) {
        uint8_t *grown = realloc(*scratch, size);
        if (grown == NULL) return -1;
        *scratch = grown;
        *scratch_size = size;
    }
    if (pread(x->fd, *scratch, size, (off_t)from) != (ssize_t)size) return 0;
    struct tv_bits b = {*scratch, *scratch, *scratch + size, 0, 0, 0};
    struct tv_mcu_state s;
    tv_entry_load(&entries[first], &b, &s, from);
    JCOEF *blocks[10];
    for (uint32_t column = first * TV_INDEX_STEP; column < x1; column++) {
        if (column < x0) {
            if (!tv_decode_mcu(x, &b, &s, NULL)) return 0;
            continue;
        }
        int n = 0;
        for (int c = 0; c < x->components; c++) {
            int bh = x->components == 1 ? 1 : x->h[c], bv = x->components == 1 ? 1 : x->v[c];
            for (int v = 0; v < bv; v++) {
                for (int h = 0; h < bh; h++) blocks[n++] = lines[c][v][(column - x0) * (uint32_t)bh + (uint32_t)h];
            }
        }
        if (!tv_decode_mcu(x, &b, &s, blocks)) return 0;
    }
    return 1;
}

tv_status tv_jpeg_index_crop(const tv_jpeg_index *x, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                             const uint8_t *icc, size_t icc_length, uint8_t **jpeg, size_t *jpeg_length,
                             tv_error *err) {
    *jpeg = NULL;
    *jpeg_length = 0;
    if (x == NULL || x0 >= x1 || y0 >= y1 || x1 > x->mcus_x || y1 > x->mcus_y) {
        return tv_fail(err, TV_ERR_ARG, "the MCU rect lies outside the image");
    }
    uint32_t left = x0 * x->mcu_width, top = y0 * x->mcu_height;
    uint32_t right = x1 * x->mcu_width, bottom = y1 * x->mcu_height;
    if (right > x->width) right = x->width;
    if (bottom > x->height) bottom = x->height;

    struct tv_transcoder t;
    tv_transcoder_prepare(&t);
    if (setjmp(t.jerr.jump)) return tv_transcoder_failed(&t, err);
    tv_transcoder_open(&t, x->header, x->header_length, FALSE);
    jpeg_copy_critical_parameters(&t.source, &t.target);
    t.target.image_width = right - left;
    t.target.image_height = bottom - top;
    jpeg_mem_dest(&t.target, &t.jerr.output, &t.jerr.output_length);

    /* One array per component, sized as jpegtran sizes them (whole iMCUs): exactly the MCUs' blocks here. */
    jvirt_barray_ptr arrays[TV_INDEX_MAX_COMPONENTS];
    tv_transcoder_arrays(&t.target, arrays);
    /* Each MCU row's blocks go straight into the arrays: an interleaved scan's MCU row is v block rows of
     * each component (a one-component scan's is one block row). */
    for (uint32_t row = y0; row < y1; row++) {
        JBLOCKARRAY lines[TV_INDEX_MAX_COMPONENTS];
        for (int c = 0; c < x->components; c++) {
            JDIMENSION bv = x->components == 1 ? 1 : (JDIMENSION)x->v[c];
            lines[c] = (*t.target.mem->access_virt_barray)((j_common_ptr)&t.target, arrays[c], (row - y0) * bv, bv,
                                                           TRUE);
        }
        int decoded = tv_index_decode_row(x, row, x0, x1, lines, &t.jerr.scratch, &t.jerr.scratch_size);
        if (decoded <= 0) {
            t.jerr.status = decoded < 0 ? TV_ERR_NOMEM : TV_ERR_IO;
            snprintf(t.jerr.message, sizeof t.jerr.message, "%s",
                     decoded < 0 ? "out of memory" : "the file changed since it was indexed");
            longjmp(t.jerr.jump, 1);
        }
    }
    jpeg_write_coefficients(&t.target, arrays);
    if (icc != NULL && icc_length > 0 && icc_length <= TV_ICC_MAX_BYTES) {
        jpeg_write_icc_profile(&t.target, icc, (unsigned int)icc_length);
    }
    jpeg_finish_compress(&t.target);
    return tv_transcoder_done(&t, jpeg, jpeg_length);
}

tv_status tv_jpeg_cut(const uint8_t *jpeg, size_t length, uint32_t width, uint32_t height, uint32_t max_side,
                      uint8_t **out, size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    struct tv_transcoder t;
    tv_transcoder_prepare(&t);
    if (setjmp(t.jerr.jump)) return tv_transcoder_failed(&t, err);
    tv_transcoder_open(&t, jpeg, length, TRUE);
    /* The stream's own size bounds the coefficients read whole below: no larger than `max_side` a side (a file's
     * stream may claim any size). */
    if (width == 0 || height == 0 || width > t.source.image_width || height > t.source.image_height ||
        t.source.image_width > max_side || t.source.image_height > max_side ||
        t.source.num_components > TV_INDEX_MAX_COMPONENTS) {
        snprintf(t.jerr.message, sizeof t.jerr.message, "a cut of %ux%u from a %ux%u stream of %d components", width,
                 height, t.source.image_width, t.source.image_height, t.source.num_components);
        longjmp(t.jerr.jump, 1);
    }
    jvirt_barray_ptr *from = jpeg_read_coefficients(&t.source);
    jpeg_copy_critical_parameters(&t.source, &t.target);
    t.target.image_width = width;
    t.target.image_height = height;
    jpeg_mem_dest(&t.target, &t.jerr.output, &t.jerr.output_length);
    /* The source's arrays are written as they are, as jpegtran writes a crop from the origin: the target reads the
     * blocks of its smaller size from the same places, and no second copy of the coefficients is made. */
    jpeg_write_coefficients(&t.target, from);
    jpeg_finish_compress(&t.target);
    jpeg_finish_decompress(&t.source);
    return tv_transcoder_done(&t, out, out_length);
}

/* ---- the 1/8 scale, decoded by parts ----
 *
 * libjpeg's 1/8 decode of a baseline JPEG is one entropy pass: every coefficient is decoded, then each luma block
 * gives one sample (its DC: a 1x1 inverse DCT) and each 4:2:0 chroma block four (a 2x2 inverse DCT). The pass is
 * serial because a scan has no way in but the top. Here it is split into parts decoded at once. Part 0 starts at
 * the scan's start; every other part starts at a byte in the middle as if an MCU began there (with restart
 * markers: just after one, where one does begin). A Huffman decoder started in the wrong place falls into step
 * with the file's own MCUs after a few of them in practice: each part goes on past its end until an MCU of its
 * begins at a bit where the next part began one, and from there the next part's MCUs are the file's (the same
 * bit, the same state: the same decoding). What the next part cannot know is how many MCUs came before and the
 * DC predictors' values: its DCs are kept relative to its start, and both come from the part before, at that
 * bit. A part that never falls into step is decoded through by the part before (serial, never wrong). The
 * samples are then made as libjpeg-turbo makes them (jidctred.c's 1x1 and 2x2 transforms, jdcolor.c's YCbCr
 * conversion, no upsampling filter at 1/8), byte for byte. Whatever this does not reproduce exactly (damage, stray
 * bytes, other layouts, a chroma block where libjpeg-turbo's SIMD and C 2x2 transforms differ) gives NULL or 0,
 * and libjpeg decodes the file instead. */

/* A 4:2:0 chroma block's share of its 2x2 samples, without its DC: sample (r, c) is the range limit of bits 5 to
 * 14 of DC * q * 4 + share[r][c], in 32-bit arithmetic (see tv_chroma_terms_of). `largest` is the largest odd part
 * (each pass's), or TV_CHROMA_INEXACT when the block is outside the range in which libjpeg-turbo's SIMD 2x2
 * transform and its C one agree (tv_chroma_exact). */
struct tv_chroma_terms {
    uint32_t share[2][2];
    uint32_t largest;
};

#define TV_CHROMA_INEXACT UINT32_MAX

struct tv_eighth_state {
    uint32_t restarts_left;
    int next_restart;
    int32_t dc[TV_INDEX_MAX_COMPONENTS];
};

/* A part's MCUs whose beginnings are kept, from its start: the part before must fall into step within them (in
 * practice it does within a few), or it decodes on through this part. */
#define TV_EIGHTH_SYNC 4096

struct tv_eighth_part {
    size_t from, to;  /* the part's share of the file's bytes (its own to read, when the plan reads the file) */
    size_t start;     /* where the part begins, a byte offset in the file (0: no start, the part is empty) */
    int read_failed;
    size_t count, capacity;
    uint64_t *at;     /* where each of the first TV_EIGHTH_SYNC MCUs began, in bits from the file's start */
    uint64_t *entry;  /* with keep_index, where every MCU's entry of the index lies: as `at`, but before a restart
                       * marker due ahead of it (the index keeps that state); UINT64_MAX where no position is */
    int16_t *dc;      /* each block's DC, blocks_per_mcu a MCU, relative to the part's first predictors, modulo 2^16
                       * (libjpeg keeps a coefficient as a 16-bit JCOEF: only that much of DC + offset counts) */
    struct tv_chroma_terms *chroma; /* 2 a MCU with 2x2 chroma */
    struct tv_bits bits;            /* the state after the last MCU */
    struct tv_eighth_state state;
    int out_of_memory;
};

/* One segment of the joined scan: MCUs [from, to) of a part are the file's MCUs base + from ... */
struct tv_eighth_segment {
    const struct tv_eighth_part *part;
    size_t from, to;
    int64_t base;
    int32_t offset[TV_INDEX_MAX_COMPONENTS]; /* added to the part's DCs (modulo 2^16) */
};

struct tv_eighth {
    struct tv_jpeg_index x; /* the scan's tables and geometry (no file, no entries) */
    struct tv_eighth_facts f;
    size_t scan;
    size_t have;            /* the bytes of the file the plan read (the header and more) */
    int32_t quant_most[TV_INDEX_MAX_COMPONENTS]; /* each table's largest |q| at the 2x2 transform's positions */
    int parts;
    struct tv_eighth_part *part;
    /* After the join: the segments in order, the rows being made, and the conversion's tables. */
    int segments;
    struct tv_eighth_segment *segment;
    uint8_t *rgba;
    int32_t cr_r[256], cb_b[256], cr_g[256], cb_g[256];
    uint8_t limit[1024], clamp[768];
    uint8_t *band;    /* each band's state, written by its own thread: 0 not made, 1 made, 2 stopped at a chroma
                       * block outside the range where the SIMD and C transforms agree */
};

/* FIX(x) of libjpeg's jidctred.c (CONST_BITS 13). */
#define TV_FIX_0_720959822 5906
#define TV_FIX_0_850430095 6967
#define TV_FIX_1_272758580 10426
#define TV_FIX_3_624509785 29692

/* The odd part of jidctred.c's 2x2 transform, over rows (or columns) 1, 3, 5, 7. */
static inline int64_t tv_odd_2x2(int64_t z1, int64_t z3, int64_t z5, int64_t z7) {
    return z7 * -TV_FIX_0_720959822 + z5 * TV_FIX_0_850430095 + z3 * -TV_FIX_1_272758580 + z1 * TV_FIX_3_624509785;
}

/* jidctred.c's 2x2 transform of a block, the DC left out. Its first pass gives row r of column 0 as
 * (int)((DC * q * 2^15 + odd0 +- ... + 2^12) >> 13), which is DC * q * 4 + column0[r] with column0 the AC's share;
 * the second gives sample (r, c) as ((ws0 * 2^15 +- odd[r] + 2^19) >> 20) & 1023 through the range limit, which is
 * ((ws0 + a) >> 5) & 1023 with a = (+-odd[r] + 2^19) >> 15 (the low 15 bits dropped cannot carry into bit 5).
 * Only bits 5 to 14 of ws0 + a count, so every term is kept modulo 2^32, as libjpeg's int ws0 is. */
static inline int64_t tv_abs64(int64_t v) { return v < 0 ? -v : v; }

/* libjpeg-turbo decodes a 2x2 block with SIMD where the processor has it (jidctred-sse2.asm): each coefficient
 * times its quantiser kept to 16 bits, sums in 32 bits, the first pass's odd columns saturated to 16 bits, the
 * samples saturated where the C transform wraps through its range-limit table. Within those ranges the two are the
 * same arithmetic, and a photo's blocks are far inside them; a block outside (only made-up data comes near) is
 * left to libjpeg, whichever transform it runs. */
static void tv_chroma_terms_of(const JCOEF *block, int size, const int16_t *q, int32_t q_most,
                               struct tv_chroma_terms *t) {
    /* Most chroma blocks have no AC term at all: then every share is (2^19 >> 15) and nothing can overflow. */
    if (size == 0) {
        t->share[0][0] = t->share[0][1] = t->share[1][0] = t->share[1][1] = 16;
        t->largest = 0;
        return;
    }
    /* The products the transform reads: rows and columns 0, 1, 3, 5 and 7 (z[i][j]: row 2i - 1, column 2j - 1, or
     * 0), the DC's excepted (checked with the DC). |coefficient| < 2^11 and |q| < 2^15: 32 bits hold them. */
    int32_t z[5][5];
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            int at = 8 * (i == 0 ? 0 : 2 * i - 1) + (j == 0 ? 0 : 2 * j - 1);
            z[i][j] = (int32_t)block[at] * q[at];
        }
    }
    /* Every AC product is below 2^size times the largest quantiser the transform reads. */
    const int32_t most = ((1 << size) - 1) * q_most;
    /* With every AC product within 3129, no sum of either pass can leave its range (3129 * (2^15 + 52991) < 2^31,
     * and its first pass's values < 2^15): the checks below are needed only past it. */
    int exact = 1;
    if (most > 3129) {
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 5; j++) exact &= (i | j) == 0 || (z[i][j] <= 32767 && z[i][j] >= -32767);
        }
    }
    int32_t ws[2][5];
    for (int j = 1; j < 5; j++) { /* columns 1, 3, 5, 7: the DC is in column 0 only */
        int64_t even = (int64_t)z[0][j] * 32768; /* << (CONST_BITS + 2) */
        int64_t odd = tv_odd_2x2(z[1][j], z[2][j], z[3][j], z[4][j]);
        for (int r = 0; r < 2; r++) {
            int64_t sum = r == 0 ? even + odd : even - odd;
            if (most > 3129) exact = exact && tv_abs64(sum) <= INT32_MAX && tv_abs64((sum + 4096) >> 13) <= 32767;
            ws[r][j] = (int32_t)((sum + 4096) >> 13);
        }
    }
    int64_t odd0 = tv_odd_2x2(z[1][0], z[2][0], z[3][0], z[4][0]);
    int64_t largest = tv_abs64(odd0);
    int64_t column0[2] = {(odd0 + 4096) >> 13, (-odd0 + 4096) >> 13};
    for (int r = 0; r < 2; r++) {
        int64_t odd = tv_odd_2x2(ws[r][1], ws[r][2], ws[r][3], ws[r][4]);
        if (tv_abs64(odd) > largest) largest = tv_abs64(odd);
        t->share[r][0] = (uint32_t)column0[r] + (uint32_t)((odd + (1 << 19)) >> 15);
        t->share[r][1] = (uint32_t)column0[r] + (uint32_t)((-odd + (1 << 19)) >> 15);
    }
    t->largest = exact && largest < INT32_MAX ? (uint32_t)largest : TV_CHROMA_INEXACT;
}

/* Whether a 2x2 block with these terms and `dcq` (its DC times its quantiser) lies where the SIMD and C transforms
 * agree (see tv_chroma_terms_of): the DC's product in 16 bits, and every 32-bit sum of both passes without overflow
 * (bounded through the largest odd part). Its samples must then be checked to lie within [-384, 383] before their
 * range limit (tv_eighth_rows). */
static inline int tv_chroma_exact(const struct tv_chroma_terms *t, int64_t dcq) {
    if (t->largest == TV_CHROMA_INEXACT || tv_abs64(dcq) > 32767) return 0;
    int64_t largest = t->largest;
    if (tv_abs64(dcq) * 32768 + largest > INT32_MAX) return 0;
    int64_t ws0 = tv_abs64(dcq) * 4 + ((largest + 4096) >> 13) + 1;
    return ws0 * 32768 + largest <= INT32_MAX;
}

static int tv_eighth_grow(struct tv_eighth *e, struct tv_eighth_part *p) {
    if (p->count < p->capacity) return 1;
    /* First a part's share of the frame's MCUs and a quarter more, then half as much again each time. */
    size_t share = (size_t)e->x.mcus_x * e->x.mcus_y / (size_t)e->parts;
    size_t capacity = p->capacity == 0 ? share + share / 4 + 64 : p->capacity + p->capacity / 2;
    uint64_t *at = p->at;
    if (p->capacity < TV_EIGHTH_SYNC) {
        at = realloc(p->at, (capacity < TV_EIGHTH_SYNC ? capacity : TV_EIGHTH_SYNC) * sizeof *at);
        if (at != NULL) p->at = at;
    }
    int16_t *dc = realloc(p->dc, capacity * (size_t)e->x.blocks_per_mcu * sizeof *dc);
    if (dc != NULL) p->dc = dc;
    struct tv_chroma_terms *chroma = p->chroma;
    if (e->f.chroma_2x2) {
        chroma = realloc(p->chroma, capacity * 2 * sizeof *chroma);
        if (chroma != NULL) p->chroma = chroma;
    }
    uint64_t *entry = p->entry;
    if (e->f.keep_index) {
        entry = realloc(p->entry, capacity * sizeof *entry);
        if (entry != NULL) p->entry = entry;
    }
    if (at == NULL || dc == NULL || (e->f.chroma_2x2 && chroma == NULL) || (e->f.keep_index && entry == NULL)) {
        p->out_of_memory = 1;
        return 0;
    }
    p->capacity = capacity;
    return 1;
}

/* The most bytes one MCU's data and the reader's look-ahead can take: 10 blocks of 64 coefficients of at most 26
 * bits each, doubled for stuffed bytes, and 8 bytes read ahead. */
#define TV_EIGHTH_MARGIN 8192

/* Decodes the next MCU of `p` and keeps it: 1; 2 when the reader has come to `limit` (a byte offset: beyond it
 * lies another part's share), or within TV_EIGHTH_MARGIN bytes of it while the parts read the file (that share
 * may still be being read); nothing is kept then. 0 at bad data, the data's end or no memory. The part's state
 * moves only with an MCU kept. */
static int tv_eighth_step(struct tv_eighth *e, struct tv_eighth_part *p, size_t limit, uint64_t *began) {
    const struct tv_jpeg_index *x = &e->x;
    size_t margin = e->f.fd >= 0 ? TV_EIGHTH_MARGIN : 0;
    if (limit != SIZE_MAX && (size_t)(p->bits.p - p->bits.start) + margin >= limit) return 2;
    struct tv_bits b = p->bits;
    struct tv_eighth_state s = p->state;
    uint64_t entry = UINT64_MAX;
    if (e->f.keep_index) {
        size_t byte;
        int bit;
        if (tv_bits_position(&b, &byte, &bit)) entry = (uint64_t)byte * 8 + (uint64_t)bit;
    }
    if (x->restart_interval) {
        if (s.restarts_left == 0) {
            if (!tv_bits_restart(&b, s.next_restart)) return 0;
            s.next_restart = (s.next_restart + 1) & 7;
            s.restarts_left = x->restart_interval;
            memset(s.dc, 0, sizeof s.dc);
        }
        s.restarts_left--;
    }
    uint64_t at = 0;
    if (p->count < TV_EIGHTH_SYNC || began != NULL) {
        size_t byte;
        int bit;
        if (!tv_bits_position(&b, &byte, &bit)) return 0;
        at = (uint64_t)byte * 8 + (uint64_t)bit;
    }
    if (!tv_eighth_grow(e, p)) return 0;
    int16_t *dc = p->dc + p->count * (size_t)x->blocks_per_mcu;
    struct tv_chroma_terms *chroma = e->f.chroma_2x2 ? p->chroma + p->count * 2 : NULL;
    int n = 0;
    for (int c = 0; c < x->components; c++) {
        const struct tv_huffman *dct = &x->dc[x->dc_table[c]], *act = &x->ac[x->ac_table[c]];
        int count = x->components == 1 ? 1 : x->h[c] * x->v[c];
        for (int i = 0; i < count; i++, n++) {
            int size = tv_bits_decode(&b, dct);
            if (size < 0 || size > 11) return 0;
            s.dc[c] += tv_extend(tv_bits_take(&b, size), size);
            dc[n] = (int16_t)s.dc[c];
            if (chroma != NULL && c > 0) {
                /* Cleared with vector stores: a memset of 128 bytes becomes `rep stos`, slow for so few. */
                JBLOCK block;
                static const JBLOCK zero;
                memcpy(block, zero, sizeof block);
                int size;
                if (!tv_decode_ac_sized(&b, act, block, &size)) return 0;
                tv_chroma_terms_of(block, size, e->f.quant[c], e->quant_most[c], &chroma[c - 1]);
            } else if (!tv_decode_ac_sized(&b, act, NULL, NULL)) {
                return 0;
            }
        }
    }
    if (b.count < b.zeros) return 0;
    if (p->count < TV_EIGHTH_SYNC) p->at[p->count] = at;
    if (e->f.keep_index) p->entry[p->count] = entry;
    if (began != NULL) *began = at;
    p->count++;
    p->bits = b;
    p->state = s;
    return 1;
}

/* Where part `k` may begin, at or after byte `from`: a byte that is not the second of a stuffed pair or a marker,
 * or (with restart markers) the byte after an RSTn marker, with the state there. 0 when there is none before `to`. */
static size_t tv_eighth_start_at(const struct tv_eighth *e, size_t from, size_t to, struct tv_eighth_state *s) {
    const uint8_t *data = e->f.data;
    memset(s, 0, sizeof *s);
    if (!e->x.restart_interval) {
        while (from < to && data[from - 1] == 0xFF) from++;
        return from < to ? from : 0;
    }
    for (size_t i = from; i + 1 < to; i++) {
        if (data[i] == 0xFF && data[i + 1] >= 0xD0 && data[i + 1] <= 0xD7) {
            s->restarts_left = e->x.restart_interval;
            s->next_restart = (data[i + 1] - 0xD0 + 1) & 7;
            return i + 2;
        }
    }
    return 0;
}

/* The bytes [from, to) of the file into the plan's room for it; 0 when the file gives fewer. */
static int tv_eighth_read(const struct tv_eighth *e, size_t from, size_t to) {
    if (from >= to) return 1;
    return tv_descriptor_read_at(e->f.fd, from, (uint8_t *)e->f.data + from, to - from) == (long long)(to - from);
}

struct tv_eighth *tv_eighth_plan(const struct tv_eighth_facts *facts, int parts, size_t min_part_bytes) {
    struct tv_eighth *e = calloc(1, sizeof *e);
    if (e == NULL) return NULL;
    e->f = *facts;
    e->x.fd = -1;
    const char *why = NULL;
    struct tv_jpeg_index *x = &e->x;
    /* The header: in the caller's bytes, or read from the file, a larger window while its scan is not in it. */
    if (facts->fd < 0) {
        e->have = facts->length;
        e->scan = tv_index_parse(x, facts->data, facts->length, &why);
    } else {
        for (size_t window = 64 << 10;; window *= 4) {
            if (window > facts->length) window = facts->length;
            if (!tv_eighth_read(e, e->have, window)) break;
            e->have = window;
            e->scan = tv_index_parse(x, facts->data, window, &why);
            if (e->scan != 0 || window == facts->length) break;
        }
    }
    int ok = e->scan != 0 && tv_index_geometry(x) && x->width <= 65535 && x->height <= 65535;
    if (ok && x->components == 1) {
        ok = facts->gray && !facts->chroma_2x2;
    } else if (ok) {
        int luma = x->h[0] * 4 + x->v[0]; /* 1x1, 2x1 or 2x2 luma; chroma 1x1; 2x2 chroma samples with 2x2 luma */
        ok = !facts->gray && (luma == 5 || luma == 9 || luma == 10) && x->h[1] == 1 && x->v[1] == 1 &&
             x->h[2] == 1 && x->v[2] == 1 && facts->chroma_2x2 == (luma == 10);
    }
    ok = ok && facts->out_width == (x->width + 7) / 8 && facts->out_height == (x->height + 7) / 8;
    size_t bytes = ok ? facts->length - e->scan : 0;
    if (min_part_bytes == 0) min_part_bytes = 1;
    if (ok && (size_t)parts > bytes / min_part_bytes) parts = (int)(bytes / min_part_bytes);
    if (!ok || parts < 2) {
        free(e);
        return NULL;
    }
    /* What the decode holds: the file read, every MCU's record with room to grow, the rows. */
    const size_t total = (size_t)x->mcus_x * x->mcus_y;
    const size_t record = (size_t)x->blocks_per_mcu * sizeof(int16_t) +
                          (facts->chroma_2x2 ? 2 * sizeof(struct tv_chroma_terms) : 0) +
                          (facts->keep_index ? sizeof(uint64_t) : 0);
    size_t need = facts->held_bytes + total * record / 2 * 3 + (size_t)parts * TV_EIGHTH_SYNC * sizeof(uint64_t) +
                  (size_t)facts->out_width * facts->out_height * 4;
    if (need > facts->max_bytes) {
        free(e);
        return NULL;
    }
    e->parts = parts;
    e->part = calloc((size_t)parts, sizeof *e->part);
    if (e->part == NULL) {
        free(e);
        return NULL;
    }
    for (int c = 0; c < x->components; c++) {
        for (int r = 0; r < 8; r++) {
            for (int k = 0; k < 8; k++) {
                int32_t v = facts->quant[c][8 * r + k] < 0 ? -facts->quant[c][8 * r + k] : facts->quant[c][8 * r + k];
                if ((r == 0 || r & 1) && (k == 0 || k & 1) && v > e->quant_most[c]) e->quant_most[c] = v;
            }
        }
    }
    /* Each part's share of the scan's bytes, the last one to the file's end. */
    for (int k = 0; k < parts; k++) {
        struct tv_eighth_part *p = &e->part[k];
        p->bits = (struct tv_bits){facts->data, facts->data, facts->data + facts->length, 0, 0, 0, 0};
        p->from = e->scan + bytes * (size_t)k / (size_t)parts;
        p->to = e->scan + bytes * (size_t)(k + 1) / (size_t)parts;
    }
    return e;
}

int tv_eighth_part_count(const struct tv_eighth *e) { return e != NULL ? e->parts : 0; }

void tv_eighth_run(struct tv_eighth *e, int k) {
    if (e == NULL || k < 0 || k >= e->parts) return;
    struct tv_eighth_part *p = &e->part[k];
    /* Its share of the file first (from the file: the other parts read theirs at the same time). */
    if (e->f.fd >= 0 && !tv_eighth_read(e, p->from > e->have ? p->from : e->have, p->to)) {
        p->read_failed = 1;
        return;
    }
    /* Part 0 begins with the scan; another after the first byte of its share (whose byte before is not its own to
     * look at) that may begin an MCU, and looks at nothing beyond its share but what the reader takes in at most
     * TV_EIGHTH_MARGIN bytes before its end (the last part: to the file's end). */
    const size_t limit = k == e->parts - 1 ? SIZE_MAX : p->to;
    if (k == 0) {
        p->start = e->scan;
        p->state.restarts_left = e->x.restart_interval;
    } else {
        p->start = tv_eighth_start_at(e, p->from + 1, p->to, &p->state);
        if (p->start == 0) return;
    }
    tv_bits_seek(&p->bits, p->start, 0);
    for (;;) {
        int step = tv_eighth_step(e, p, limit, NULL);
        if (step == 1) continue;
        if (step == 2 || k == 0 || p->out_of_memory) return;
        /* At the scan's clean end the part is done; elsewhere it began in the wrong place: it begins again a byte
         * further on (after the next marker). */
        const struct tv_bits *b = &p->bits;
        if (b->count - b->zeros < 8 && b->p + 1 < b->end && b->p[0] == 0xFF && b->p[1] == 0xD9) return;
        size_t byte;
        int bit;
        if (!tv_bits_position(b, &byte, &bit)) return;
        size_t from = byte + 1 > p->start + 1 ? byte + 1 : p->start + 1;
        struct tv_eighth_state state;
        size_t start = tv_eighth_start_at(e, from, p->to, &state);
        if (start == 0) {
            p->count = 0;
            return;
        }
        p->start = start;
        p->state = state;
        p->count = 0;
        tv_bits_seek(&p->bits, start, 0);
    }
}

/* libjpeg's range limit after an inverse DCT (jdmaster.c's table, indexed by x & 1023): x + 128 clamped to
 * 0...255 for x in -384...383, and what the table's wrap gives beyond. */
static uint8_t tv_idct_limit(int32_t x) {
    int i = x & 1023;
    return i < 128 ? (uint8_t)(i + 128) : i < 512 ? 255 : i < 896 ? 0 : (uint8_t)(i - 896);
}

static uint8_t tv_clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }


int tv_eighth_join(struct tv_eighth *e) {
    if (e == NULL || e->segment != NULL) return 0;
    struct tv_jpeg_index *x = &e->x;
    const int64_t total = (int64_t)x->mcus_x * x->mcus_y;
    const int bpm = x->blocks_per_mcu;
    struct tv_eighth_segment *segments = calloc((size_t)e->parts, sizeof *segments);
    if (segments == NULL) return 0;
    int ok = 1;
    for (int k = 0; k < e->parts; k++) ok = ok && !e->part[k].out_of_memory && !e->part[k].read_failed;
    /* The part in hand goes on until an MCU of its begins where one of the next part's began. */
    int n = 0;
    segments[0].part = &e->part[0];
    struct tv_eighth_part *p = &e->part[0];
    int next = 1;
    size_t j = 0;
    while (ok && segments[n].base + (int64_t)p->count < total) {
        uint64_t at;
        if (tv_eighth_step(e, p, SIZE_MAX, &at) != 1) {
            ok = 0;
            break;
        }
        while (next < e->parts) {
            struct tv_eighth_part *t = &e->part[next];
            size_t kept = t->count < TV_EIGHTH_SYNC ? t->count : TV_EIGHTH_SYNC;
            while (j < kept && t->at[j] < at) j++;
            if (j < kept) {
                if (t->at[j] == at) {
                    /* In step: t's MCU j is p's last. t's MCUs from j + 1 on follow, with p's predictors. */
                    segments[n].to = p->count;
                    struct tv_eighth_segment *s = &segments[n + 1];
                    s->part = t;
                    s->from = j + 1;
                    s->base = segments[n].base + (int64_t)p->count - (int64_t)(j + 1);
                    int block = 0;
                    for (int c = 0; c < x->components; c++) {
                        block += x->components == 1 ? 1 : x->h[c] * x->v[c];
                        /* With restart markers every part's predictors are the file's (each began after one). */
                        s->offset[c] = x->restart_interval
                                           ? 0
                                           : (int32_t)((uint32_t)p->state.dc[c] + (uint32_t)segments[n].offset[c] -
                                                       (uint32_t)t->dc[j * (size_t)bpm + block - 1]);
                    }
                    n++;
                    p = t;
                    next++;
                    j = 0;
                }
                break;
            }
            next++; /* every MCU of that part lies behind: it never fell into step */
            j = 0;
        }
    }
    if (ok) {
        segments[n].to = p->count;
        /* Exactly the frame's MCUs, then padding and the EOI, as a clean file ends. */
        const struct tv_bits *b = &p->bits;
        if (segments[n].base + (int64_t)p->count != total || b->count - b->zeros >= 8 || b->p + 1 >= b->end ||
            b->p[0] != 0xFF || b->p[1] != 0xD9) {
            ok = 0;
        }
    }
    if (ok) {
        e->rgba = malloc((size_t)e->f.out_width * e->f.out_height * 4);
        e->band = calloc((size_t)e->parts, 1);
        ok = e->rgba != NULL && e->band != NULL;
    }
    if (!ok) {
        free(segments);
        return 0;
    }
    e->segment = segments;
    e->segments = n + 1;
    /* jdcolor.c's tables (SCALEBITS 16), the range limit after an inverse DCT and the clamp of a colour. */
    for (int i = 0; i < 256; i++) {
        int64_t v = i - 128;
        e->cr_r[i] = (int32_t)((91881 * v + 32768) >> 16);
        e->cb_b[i] = (int32_t)((116130 * v + 32768) >> 16);
        e->cr_g[i] = (int32_t)(-46802 * v);
        e->cb_g[i] = (int32_t)(-22554 * v + 32768);
    }
    for (int i = 0; i < 1024; i++) e->limit[i] = tv_idct_limit(i);
    for (int i = 0; i < 768; i++) e->clamp[i] = tv_clamp255(i - 256);
    return e->segments;
}

void tv_eighth_rows(struct tv_eighth *e, int k) {
    if (e == NULL || e->segment == NULL || k < 0 || k >= e->parts) return;
    const int n = e->parts;
    const struct tv_jpeg_index *x = &e->x;
    const int bpm = x->blocks_per_mcu;
    const uint32_t width = e->f.out_width, height = e->f.out_height;
    const uint8_t *limit = e->limit, *clamp = e->clamp + 256;
    const int hmax = x->components == 1 ? 1 : x->h[0], vmax = x->components == 1 ? 1 : x->v[0];
    const int32_t q0 = e->f.quant[0][0];
    /* MCU rows [first, last) of the frame. */
    const int64_t first = (int64_t)x->mcus_y * k / n * x->mcus_x, last = (int64_t)x->mcus_y * (k + 1) / n * x->mcus_x;
    int index = 0;
    for (int64_t g = first; g < last;) {
        while (index < e->segments &&
               e->segment[index].base + (int64_t)e->segment[index].to <= g) {
            index++;
        }
        if (index == e->segments) return;
        const struct tv_eighth_segment *s = &e->segment[index];
        int64_t end = s->base + (int64_t)s->to < last ? s->base + (int64_t)s->to : last;
        uint32_t mx = (uint32_t)(g % x->mcus_x), my = (uint32_t)(g / x->mcus_x);
        for (size_t i = (size_t)(g - s->base); g < end; g++, i++) {
            const int16_t *dc = s->part->dc + i * (size_t)bpm;
            uint8_t cb[2][2], cr[2][2];
            if (x->components == 3) {
                for (int c = 1; c < 3; c++) {
                    int16_t coefficient = (int16_t)(dc[hmax * vmax + c - 1] + s->offset[c]);
                    int64_t dcq = (int64_t)coefficient * e->f.quant[c][0];
                    uint8_t(*plane)[2] = c == 1 ? cb : cr;
                    if (e->f.chroma_2x2) {
                        const struct tv_chroma_terms *t = &s->part->chroma[i * 2 + (size_t)(c - 1)];
                        if (!tv_chroma_exact(t, dcq)) {
                            e->band[k] = 2;
                            return;
                        }
                        /* Exact in 32 bits here (the bounds above): a sample's value before its limit. */
                        int32_t base = (int32_t)(dcq * 4);
                        int inside = 1;
                        for (int r = 0; r < 2; r++) {
                            for (int h = 0; h < 2; h++) {
                                int32_t v = (base + (int32_t)t->share[r][h]) >> 5;
                                inside &= v >= -384 && v <= 383;
                                plane[r][h] = limit[v & 1023];
                            }
                        }
                        if (!inside) {
                            e->band[k] = 2;
                            return;
                        }
                    } else {
                        uint8_t v = limit[((dcq + 4) >> 3) & 1023];
                        plane[0][0] = plane[0][1] = plane[1][0] = plane[1][1] = v;
                    }
                }
            }
            for (int bv = 0; bv < vmax; bv++) {
                uint32_t py = my * (uint32_t)vmax + (uint32_t)bv;
                if (py >= height) break;
                for (int bh = 0; bh < hmax; bh++) {
                    uint32_t px = mx * (uint32_t)hmax + (uint32_t)bh;
                    if (px >= width) break;
                    int16_t coefficient = (int16_t)(dc[bv * hmax + bh] + s->offset[0]);
                    int y = limit[((coefficient * q0 + 4) >> 3) & 1023];
                    uint8_t *pixel = e->rgba + ((size_t)py * width + px) * 4;
                    if (x->components == 1) {
                        pixel[0] = pixel[1] = pixel[2] = (uint8_t)y;
                    } else {
                        int b = cb[bv][bh], r = cr[bv][bh];
                        pixel[0] = clamp[y + e->cr_r[r]];
                        pixel[1] = clamp[y + ((e->cb_g[b] + e->cr_g[r]) >> 16)];
                        pixel[2] = clamp[y + e->cb_b[b]];
                    }
                    pixel[3] = 0xFF;
                }
            }
            if (++mx == x->mcus_x) {
                mx = 0;
                my++;
            }
        }
    }
    e->band[k] = 1;
}

/* The entry tv_jpeg_index_build's pass keeps before MCU g (before a restart marker due there is read): the bit
 * where it begins, the MCUs until the next marker and its number, the predictors. 0 without a position. */
static int tv_eighth_entry(struct tv_index_entry *entry, uint32_t interval, int64_t g, uint64_t position,
                           const int16_t dc[TV_INDEX_MAX_COMPONENTS]) {
    if (position == UINT64_MAX || position / 8 > UINT32_MAX) return 0;
    entry->byte = (uint32_t)(position / 8);
    entry->bit = (uint8_t)(position % 8);
    if (interval != 0 && g == 0) {
        entry->restarts_left = (uint16_t)interval;
    } else if (interval != 0) {
        int64_t into = g % interval;
        entry->restarts_left = (uint16_t)(into == 0 ? 0 : interval - into);
        entry->next_restart = (uint8_t)(((g - 1) / interval) & 7);
    }
    for (int c = 0; c < TV_INDEX_MAX_COMPONENTS; c++) entry->dc[c] = dc[c];
    return 1;
}

int tv_eighth_index(const struct tv_eighth *e, uint8_t **out, size_t *length) {
    *out = NULL;
    *length = 0;
    /* The pass's own limits: the same file gives the same index, or none, either way. */
    if (e == NULL || e->segment == NULL || !e->f.keep_index || e->f.length > TV_JPEG_INDEX_MAX_FILE ||
        tv_index_past_limits(&e->x, e->scan) != NULL) {
        return 0;
    }
    struct tv_jpeg_index index = e->x;
    index.fd = -1;
    index.file_length = e->f.length;
    index.header = (uint8_t *)e->f.data;
    index.header_length = e->scan;
    const uint32_t steps = index.steps, columns = index.mcus_x, interval = index.restart_interval;
    const int64_t total = (int64_t)columns * index.mcus_y;
    const int bpm = index.blocks_per_mcu;
    struct tv_index_entry *entries = calloc((size_t)steps * index.mcus_y, sizeof *entries);
    if (entries == NULL || total == 0) {
        free(entries);
        return 0;
    }
    index.entries = entries;
    /* Each block's component, in scan order. */
    int component[10];
    for (int c = 0, n = 0; c < index.components; c++) {
        int count = index.components == 1 ? 1 : index.h[c] * index.v[c];
        for (int i = 0; i < count; i++) component[n++] = c;
    }
    int16_t dc[TV_INDEX_MAX_COMPONENTS] = {0, 0, 0}; /* the predictors after the MCU before */
    int ok = 1;
    for (int k = 0; k < e->segments && ok; k++) {
        const struct tv_eighth_segment *s = &e->segment[k];
        for (size_t i = s->from; i < s->to && ok; i++) {
            const int64_t g = s->base + (int64_t)i;
            const uint32_t row = (uint32_t)(g / columns), column = (uint32_t)(g % columns);
            const uint64_t position = s->part->entry[i];
            if (column % TV_INDEX_STEP == 0) {
                ok = tv_eighth_entry(&entries[(size_t)row * steps + column / TV_INDEX_STEP], interval, g, position, dc);
            }
            /* The end of the row before is the same state. */
            if (ok && column == 0 && row > 0) {
                ok = tv_eighth_entry(&entries[(size_t)row * steps - 1], interval, g, position, dc);
            }
            const int16_t *blocks = s->part->dc + i * (size_t)bpm;
            for (int n = 0; n < bpm; n++) {
                int16_t value = (int16_t)(blocks[n] + s->offset[component[n]]);
                /* The pass refuses a DC beyond what 8-bit samples give (tv_decode_block). */
                if (value < -1024 || value > 1023) ok = 0;
                dc[component[n]] = value;
            }
        }
    }
    /* The end of the last row: the state after the frame's last MCU. */
    size_t byte;
    int bit;
    ok = ok && tv_bits_position(&e->segment[e->segments - 1].part->bits, &byte, &bit) &&
         tv_eighth_entry(&entries[(size_t)index.mcus_y * steps - 1], interval, total,
                         (uint64_t)byte * 8 + (uint64_t)bit, dc);
    tv_error error;
    ok = ok && tv_jpeg_index_save(&index, out, length, &error) == TV_OK;
    free(entries);
    return ok;
}

uint8_t *tv_eighth_take(struct tv_eighth *e, int *joined) {
    *joined = 0;
    if (e == NULL) return NULL;
    uint8_t *rows = e->segment != NULL ? e->rgba : NULL;
    for (int k = 0; rows != NULL && k < e->parts; k++) {
        if (e->band[k] != 1) rows = NULL;
    }
    if (rows != NULL) *joined = e->segments;
    if (rows == NULL) free(e->rgba);
    e->rgba = NULL;
    tv_eighth_free(e);
    return rows;
}

void tv_eighth_free(struct tv_eighth *e) {
    if (e == NULL) return;
    for (int k = 0; k < e->parts; k++) {
        free(e->part[k].at);
        free(e->part[k].entry);
        free(e->part[k].dc);
        free(e->part[k].chroma);
    }
    free(e->part);
    free(e->segment);
    free(e->rgba);
    free(e->band);
    free(e);
}
