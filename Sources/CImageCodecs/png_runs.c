/* PNG writing with tileview's own deflate, for the default compression (`runs`): each byte is coded alone or as
 * part of a run of the byte before it (a match at distance 1, what zlib's Z_RLE strategy finds), and every block
 * of 64 KiB of filtered rows gets a Huffman code of its own. No string is searched for, so no hash chains are
 * kept: on photo frames this takes about half of zlib's Z_RLE time for files about as small. Rows go in one at
 * a time and each full block is compressed at once, so a frame is compressed while its later rows are drawn.
 * Output: signature, IHDR, the zlib stream in IDAT chunks, IEND. Out of memory is the only failure. */

#include <stdlib.h>
#include <string.h>
#include <zlib.h> /* crc32, adler32 */

#include "shim_internal.h"

/* The most bytes of the stream one IDAT chunk holds (PNG: 2^31 - 1); smaller in a harness that checks the
 * splitting (`-DTV_PNG_RUNS_IDAT_LIMIT=1000`). */
#ifndef TV_PNG_RUNS_IDAT_LIMIT
#define TV_PNG_RUNS_IDAT_LIMIT 0x7fffffff
#endif

enum {
    RUNS_BLOCK = 65536, /* filtered bytes per deflate block */
    RUNS_MAX = 258,     /* the longest match deflate codes */
    RUNS_PREFIX = 41,   /* signature (8), IHDR chunk (25), IDAT length and type (8) */
    RUNS_LITLEN = 286,  /* literal/length symbols: 256 bytes, end of block, 29 length codes */
};

struct tv_png_runs {
    uint32_t width;
    uint32_t height;
    int channels; /* 1, 3 or 4 bytes a pixel */
    tv_png_filter filter;
    size_t row_bytes; /* without the filter-type byte */
    uint8_t *raw;     /* the row being filtered, `channels` bytes a pixel */
    uint8_t *prior;   /* the row above it (zeros above the first) */
    uint8_t *line;    /* filter type, then the filtered row */
    uint8_t *block;   /* filtered bytes not yet compressed */
    size_t pending;
    uint16_t *tokens; /* a block as bytes (< 256) and runs (256 + length) */
    /* The file so far: RUNS_PREFIX bytes kept for the chunks before the stream, then the zlib stream. */
    uint8_t *out;
    size_t length;
    size_t capacity;
    uint64_t bits;
    int bit_count;
    uLong adler;
    int has_previous;
    uint8_t previous; /* the last byte coded, which a run repeats */
    int failed;
    /* Per match length 3 ... 258: its length code (257 ... 285), extra bits and their value. */
    uint16_t length_code[RUNS_MAX + 1];
    uint8_t length_extra[RUNS_MAX + 1];
    uint16_t length_value[RUNS_MAX + 1];
};

static void runs_length_tables(struct tv_png_runs *w) {
    static const uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    for (int code = 0; code < 29; code++) {
        /* 258 has a code of its own (285), though 284's extra bits could reach it. */
        int last = code == 28 ? 258 : code == 27 ? 257 : base[code] + (1 << extra[code]) - 1;
        for (int length = base[code]; length <= last; length++) {
            w->length_code[length] = (uint16_t)(257 + code);
            w->length_extra[length] = extra[code];
            w->length_value[length] = (uint16_t)(length - base[code]);
        }
    }
}

/* Room for `more` bytes after `length`; sets `failed` when there is none. */
static int runs_reserve(struct tv_png_runs *w, size_t more) {
    if (w->failed) return 0;
    if (more <= w->capacity - w->length) return 1;
    if (w->capacity > SIZE_MAX / 4 || more > SIZE_MAX / 4) {
        w->failed = 1;
        return 0;
    }
    size_t capacity = w->capacity * 2 > w->length + more ? w->capacity * 2 : w->length + more;
    uint8_t *grown = realloc(w->out, capacity);
    if (grown == NULL) {
        w->failed = 1;
        return 0;
    }
    w->out = grown;
    w->capacity = capacity;
    return 1;
}

