/* PNG decoding through libpng's full API: header and transforms to RGBA8, row streaming for
 * non-interlaced images, whole-image reads (Adam7), each behind its own setjmp. */

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shim_internal.h"

/* Per-side limit given to png_set_user_limits (libvips uses the same coordinate limit); the
 * Swift side applies the pixel-count limit before any pixel memory is allocated. */
#define TV_PNG_MAX_DIMENSION 10000000u
/* Largest ancillary chunk libpng may allocate (libpng's own default), and how many
 * ancillary chunks it keeps. */
#define TV_PNG_CHUNK_MALLOC_MAX 8000000u
#define TV_PNG_CHUNK_CACHE_MAX 1000u

struct tv_png_decoder {
    png_structp png;
    png_infop info;
    FILE *file;
    const uint8_t *data;
    size_t length;
    size_t position;
    long file_size;       /* of a file source; -1 when unknown */
    int hit_end;          /* the read function ran out of data */
    int read_failed;      /* the file could not be read */
    int broken;
    int finished;
    int image_read;
    uint32_t width, height;
    int interlaced;
    uint32_t next_row;    /* rows delivered so far (non-interlaced) */
    uint32_t rows_done;   /* rows finished by the read call in progress (read after a longjmp) */
    uint8_t *scratch_row; /* destination of rows that are decoded and discarded */
    png_bytep *row_pointers;
    tv_status failure;
    char failure_message[TV_MESSAGE_LEN];
    struct tv_warning_log warnings;
    uint8_t *exif;
    size_t exif_length;
    tv_png_color color_info;            /* the colour chunks before the image data */
    const tv_color_transform *color;    /* applied to rows read; NULL: none */
};

static void tv_png_error_fn(png_structp png, png_const_charp message) {
    struct tv_png_decoder *d = png_get_error_ptr(png);
    if (d->read_failed) {
        d->failure = TV_ERR_IO;
    } else if (d->hit_end) {
        d->failure = TV_ERR_TRUNCATED;
    } else if (strstr(message, "exceeds user limit") != NULL) {
        d->failure = TV_ERR_LIMIT;
    } else if (strstr(message, "ut of memory") != NULL || strstr(message, "ut of Memory") != NULL) {
        d->failure = TV_ERR_NOMEM;
    } else {
        d->failure = TV_ERR_CORRUPT;
    }
    tv_copy_message(d->failure_message, message);
    png_longjmp(png, 1);
}

/* Bytes of the whole input, or SIZE_MAX when that is unknown. */
static size_t tv_png_input_size(const struct tv_png_decoder *d) {
    if (d->file == NULL) return d->length;
    return d->file_size >= 0 ? (size_t)d->file_size : SIZE_MAX;
}

/* libpng 1.6 only warns ("chunk data is too large") when a chunk is longer than the
 * png_set_chunk_malloc_max limit, then allocates and zeroes a buffer of the declared length
 * anyway: a 57-byte file that declares a 1 GB tEXt chunk costs 1 GB of memory. A block larger
 * than that limit, than a few image rows and than the whole input can only be for a chunk whose
 * bytes are not there (chunk data and its copies are never longer than the input; decompressed
 * text and profiles stay under the limit): stop at once with a truncation error, as reading the
 * chunk would. A real chunk over the limit is still read, at a cost bounded by the input size. */
static png_voidp tv_png_malloc_fn(png_structp png, png_alloc_size_t size) {
    struct tv_png_decoder *d = png_get_mem_ptr(png);
    if (d != NULL && size > TV_PNG_CHUNK_MALLOC_MAX) {
        png_alloc_size_t rows = 0;
        if (d->info != NULL) {
            /* libpng's row buffers hold up to 8 bytes per pixel (16-bit RGBA) plus padding; twice that. */
            rows = ((png_alloc_size_t)png_get_image_width(png, d->info) + 8) * 16 + 1024;
        }
        size_t input = tv_png_input_size(d);
        if (size > rows && input != SIZE_MAX && size > input + 1024) {
            char message[TV_MESSAGE_LEN];
            snprintf(message, sizeof message, "a chunk declares %zu bytes, more than the %zu bytes of the whole data",
                     (size_t)size, input);
            d->hit_end = 1;
            png_error(png, message);
        }
    }
    return malloc(size);
}

