/* PNG encoding into memory: the default compression (runs of the byte before) with one row filter through
 * png_runs.c, every other choice through libpng into a growing memory buffer, behind one setjmp. */

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h> /* Z_RLE */

#include "shim_internal.h"

struct tv_png_encoder {
    png_structp png;
    png_infop info;
    uint8_t *buffer;
    size_t length;
    size_t capacity;
    uint8_t *gray_row;
    tv_status failure;
    char failure_message[TV_MESSAGE_LEN];
};

static void tv_png_encoder_error_fn(png_structp png, png_const_charp message) {
    struct tv_png_encoder *e = png_get_error_ptr(png);
    if (e->failure == TV_OK) e->failure = TV_ERR_ARG;
    tv_copy_message(e->failure_message, message);
    png_longjmp(png, 1);
}

static void tv_png_encoder_warning_fn(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void tv_png_write_fn(png_structp png, png_bytep data, size_t count) {
    struct tv_png_encoder *e = png_get_io_ptr(png);
    if (count > e->capacity - e->length) {
        size_t capacity = e->capacity > 0 ? e->capacity : 4096;
        while (count > capacity - e->length) {
            if (capacity > SIZE_MAX / 2) {
                e->failure = TV_ERR_NOMEM;
                png_error(png, "the encoded image is too large");
            }
            capacity *= 2;
        }
        uint8_t *grown = realloc(e->buffer, capacity);
        if (grown == NULL) {
            e->failure = TV_ERR_NOMEM;
            png_error(png, "out of memory");
        }
        e->buffer = grown;
        e->capacity = capacity;
    }
    memcpy(e->buffer + e->length, data, count);
    e->length += count;
}

static void tv_png_flush_fn(png_structp png) { (void)png; }

static int tv_png_filter_mask(tv_png_filter filter) {
    switch (filter) {
    case TV_PNG_FILTER_NONE: return PNG_FILTER_NONE;
    case TV_PNG_FILTER_SUB: return PNG_FILTER_SUB;
    case TV_PNG_FILTER_UP: return PNG_FILTER_UP;
    case TV_PNG_FILTER_AVERAGE: return PNG_FILTER_AVG;
    case TV_PNG_FILTER_PAETH: return PNG_FILTER_PAETH;
    default: return PNG_ALL_FILTERS;
    }
}

static void tv_png_encoder_release(struct tv_png_encoder *e) {
    if (e->png != NULL) png_destroy_write_struct(&e->png, e->info != NULL ? &e->info : NULL);
    free(e->gray_row);
    free(e->buffer);
    free(e);
}

struct tv_png_row_encoder {
    struct tv_png_encoder *e; /* libpng's, or NULL when `runs` writes the file */
    tv_png_runs *runs;
    uint32_t width;
    uint32_t height;
    int color_type;
    int passes;
    /* Rows written so far, over all passes. */
    uint64_t written;
    int failed;
};

tv_status tv_png_row_encoder_begin(uint32_t width, uint32_t height, int color_type, int compression_level,
                                   tv_png_deflate deflate, tv_png_filter filter, int interlaced,
                                   tv_png_row_encoder **encoder, int *passes,
                                   tv_error *err) {
    *encoder = NULL;
    *passes = 0;
    if (width == 0 || height == 0) return tv_fail(err, TV_ERR_ARG, "a PNG cannot be empty");
    if (color_type != PNG_COLOR_TYPE_GRAY && color_type != PNG_COLOR_TYPE_RGB &&
        color_type != PNG_COLOR_TYPE_RGB_ALPHA) {
        return tv_fail(err, TV_ERR_ARG, "the colour type must be gray, RGB or RGBA");
    }
    if (compression_level < 0 || compression_level > 9) {
        return tv_fail(err, TV_ERR_ARG, "the compression level must be 0 ... 9");
    }
    if (deflate != TV_PNG_DEFLATE_DEFAULT && deflate != TV_PNG_DEFLATE_RLE) {
        return tv_fail(err, TV_ERR_ARG, "the deflate strategy must be the default or run lengths");
    }
    if (deflate == TV_PNG_DEFLATE_RLE && !interlaced &&
        (filter == TV_PNG_FILTER_NONE || filter == TV_PNG_FILTER_SUB || filter == TV_PNG_FILTER_UP ||
         filter == TV_PNG_FILTER_AVERAGE || filter == TV_PNG_FILTER_PAETH)) {
        /* libpng's default limits, which it applies to the PNGs it writes and to those tileview reads */
        if (width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX) {
            return tv_fail(err, TV_ERR_ARG, "a PNG is at most 1000000 pixels wide and high (libpng's limit)");
        }
        tv_png_row_encoder *own = calloc(1, sizeof *own);
        if (own != NULL) own->runs = tv_png_runs_begin(width, height, color_type, filter);
        if (own == NULL || own->runs == NULL) {
            free(own);
            return tv_fail(err, TV_ERR_NOMEM, "out of memory");
        }
        own->width = width;
        own->height = height;
        own->color_type = color_type;
        own->passes = 1;
        *encoder = own;
        *passes = 1;
        return TV_OK;
    }
    tv_png_row_encoder *r = calloc(1, sizeof *r);
    /* On the heap: the encoder changes after setjmp and is read after a longjmp. */
    struct tv_png_encoder *e = calloc(1, sizeof *e);
    if (r == NULL || e == NULL) {
        free(r);
        free(e);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    r->e = e;
    r->width = width;
    r->height = height;
    r->color_type = color_type;
    if (color_type == PNG_COLOR_TYPE_GRAY) {
        e->gray_row = malloc(width);
        if (e->gray_row == NULL) {
            tv_png_row_encoder_free(r);
            return tv_fail(err, TV_ERR_NOMEM, "out of memory");
        }
    }
    e->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, e, tv_png_encoder_error_fn, tv_png_encoder_warning_fn);
    if (e->png != NULL) e->info = png_create_info_struct(e->png);
    if (e->png == NULL || e->info == NULL) {
        tv_png_row_encoder_free(r);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    if (setjmp(png_jmpbuf(e->png))) {
        tv_status status = tv_fail(err, e->failure, e->failure_message);
        tv_png_row_encoder_free(r);
        return status;
    }
    png_set_write_fn(e->png, e, tv_png_write_fn, tv_png_flush_fn);
    png_set_IHDR(e->png, e->info, width, height, 8, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(e->png, compression_level);
    png_set_compression_strategy(e->png, deflate == TV_PNG_DEFLATE_RLE ? Z_RLE : Z_DEFAULT_STRATEGY);
    png_set_filter(e->png, PNG_FILTER_TYPE_BASE, tv_png_filter_mask(filter));
    png_write_info(e->png, e->info);
    if (color_type == PNG_COLOR_TYPE_RGB) png_set_filler(e->png, 0, PNG_FILLER_AFTER); /* drops the 4th byte */
    r->passes = png_set_interlace_handling(e->png);
    *encoder = r;
    *passes = r->passes;
    return TV_OK;
}

tv_status tv_png_row_encoder_write(tv_png_row_encoder *r, const uint8_t *rgba, size_t stride, uint32_t rows,
                                   tv_error *err) {
    if (r->failed) return tv_fail(err, TV_ERR_ARG, "the PNG encoder failed before");
    if (rows > (uint64_t)r->passes * r->height - r->written) {
        r->failed = 1;
        return tv_fail(err, TV_ERR_ARG, "more rows than the PNG holds");
    }
    if (r->runs != NULL) {
        for (uint32_t y = 0; y < rows; y++, r->written++) {
            if (!tv_png_runs_row(r->runs, rgba + (size_t)y * stride)) {
                r->failed = 1;
                return tv_fail(err, TV_ERR_NOMEM, "out of memory");
            }
        }
        return TV_OK;
    }
    struct tv_png_encoder *e = r->e;
    if (setjmp(png_jmpbuf(e->png))) {
        r->failed = 1;
        return tv_fail(err, e->failure, e->failure_message);
    }
    for (uint32_t y = 0; y < rows; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        if (r->color_type == PNG_COLOR_TYPE_GRAY) {
            tv_rgba_to_gray(row, e->gray_row, r->width);
            row = e->gray_row;
        }
        png_write_row(e->png, row);
        r->written++;
    }
    return TV_OK;
}

tv_status tv_png_row_encoder_end(tv_png_row_encoder *r, uint8_t **out, size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    if (r->failed) return tv_fail(err, TV_ERR_ARG, "the PNG encoder failed before");
    if (r->written != (uint64_t)r->passes * r->height) {
        r->failed = 1;
        return tv_fail(err, TV_ERR_ARG, "the PNG was ended before its last row");
    }
    if (r->runs != NULL) {
        r->failed = 1; /* ended: nothing more may be written */
        if (!tv_png_runs_end(r->runs, out, out_length)) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
        return TV_OK;
    }
    struct tv_png_encoder *e = r->e;
    if (setjmp(png_jmpbuf(e->png))) {
        r->failed = 1;
        return tv_fail(err, e->failure, e->failure_message);
    }
    png_write_end(e->png, e->info);
    *out = e->buffer;
    *out_length = e->length;
    e->buffer = NULL;
    r->failed = 1; /* ended: nothing more may be written */
    return TV_OK;
}

void tv_png_row_encoder_free(tv_png_row_encoder *r) {
    if (r == NULL) return;
    if (r->e != NULL) tv_png_encoder_release(r->e);
    tv_png_runs_free(r->runs);
    free(r);
}

tv_status tv_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int color_type,
                        int compression_level, tv_png_deflate deflate, tv_png_filter filter, int interlaced,
                        uint8_t **out,
                        size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    tv_png_row_encoder *r = NULL;
    int passes = 0;
    tv_status status = tv_png_row_encoder_begin(width, height, color_type, compression_level, deflate, filter,
                                                interlaced, &r, &passes, err);
    for (int pass = 0; status == TV_OK && pass < passes; pass++) {
        status = tv_png_row_encoder_write(r, rgba, stride, height, err);
    }
    if (status == TV_OK) status = tv_png_row_encoder_end(r, out, out_length, err);
    tv_png_row_encoder_free(r);
    return status;
}

tv_status tv_png_iccp_chunk(const uint8_t *profile, size_t length, const char *name, uint8_t **out,
                            size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    if (profile == NULL || length == 0 || length > TV_ICC_MAX_BYTES) {
        return tv_fail(err, TV_ERR_ARG, "no ICC profile, or one over 4 MiB");
    }
    /* The keyword: 1 to 79 Latin-1 printable characters, no leading, trailing or double spaces. */
    char keyword[80];
    size_t k = 0;
    for (const char *c = name != NULL ? name : ""; *c != 0 && k < 79; c++) {
        unsigned char ch = (unsigned char)*c;
        if (ch < 0x20 || ch > 0x7E || (ch == ' ' && (k == 0 || keyword[k - 1] == ' '))) continue;
        keyword[k++] = (char)ch;
    }
    while (k > 0 && keyword[k - 1] == ' ') k--;
    if (k == 0) {
        memcpy(keyword, "ICC profile", 11);
        k = 11;
    }
    uLongf packed = compressBound((uLong)length);
    size_t data_length = k + 2 + packed;
    uint8_t *chunk = malloc(12 + data_length);
    if (chunk == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    memcpy(chunk + 8, keyword, k);
    chunk[8 + k] = 0;     /* the keyword's end */
    chunk[8 + k + 1] = 0; /* compression method: deflate */
    if (compress2(chunk + 8 + k + 2, &packed, profile, (uLong)length, 9) != Z_OK) {
        free(chunk);
        return tv_fail(err, TV_ERR_NOMEM, "zlib could not compress the ICC profile");
    }
    data_length = k + 2 + packed;
    chunk[0] = (uint8_t)(data_length >> 24);
    chunk[1] = (uint8_t)(data_length >> 16);
    chunk[2] = (uint8_t)(data_length >> 8);
    chunk[3] = (uint8_t)data_length;
    memcpy(chunk + 4, "iCCP", 4);
    uLong crc = crc32(0L, chunk + 4, (uInt)(4 + data_length));
    uint8_t *end = chunk + 8 + data_length;
    end[0] = (uint8_t)(crc >> 24);
    end[1] = (uint8_t)(crc >> 16);
    end[2] = (uint8_t)(crc >> 8);
    end[3] = (uint8_t)crc;
    *out = chunk;
    *out_length = 12 + data_length;
    return TV_OK;
}