/* Appends `count` <= 16 bits, first bit first (deflate's order); callers reserve 8 bytes per 32 bits first. */
static inline void runs_put(struct tv_png_runs *w, uint32_t value, int count) {
    w->bits |= (uint64_t)value << w->bit_count;
    w->bit_count += count;
    if (w->bit_count >= 32) {
        uint32_t word = (uint32_t)w->bits;
        uint8_t *p = w->out + w->length;
        p[0] = (uint8_t)word;
        p[1] = (uint8_t)(word >> 8);
        p[2] = (uint8_t)(word >> 16);
        p[3] = (uint8_t)(word >> 24);
        w->length += 4;
        w->bits >>= 32;
        w->bit_count -= 32;
    }
}

/* Huffman code lengths of at most `limit` bits for the `n` symbols of `freq` (0 for unused symbols): the
 * optimal lengths (two-queue construction), then, where longer than `limit`, shortened as miniz does
 * (every length over the limit becomes the limit, then codes move down until the Kraft sum is exact). With one
 * symbol used, a second gets a code too, as a complete code needs two. */
static void runs_code_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
    int symbols[RUNS_LITLEN];
    int count = 0;
    memset(lengths, 0, (size_t)n);
    for (int i = 0; i < n; i++) {
        if (freq[i] != 0) symbols[count++] = i;
    }
    if (count == 0) return;
    if (count == 1) {
        lengths[symbols[0]] = 1;
        lengths[symbols[0] == 0 ? 1 : 0] = 1;
        return;
    }
    for (int i = 1; i < count; i++) { /* by frequency, then symbol, ascending */
        int s = symbols[i];
        int j = i - 1;
        while (j >= 0 && (freq[symbols[j]] > freq[s] || (freq[symbols[j]] == freq[s] && symbols[j] > s))) {
            symbols[j + 1] = symbols[j];
            j--;
        }
        symbols[j + 1] = s;
    }
    /* Leaves 0 ..< count in order; internal nodes from `count` on, made in order of non-decreasing weight. */
    uint64_t weight[2 * RUNS_LITLEN];
    int parent[2 * RUNS_LITLEN];
    int depth[2 * RUNS_LITLEN];
    for (int i = 0; i < count; i++) weight[i] = freq[symbols[i]];
    int leaf = 0, merged = count, made = count;
    for (int k = 0; k < count - 1; k++) {
        int pick[2];
        for (int t = 0; t < 2; t++) {
            if (leaf < count && (merged >= made || weight[leaf] <= weight[merged])) {
                pick[t] = leaf++;
            } else {
                pick[t] = merged++;
            }
        }
        weight[made] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = made;
        parent[pick[1]] = made;
        made++;
    }
    depth[made - 1] = 0;
    for (int i = made - 2; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    int per_length[64] = {0};
    for (int i = 0; i < count; i++) per_length[depth[i] < 63 ? depth[i] : 63]++;
    for (int i = limit + 1; i < 64; i++) {
        per_length[limit] += per_length[i];
        per_length[i] = 0;
    }
    uint64_t kraft = 0;
    for (int i = limit; i > 0; i--) kraft += (uint64_t)per_length[i] << (limit - i);
    while (kraft != (1ull << limit)) {
        per_length[limit]--;
        for (int i = limit - 1; i > 0; i--) {
            if (per_length[i] != 0) {
                per_length[i]--;
                per_length[i + 1] += 2;
                break;
            }
        }
        kraft--;
    }
    int s = count - 1; /* the most frequent symbols get the shortest codes */
    for (int length = 1; length <= limit; length++) {
        for (int k = per_length[length]; k > 0; k--) lengths[symbols[s--]] = (uint8_t)length;
    }
}

/* Canonical codes for `lengths` (RFC 1951, 3.2.2), bit-reversed to be sent first bit first. */
static void runs_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int per_length[16] = {0};
    int next[16] = {0};
    for (int i = 0; i < n; i++) per_length[lengths[i]]++;
    per_length[0] = 0;
    int code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (code + per_length[bits - 1]) << 1;
        next[bits] = code;
    }
    for (int i = 0; i < n; i++) {
        int length = lengths[i];
        int c = length != 0 ? next[length]++ : 0;
        int reversed = 0;
        for (int b = 0; b < length; b++, c >>= 1) reversed = (reversed << 1) | (c & 1);
        codes[i] = (uint16_t)reversed;
    }
}