static void tv_png_free_fn(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

static void tv_png_warning_fn(png_structp png, png_const_charp message) {
    struct tv_png_decoder *d = png_get_error_ptr(png);
    tv_warning_log_add(&d->warnings, message);
}

static void tv_png_read_fn(png_structp png, png_bytep out, size_t count) {
    struct tv_png_decoder *d = png_get_io_ptr(png);
    if (d->file != NULL) {
        size_t got = fread(out, 1, count, d->file);
        if (got == count) return;
        if (ferror(d->file)) {
            d->read_failed = 1;
            png_error(png, strerror(errno));
        }
        d->hit_end = 1;
        png_error(png, "the file ends before the image is complete");
    }
    if (count > d->length - d->position) {
        d->hit_end = 1;
        png_error(png, "the data ends before the image is complete");
    }
    memcpy(out, d->data + d->position, count);
    d->position += count;
}

static tv_status tv_png_failed(struct tv_png_decoder *d, tv_error *err) {
    d->broken = 1;
    if (err != NULL) {
        tv_copy_message(err->message, d->failure_message);
        err->from_warning = 0;
    }
    return d->failure;
}

static tv_status tv_png_check(const struct tv_png_decoder *d, tv_error *err) {
    if (d == NULL) return tv_fail(err, TV_ERR_ARG, "no decoder");
    if (d->broken) return tv_fail(err, TV_ERR_STATE, "the decoder stopped at an earlier error");
    if (d->finished) return tv_fail(err, TV_ERR_STATE, "the decoder has finished");
    return TV_OK;
}

static tv_status tv_png_open(const uint8_t *data, size_t length, FILE *file, tv_png_decoder **decoder,
                             tv_png_header *header, tv_error *err) {
    *decoder = NULL;
    struct tv_png_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) {
        if (file != NULL) fclose(file);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    d->file = file;
    d->file_size = -1;
    if (file != NULL) d->file_size = (long)tv_stream_length(file);
    d->data = data;
    d->length = length;
    d->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, d, tv_png_error_fn, tv_png_warning_fn, d,
                                      tv_png_malloc_fn, tv_png_free_fn);
    if (d->png != NULL) d->info = png_create_info_struct(d->png);
    if (d->png == NULL || d->info == NULL) {
        tv_png_close(d);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    if (setjmp(png_jmpbuf(d->png))) {
        tv_status status = tv_png_failed(d, err);
        tv_png_close(d);
        return status;
    }
    png_set_read_fn(d->png, d, tv_png_read_fn);
    png_set_user_limits(d->png, TV_PNG_MAX_DIMENSION, TV_PNG_MAX_DIMENSION);
    png_set_chunk_malloc_max(d->png, TV_PNG_CHUNK_MALLOC_MAX);
    png_set_chunk_cache_max(d->png, TV_PNG_CHUNK_CACHE_MAX);
    png_read_info(d->png, d->info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(d->png, d->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    d->width = width;
    d->height = height;
    d->interlaced = interlace == PNG_INTERLACE_ADAM7;
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = d->interlaced;

    png_uint_32 exif_length = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(d->png, d->info, &exif_length, &exif) != 0 && exif != NULL && exif_length > 0) {
        d->exif = malloc(exif_length);
        if (d->exif != NULL) {
            memcpy(d->exif, exif, exif_length);
            d->exif_length = exif_length;
        }
    }

    /* The colour description (docs/design.md section 14): libpng keeps the chunks' data until the decoder is closed. */
    {
        png_charp name = NULL;
        int compression = 0;
        png_bytep profile = NULL;
        png_uint_32 profile_length = 0;
        if (png_get_iCCP(d->png, d->info, &name, &compression, &profile, &profile_length) != 0 && profile != NULL) {
            d->color_info.icc = profile;
            d->color_info.icc_length = profile_length;
        }
        int intent = 0;
        d->color_info.has_srgb = png_get_sRGB(d->png, d->info, &intent) != 0;
        tv_chromaticities *c = &d->color_info.chromaticities;
        d->color_info.has_chrm = png_get_cHRM(d->png, d->info, &c->white_x, &c->white_y, &c->red_x, &c->red_y,
                                              &c->green_x, &c->green_y, &c->blue_x, &c->blue_y) != 0;
        double gamma = 0;
        if (png_get_gAMA(d->png, d->info, &gamma) != 0 && gamma > 0) {
            d->color_info.has_gama = 1;
            c->gamma = 1.0 / gamma;
        }
    }

    /* RGBA8 whatever the file holds (the corpus rules). */
    png_set_expand(d->png);
    png_set_strip_16(d->png);
    png_set_gray_to_rgb(d->png);
    png_set_add_alpha(d->png, 0xFF, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    if (png_get_rowbytes(d->png, d->info) != (size_t)width * 4) {
        tv_png_close(d);
        return tv_fail(err, TV_ERR_UNSUPPORTED, "libpng could not transform this PNG to 8-bit RGBA");
    }
    *decoder = d;
    return TV_OK;
}

tv_status tv_png_open_memory(const uint8_t *data, size_t length, tv_png_decoder **decoder, tv_png_header *header,
                             tv_error *err) {
    *decoder = NULL;
    if (data == NULL || length == 0) return tv_fail(err, TV_ERR_TRUNCATED, "the data is empty");
    return tv_png_open(data, length, NULL, decoder, header, err);
}

tv_status tv_png_open_file(const char *path, tv_png_decoder **decoder, tv_png_header *header, tv_error *err) {
    *decoder = NULL;
    FILE *file = tv_fopen_regular(path, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_png_open(NULL, 0, file, decoder, header, err);
}

tv_status tv_png_open_descriptor(int fd, tv_png_decoder **decoder, tv_png_header *header, tv_error *err) {
    *decoder = NULL;
    FILE *file = tv_fopen_descriptor(fd, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_png_open(NULL, 0, file, decoder, header, err);
}

const uint8_t *tv_png_exif(const tv_png_decoder *d, size_t *length) {
    *length = d != NULL ? d->exif_length : 0;
    return d != NULL ? d->exif : NULL;
}

void tv_png_color_info(const tv_png_decoder *d, tv_png_color *color) {
    if (d == NULL) {
        memset(color, 0, sizeof *color);
        return;
    }
    *color = d->color_info;
}

void tv_png_set_color(tv_png_decoder *d, const tv_color_transform *transform) {
    if (d != NULL) d->color = transform;
}

tv_status tv_png_read_rows(tv_png_decoder *d, uint8_t *dst, size_t stride, uint32_t rows, uint32_t *done,
                           tv_error *err) {
    *done = 0;
    tv_status status = tv_png_check(d, err);
    if (status != TV_OK) return status;
    if (d->interlaced) return tv_fail(err, TV_ERR_INTERLACED, "an interlaced PNG cannot be read row by row");
    if (d->image_read) return tv_fail(err, TV_ERR_STATE, "the image was already read whole");
    if (dst == NULL && d->scratch_row == NULL) {
        d->scratch_row = malloc((size_t)d->width * 4);
        if (d->scratch_row == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    d->rows_done = 0;
    if (setjmp(png_jmpbuf(d->png))) {
        *done = d->rows_done;
        return tv_png_failed(d, err);
    }
    while (d->rows_done < rows && d->next_row < d->height) {
        png_bytep row = dst != NULL ? dst + (size_t)d->rows_done * stride : d->scratch_row;
        png_read_row(d->png, row, NULL);
        if (d->color != NULL && dst != NULL) tv_color_apply(d->color, row, 0, d->width, 1);
        d->rows_done++;
        d->next_row++;
    }
    *done = d->rows_done;
    return TV_OK;
}

tv_status tv_png_read_image(tv_png_decoder *d, uint8_t *dst, size_t stride, tv_error *err) {
    tv_status status = tv_png_check(d, err);
    if (status != TV_OK) return status;
    if (d->next_row != 0 || d->image_read) return tv_fail(err, TV_ERR_STATE, "rows were already read");
    if (d->row_pointers == NULL) {
        d->row_pointers = malloc((d->height > 0 ? d->height : 1) * sizeof(png_bytep));
        if (d->row_pointers == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    for (uint32_t y = 0; y < d->height; y++) d->row_pointers[y] = dst + (size_t)y * stride;
    if (setjmp(png_jmpbuf(d->png))) return tv_png_failed(d, err);
    png_read_image(d->png, d->row_pointers);
    if (d->color != NULL) tv_color_apply(d->color, dst, stride, d->width, d->height);
    d->image_read = 1;
    d->next_row = d->height;
    return TV_OK;
}

tv_status tv_png_finish(tv_png_decoder *d, tv_error *err) {
    tv_status status = tv_png_check(d, err);
    if (status != TV_OK) return status;
    if (d->next_row < d->height) {
        d->finished = 1;
        return TV_OK;
    }
    if (setjmp(png_jmpbuf(d->png))) return tv_png_failed(d, err);
    png_read_end(d->png, NULL);
    d->finished = 1;
    return TV_OK;
}

const tv_warning_log *tv_png_warnings(const tv_png_decoder *d) { return d != NULL ? &d->warnings : NULL; }

void tv_png_close(tv_png_decoder *d) {
    if (d == NULL) return;
    if (d->png != NULL) png_destroy_read_struct(&d->png, d->info != NULL ? &d->info : NULL, NULL);
    if (d->file != NULL) fclose(d->file);
    free(d->scratch_row);
    free(d->row_pointers);
    free(d->exif);
    free(d);
}