static const uint8_t runs_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* Compresses `w->block` as one deflate block (not the last) with a dynamic Huffman code. */
static void runs_compress_block(struct tv_png_runs *w) {
    const uint8_t *in = w->block;
    size_t n = w->pending;
    w->pending = 0;
    if (n == 0 || w->failed) return;
    w->adler = adler32(w->adler, in, (uInt)n);
    uint32_t freq[RUNS_LITLEN] = {0};
    uint16_t *tokens = w->tokens;
    size_t count = 0;
    int has_previous = w->has_previous;
    uint8_t previous = w->previous;
    for (size_t i = 0; i < n;) {
        uint8_t byte = in[i];
        if (has_previous && byte == previous) {
            size_t most = n - i < RUNS_MAX ? n - i : RUNS_MAX;
            size_t run = 1;
            while (run < most && in[i + run] == previous) run++;
            if (run >= 3) {
                tokens[count++] = (uint16_t)(256 + run);
                freq[w->length_code[run]]++;
                i += run;
                continue;
            }
        }
        tokens[count++] = byte;
        freq[byte]++;
        previous = byte;
        has_previous = 1;
        i++;
    }
    w->has_previous = has_previous;
    w->previous = previous;
    freq[256] = 1;

    uint8_t lengths[RUNS_LITLEN];
    uint16_t codes[RUNS_LITLEN];
    runs_code_lengths(freq, RUNS_LITLEN, 15, lengths);
    runs_codes(lengths, RUNS_LITLEN, codes);
    int literal_count = RUNS_LITLEN;
    while (literal_count > 257 && lengths[literal_count - 1] == 0) literal_count--;

    /* Both trees' code lengths (the distance tree: one code of 1 bit, for distance 1), run-length coded with
     * the code-length alphabet: 16 repeats the last length 3-6 times, 17 and 18 give 3-10 and 11-138 zeros. */
    uint8_t all[RUNS_LITLEN + 1];
    int total = 0;
    for (int k = 0; k < literal_count; k++) all[total++] = lengths[k];
    all[total++] = 1;
    uint8_t symbol[RUNS_LITLEN + 1];
    uint8_t extra[RUNS_LITLEN + 1];
    int items = 0;
    uint32_t length_freq[19] = {0};
    for (int k = 0; k < total;) {
        int value = all[k];
        int repeat = 1;
        while (k + repeat < total && all[k + repeat] == value) repeat++;
        if (value == 0 && repeat >= 3) {
            int used = repeat > 138 ? 138 : repeat;
            symbol[items] = used >= 11 ? 18 : 17;
            extra[items] = (uint8_t)(used >= 11 ? used - 11 : used - 3);
            length_freq[symbol[items++]]++;
            k += used;
        } else if (value != 0 && repeat >= 4) {
            symbol[items] = (uint8_t)value;
            extra[items++] = 0;
            length_freq[value]++;
            k++;
            for (int left = repeat - 1; left >= 3;) {
                int used = left > 6 ? 6 : left;
                symbol[items] = 16;
                extra[items++] = (uint8_t)(used - 3);
                length_freq[16]++;
                left -= used;
                k += used;
            }
        } else {
            symbol[items] = (uint8_t)value;
            extra[items++] = 0;
            length_freq[value]++;
            k++;
        }
    }
    uint8_t length_lengths[19];
    uint16_t length_codes[19];
    runs_code_lengths(length_freq, 19, 7, length_lengths);
    runs_codes(length_lengths, 19, length_codes);
    int order_count = 19;
    while (order_count > 4 && length_lengths[runs_length_order[order_count - 1]] == 0) order_count--;

    /* At most 15 + 5 + 1 bits a token and 15 per byte: n * 2 bytes and the header are more than enough. */
    if (!runs_reserve(w, n * 2 + 1024)) return;
    runs_put(w, 2 << 1, 3); /* not the last block; dynamic Huffman codes */
    runs_put(w, (uint32_t)(literal_count - 257), 5);
    runs_put(w, 0, 5); /* one distance code */
    runs_put(w, (uint32_t)(order_count - 4), 4);
    for (int k = 0; k < order_count; k++) runs_put(w, length_lengths[runs_length_order[k]], 3);
    for (int k = 0; k < items; k++) {
        int s = symbol[k];
        runs_put(w, length_codes[s], length_lengths[s]);
        if (s >= 16) runs_put(w, extra[k], s == 16 ? 2 : s == 17 ? 3 : 7);
    }
    for (size_t k = 0; k < count; k++) {
        uint16_t token = tokens[k];
        if (token < 256) {
            runs_put(w, codes[token], lengths[token]);
        } else {
            int run = token - 256;
            int code = w->length_code[run];
            runs_put(w, codes[code], lengths[code]);
            if (w->length_extra[run] != 0) runs_put(w, w->length_value[run], w->length_extra[run]);
            runs_put(w, 0, 1); /* distance 1 */
        }
    }
    runs_put(w, codes[256], lengths[256]);
}

static void runs_store_u32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Fills in the length, `type` and CRC of the chunk whose `length` data bytes start at `data`: the 8 bytes before
 * `data` and the 4 after it are the chunk's. */
static void runs_seal_chunk(uint8_t *data, size_t length, const char type[4]) {
    runs_store_u32(data - 8, (uint32_t)length);
    memcpy(data - 4, type, 4);
    uLong crc = crc32(0, data - 4, 4);
    for (size_t done = 0; done < length;) { /* crc32 takes at most 4 GiB at once */
        size_t piece = length - done < 0x40000000 ? length - done : 0x40000000;
        crc = crc32(crc, data + done, (uInt)piece);
        done += piece;
    }
    runs_store_u32(data + length, (uint32_t)crc);
}

void tv_rgba_to_gray(const uint8_t *rgba, uint8_t *gray, uint32_t width) {
    for (uint32_t x = 0; x < width; x++, rgba += 4) {
        gray[x] = (uint8_t)((77u * rgba[0] + 150u * rgba[1] + 29u * rgba[2] + 128u) >> 8);
    }
}

void tv_png_runs_free(tv_png_runs *w) {
    if (w == NULL) return;
    free(w->raw);
    free(w->prior);
    free(w->line);
    free(w->block);
    free(w->tokens);
    free(w->out);
    free(w);
}

tv_png_runs *tv_png_runs_begin(uint32_t width, uint32_t height, int color_type, tv_png_filter filter) {
    struct tv_png_runs *w = calloc(1, sizeof *w);
    if (w == NULL) return NULL;
    w->width = width;
    w->height = height;
    w->channels = color_type == 0 ? 1 : color_type == 2 ? 3 : 4;
    w->filter = filter;
    w->row_bytes = (size_t)width * (size_t)w->channels;
    w->raw = malloc(w->row_bytes);
    w->prior = calloc(1, w->row_bytes);
    w->line = malloc(w->row_bytes + 1);
    w->block = malloc(RUNS_BLOCK);
    w->tokens = malloc(RUNS_BLOCK * sizeof *w->tokens);
    w->capacity = RUNS_PREFIX + 4096;
    w->out = malloc(w->capacity);
    if (w->raw == NULL || w->prior == NULL || w->line == NULL || w->block == NULL || w->tokens == NULL ||
        w->out == NULL) {
        tv_png_runs_free(w);
        return NULL;
    }
    runs_length_tables(w);
    w->adler = adler32(0, NULL, 0);
    w->length = RUNS_PREFIX;
    w->out[w->length++] = 0x78; /* zlib: deflate, 32 KiB window */
    w->out[w->length++] = 0x01; /* fastest, no dictionary; (0x78 << 8 | 0x01) % 31 == 0 */
    return w;
}

/* The filtered row into `w->line` (PNG specification, section 9). */
static void runs_filter(struct tv_png_runs *w) {
    const uint8_t *raw = w->raw;
    const uint8_t *up = w->prior;
    uint8_t *out = w->line + 1;
    size_t n = w->row_bytes;
    size_t bpp = (size_t)w->channels;
    switch (w->filter) {
    case TV_PNG_FILTER_SUB:
        w->line[0] = 1;
        for (size_t i = 0; i < bpp && i < n; i++) out[i] = raw[i];
        for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(raw[i] - raw[i - bpp]);
        break;
    case TV_PNG_FILTER_UP:
        w->line[0] = 2;
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(raw[i] - up[i]);
        break;
    case TV_PNG_FILTER_AVERAGE:
        w->line[0] = 3;
        for (size_t i = 0; i < n; i++) {
            unsigned left = i >= bpp ? raw[i - bpp] : 0;
            out[i] = (uint8_t)(raw[i] - ((left + up[i]) >> 1));
        }
        break;
    case TV_PNG_FILTER_PAETH:
        w->line[0] = 4;
        for (size_t i = 0; i < n; i++) {
            int a = i >= bpp ? raw[i - bpp] : 0, b = up[i], c = i >= bpp ? up[i - bpp] : 0;
            int p = a + b - c;
            int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
            int predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            out[i] = (uint8_t)(raw[i] - predicted);
        }
        break;
    default:
        w->line[0] = 0;
        memcpy(out, raw, n);
        break;
    }
}

int tv_png_runs_row(tv_png_runs *w, const uint8_t *rgba) {
    if (w->failed) return 0;
    if (w->channels == 1) {
        tv_rgba_to_gray(rgba, w->raw, w->width);
    } else if (w->channels == 3) {
        uint8_t *p = w->raw;
        for (uint32_t x = 0; x < w->width; x++, rgba += 4, p += 3) {
            p[0] = rgba[0];
            p[1] = rgba[1];
            p[2] = rgba[2];
        }
    } else {
        memcpy(w->raw, rgba, w->row_bytes);
    }
    runs_filter(w);
    const uint8_t *line = w->line;
    size_t left = w->row_bytes + 1;
    while (left > 0) {
        size_t room = RUNS_BLOCK - w->pending;
        size_t used = left < room ? left : room;
        memcpy(w->block + w->pending, line, used);
        w->pending += used;
        line += used;
        left -= used;
        if (w->pending == RUNS_BLOCK) runs_compress_block(w);
    }
    uint8_t *done = w->prior; /* the row just filtered is the next one's prior */
    w->prior = w->raw;
    w->raw = done;
    return !w->failed;
}

int tv_png_runs_end(tv_png_runs *w, uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    runs_compress_block(w);
    if (!runs_reserve(w, 64)) return 0;
    runs_put(w, 1 | (1 << 1), 3); /* the last block: fixed Huffman codes, */
    runs_put(w, 0, 7);            /* holding only its end (fixed code 256: seven zero bits) */
    while (w->bit_count > 0) {
        w->out[w->length++] = (uint8_t)w->bits;
        w->bits >>= 8;
        w->bit_count = w->bit_count > 8 ? w->bit_count - 8 : 0;
    }
    runs_store_u32(w->out + w->length, (uint32_t)w->adler);
    w->length += 4;

    size_t stream = w->length - RUNS_PREFIX;
    const size_t chunk_limit = TV_PNG_RUNS_IDAT_LIMIT;
    size_t chunks = stream == 0 ? 1 : (stream + chunk_limit - 1) / chunk_limit;
    uint8_t *file = w->out;
    size_t file_length = w->length;
    if (chunks > 1) { /* over 2 GiB of stream: IDAT chunks of at most 2^31 - 1 bytes, in a new buffer */
        file_length = RUNS_PREFIX - 8 + stream + chunks * 12 + 12;
        file = malloc(file_length);
        if (file == NULL) {
            w->failed = 1;
            return 0;
        }
        size_t at = RUNS_PREFIX - 8;
        for (size_t offset = 0; offset < stream; offset += chunk_limit) {
            size_t part = stream - offset < chunk_limit ? stream - offset : chunk_limit;
            memcpy(file + at + 8, w->out + RUNS_PREFIX + offset, part);
            runs_seal_chunk(file + at + 8, part, "IDAT");
            at += part + 12;
        }
        file_length = at; /* IEND follows */
    } else {
        if (!runs_reserve(w, 16)) return 0;
        file = w->out;
        runs_seal_chunk(file + RUNS_PREFIX, stream, "IDAT");
        file_length = w->length + 4;
    }
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(file, signature, 8);
    uint8_t *ihdr = file + 16; /* its data */
    runs_store_u32(ihdr, w->width);
    runs_store_u32(ihdr + 4, w->height);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = (uint8_t)(w->channels == 1 ? 0 : w->channels == 3 ? 2 : 6);
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering (the method; each row names its filter) */
    ihdr[12] = 0; /* not interlaced */
    runs_seal_chunk(ihdr, 13, "IHDR");
    static const uint8_t iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    memcpy(file + file_length, iend, 12);
    file_length += 12;
    if (file == w->out) w->out = NULL; /* handed over */
    *out = file;
    *out_length = file_length;
    return 1;
}
