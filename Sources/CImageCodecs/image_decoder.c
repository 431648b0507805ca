/* The row decoder shared by WebP, HEIF/AVIF, TIFF and GIF: the input (memory, or a file read with pread), the
 * header, ICC and EXIF copies, warnings, colour, and rows: streamed by the format, or served from the whole
 * image decoded at the first read. The libraries these formats use report errors by return values (no longjmp),
 * so no call here needs setjmp. */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shim_internal.h"

tv_status tv_image_fail(const struct tv_image_decoder *d, tv_error *err, tv_status status, const char *message) {
    (void)d;
    return tv_fail(err, status, message);
}

long long tv_input_read(const struct tv_image_decoder *d, uint64_t offset, void *buffer, size_t count) {
    if (offset >= d->length) return 0;
    if (count > d->length - offset) count = (size_t)(d->length - offset);
    if (d->data != NULL) {
        memcpy(buffer, d->data + offset, count);
        return (long long)count;
    }
    return tv_descriptor_read_at(d->fd, offset, buffer, count);
}

long long tv_input_read_through(const struct tv_image_decoder *d, struct tv_input_window *window, uint64_t offset,
                                void *buffer, size_t count) {
    if (d->data != NULL || count > TV_INPUT_WINDOW) return tv_input_read(d, offset, buffer, count);
    if (offset < window->offset || offset + count > window->offset + window->length) {
        long long got = tv_input_read(d, offset, window->bytes, TV_INPUT_WINDOW);
        if (got < 0) return -1;
        window->offset = offset;
        window->length = (size_t)got;
    }
    size_t have = (size_t)(window->offset + window->length - offset);
    if (count > have) count = have;
    memcpy(buffer, window->bytes + (offset - window->offset), count);
    return (long long)count;
}

tv_status tv_input_all(struct tv_image_decoder *d, size_t limit, const uint8_t **bytes, uint8_t **owned,
                       tv_error *err) {
    *owned = NULL;
    if (d->data != NULL) {
        *bytes = d->data;
        return TV_OK;
    }
    if (d->length > limit) {
        char message[TV_MESSAGE_LEN];
        snprintf(message, sizeof message, "the file has %zu bytes, more than the %zu read into memory", d->length,
                 limit);
        return tv_image_fail(d, err, TV_ERR_LIMIT, message);
    }
    uint8_t *copy = malloc(d->length > 0 ? d->length : 1);
    if (copy == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory reading the file");
    long long got = tv_input_read(d, 0, copy, d->length);
    if (got < 0 || (size_t)got != d->length) {
        free(copy);
        return tv_image_fail(d, err, TV_ERR_IO, got < 0 ? strerror(errno) : "the file changed while it was read");
    }
    *bytes = copy;
    *owned = copy;
    return TV_OK;
}

static uint8_t *tv_copy_bytes(const uint8_t *bytes, size_t length) {
    uint8_t *copy = malloc(length > 0 ? length : 1);
    if (copy != NULL && length > 0) memcpy(copy, bytes, length);
    return copy;
}

void tv_image_icc_too_large(struct tv_image_decoder *d) {
    tv_warning_log_add(&d->warnings, "the ICC profile is larger than 4 MiB and is ignored");
}

void tv_image_keep_icc(struct tv_image_decoder *d, const uint8_t *bytes, size_t length) {
    if (bytes == NULL || length == 0 || d->icc != NULL) return;
    if (length > TV_ICC_MAX_BYTES) {
        tv_image_icc_too_large(d);
        return;
    }
    d->icc = tv_copy_bytes(bytes, length);
    d->icc_length = d->icc != NULL ? length : 0;
}

void tv_image_keep_exif(struct tv_image_decoder *d, const uint8_t *bytes, size_t length) {
    if (bytes == NULL || d->exif != NULL) return;
    /* WebP and HEIF writers differ on whether the block starts with "Exif\0\0" (JPEG's APP1 prefix). */
    if (length >= 6 && memcmp(bytes, "Exif\0\0", 6) == 0) {
        bytes += 6;
        length -= 6;
    }
    if (length == 0) return;
    if (length > TV_EXIF_MAX_BYTES) {
        tv_warning_log_add(&d->warnings, "the EXIF block is larger than 1 MiB and is ignored");
        return;
    }
    d->exif = tv_copy_bytes(bytes, length);
    d->exif_length = d->exif != NULL ? length : 0;
}

static const struct tv_image_ops *tv_image_ops_of(tv_image_format format) {
    switch (format) {
    case TV_IMAGE_WEBP: return &tv_webp_ops;
    case TV_IMAGE_HEIF: return &tv_heif_ops;
    case TV_IMAGE_TIFF: return &tv_tiff_ops;
    case TV_IMAGE_GIF: return &tv_gif_ops;
    }
    return NULL;
}

/* Opens `format` from `data` or `fd` (which the decoder then owns); a TIFF at the IFD `directory` only, when that is
 * not 0. */
static tv_status tv_image_open(tv_image_format format, const uint8_t *data, size_t length, int fd, int strict,
                               uint64_t directory, tv_image_decoder **decoder, tv_image_header *header,
                               tv_error *err) {
    *decoder = NULL;
    const struct tv_image_ops *ops = tv_image_ops_of(format);
    if (ops == NULL) {
        if (fd >= 0) close(fd);
        return tv_fail(err, TV_ERR_ARG, "unknown image format");
    }
    struct tv_image_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) {
        if (fd >= 0) close(fd);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    d->format = format;
    d->ops = ops;
    d->data = data;
    d->length = length;
    d->fd = fd;
    d->strict = strict;
    d->open_directory = directory;
    if (fd >= 0) {
        struct stat info;
        if (fstat(fd, &info) != 0) {
            tv_status status = tv_fail(err, TV_ERR_IO, strerror(errno));
            tv_image_close(d);
            return status;
        }
        d->length = (size_t)info.st_size;
    }
    tv_status status = ops->open(d, err);
    if (status != TV_OK) {
        tv_image_close(d);
        return status;
    }
    d->window_x = 0;
    d->window_width = d->header.width;
    *header = d->header;
    *decoder = d;
    return TV_OK;
}

tv_status tv_image_open_memory(tv_image_format format, const uint8_t *data, size_t length, int strict,
                               tv_image_decoder **decoder, tv_image_header *header, tv_error *err) {
    static const uint8_t empty = 0;
    return tv_image_open(format, data != NULL ? data : &empty, length, -1, strict, 0, decoder, header, err);
}

tv_status tv_image_open_file(tv_image_format format, const char *path, int strict, tv_image_decoder **decoder,
                             tv_image_header *header, tv_error *err) {
    *decoder = NULL;
    int fd = tv_open_regular(path, err);
    if (fd < 0) return TV_ERR_IO;
    return tv_image_open(format, NULL, 0, fd, strict, 0, decoder, header, err);
}

tv_status tv_image_open_descriptor(tv_image_format format, int fd, int strict, tv_image_decoder **decoder,
                                   tv_image_header *header, tv_error *err) {
    *decoder = NULL;
    int copy = tv_dup_regular(fd, err);
    if (copy < 0) return TV_ERR_IO;
    return tv_image_open(format, NULL, 0, copy, strict, 0, decoder, header, err);
}

const uint8_t *tv_image_icc(const tv_image_decoder *d, size_t *length) {
    *length = d->icc_length;
    return d->icc;
}

const uint8_t *tv_image_exif(const tv_image_decoder *d, size_t *length) {
    *length = d->exif_length;
    return d->exif;
}

void tv_image_set_color(tv_image_decoder *d, const tv_color_transform *transform) { d->color = transform; }

void tv_image_tile_window(struct tv_image_decoder *d, uint32_t x, uint32_t width, uint32_t *first_tile,
                          uint32_t *tiles) {
    uint32_t tile_width = d->header.tile_width;
    uint32_t first = x / tile_width, last = (x + width - 1) / tile_width;
    *first_tile = first;
    *tiles = last - first + 1;
    d->window_x = first * tile_width;
    uint32_t right = (last + 1) * tile_width;
    d->window_width = (right < d->header.width ? right : d->header.width) - d->window_x;
}

void tv_image_crop_columns(tv_image_decoder *d, uint32_t x, uint32_t width, uint32_t *window_x,
                           uint32_t *window_width) {
    if (d->next_row == 0 && d->whole == NULL && d->header.streams_rows && d->ops->crop_columns != NULL &&
        x < d->header.width) {
        if (width > d->header.width - x) width = d->header.width - x;
        d->ops->crop_columns(d, x, width);
    }
    *window_x = d->window_x;
    *window_width = d->window_width;
}

tv_status tv_image_read_rows(tv_image_decoder *d, uint8_t *dst, size_t stride, uint32_t rows, uint32_t *done,
                             tv_error *err) {
    *done = 0;
    if (d->broken) return tv_fail(err, TV_ERR_STATE, "the decoder failed earlier");
    uint32_t height = d->header.height, width = d->header.width;
    if (rows > height - d->next_row) rows = height - d->next_row;
    if (rows == 0) return TV_OK;
    if (d->header.streams_rows && d->ops->read_rows != NULL) {
        if (dst != NULL && stride < (size_t)d->window_width * 4) return tv_fail(err, TV_ERR_ARG, "rows overlap");
        tv_status status = d->ops->read_rows(d, dst, stride, rows, done, err);
        if (dst != NULL && d->color != NULL && *done > 0) {
            tv_color_apply(d->color, dst, stride, d->window_width, *done);
        }
        d->next_row += *done;
        if (status != TV_OK) d->broken = 1;
        return status;
    }
    if (dst != NULL && stride < (size_t)width * 4) return tv_fail(err, TV_ERR_ARG, "rows overlap");
    if (!d->whole_ready && d->ops->decode_held == NULL && d->next_row == 0 && rows == height && dst != NULL &&
        stride == (size_t)width * 4) {
        /* Every row at once into rows laid end to end: decoded straight there, with no copy held here. Zeroed
         * first: a library may leave pixels of a damaged file unwritten (the kept copy is calloc'd likewise). */
        memset(dst, 0, (size_t)width * height * 4);
        tv_status status = d->ops->decode_whole(d, dst, err);
        if (status != TV_OK) {
            d->broken = 1;
            return status;
        }
        if (d->color != NULL) tv_color_apply(d->color, dst, stride, width, height);
        d->next_row = height;
        *done = height;
        return TV_OK;
    }
    tv_status status = tv_image_decode_whole(d, err);
    if (status != TV_OK) return status;
    if (dst != NULL) {
        for (uint32_t r = 0; r < rows; r++) {
            memcpy(dst + (size_t)r * stride, d->whole_base + ((size_t)d->next_row + r) * d->whole_stride,
                   (size_t)width * 4);
        }
    }
    d->next_row += rows;
    *done = rows;
    return TV_OK;
}

uint32_t tv_image_parts_prepare(tv_image_decoder *d, uint32_t row) {
    if (d->broken || !d->header.streams_rows || d->ops->parts_prepare == NULL || row >= d->header.height) return 0;
    return d->ops->parts_prepare(d, row);
}

void tv_image_parts_decode(tv_image_decoder *d, uint32_t part) { d->ops->parts_decode(d, part); }

tv_status tv_image_parts_join(tv_image_decoder *d, tv_error *err) {
    tv_status status = d->ops->parts_join(d, err);
    if (status != TV_OK) d->broken = 1;
    return status;
}

uint32_t tv_image_unit_rows(const tv_image_decoder *d) {
    if (!d->header.streams_rows) return 0;
    return d->header.tiled ? d->header.tile_height : d->header.rows_per_strip;
}

tv_status tv_image_decode_whole(tv_image_decoder *d, tv_error *err) {
    if (d->whole_ready) return TV_OK;
    if (d->broken) return tv_fail(err, TV_ERR_STATE, "the decoder failed earlier");
    if (d->header.streams_rows) return tv_fail(err, TV_ERR_ARG, "this file's rows are streamed, not kept");
    uint32_t width = d->header.width, height = d->header.height;
    tv_status status;
    if (d->ops->decode_held != NULL) {
        status = d->ops->decode_held(d, err);
    } else {
        size_t bytes = (size_t)width * height * 4;
        d->whole = calloc(bytes > 0 ? bytes : 1, 1);
        if (d->whole == NULL) {
            d->broken = 1;
            return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory for the decoded image");
        }
        status = d->ops->decode_whole(d, d->whole, err);
        d->whole_base = d->whole;
        d->whole_stride = (size_t)width * 4;
    }
    if (status != TV_OK) {
        d->broken = 1;
        free(d->whole);
        d->whole = NULL;
        d->whole_base = NULL;
        return status;
    }
    if (d->color != NULL) tv_color_apply(d->color, d->whole_base, d->whole_stride, width, height);
    d->whole_ready = 1;
    return TV_OK;
}

const uint8_t *tv_image_whole_row(const tv_image_decoder *d, uint32_t row) {
    if (!d->whole_ready || row >= d->header.height) return NULL;
    return d->whole_base + (size_t)row * d->whole_stride;
}

void tv_image_level_size(const tv_image_decoder *d, uint32_t level, uint32_t *width, uint32_t *height) {
    *width = *height = 0;
    if (level == 0) {
        *width = d->header.width;
        *height = d->header.height;
    } else if (level <= d->header.levels && d->ops->level_size != NULL) {
        d->ops->level_size(d, level, width, height);
    }
}

tv_status tv_image_select_level(tv_image_decoder *d, uint32_t level, tv_image_header *header, tv_error *err) {
    if (d->broken) return tv_fail(err, TV_ERR_STATE, "the decoder failed earlier");
    if (d->next_row != 0 || d->whole_ready || level > d->header.levels || d->ops->select_level == NULL) {
        return tv_fail(err, TV_ERR_ARG, "no such level, or rows were read already");
    }
    tv_status status = d->ops->select_level(d, (int)level, err);
    if (status != TV_OK) {
        d->broken = 1;
        return status;
    }
    d->window_x = 0;
    d->window_width = d->header.width;
    *header = d->header;
    return TV_OK;
}

uint64_t tv_image_level_directory(const tv_image_decoder *d, uint32_t level) {
    return d->format == TV_IMAGE_TIFF && level <= d->header.levels ? tv_tiff_level_directory(d, level) : 0;
}

tv_status tv_image_stored_jpeg_tile_at(const uint8_t *data, size_t length, const char *path, int fd, uint64_t directory,
                                       uint32_t column, uint32_t row, uint32_t tile_size, uint8_t **out,
                                       size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    if (directory == 0) return tv_fail(err, TV_ERR_ARG, "no directory");
    int owned = -1;
    if (data == NULL) {
        owned = path != NULL ? tv_open_regular(path, err) : tv_dup_regular(fd, err);
        if (owned < 0) return TV_ERR_IO;
    }
    tv_image_decoder *d = NULL;
    tv_image_header header;
    tv_status status = tv_image_open(TV_IMAGE_TIFF, data, length, owned, 1, directory, &d, &header, err);
    if (status != TV_OK) return status;
    status = tv_tiff_stored_jpeg_tile(d, column, row, tile_size, out, out_length, err);
    tv_image_close(d);
    return status;
}

tv_status tv_image_finish(tv_image_decoder *d, tv_error *err) {
    (void)err;
    /* A kept image stays for tv_image_whole_row (its holder releases it by closing); our own copy of rows that
     * were read goes. */
    if (d->whole != NULL && d->whole_base == d->whole && d->next_row >= d->header.height) {
        free(d->whole);
        d->whole = NULL;
        d->whole_base = NULL;
        d->whole_ready = 0;
    }
    return TV_OK;
}

const tv_warning_log *tv_image_warnings(const tv_image_decoder *d) { return d != NULL ? &d->warnings : NULL; }

void tv_image_close(tv_image_decoder *d) {
    if (d == NULL) return;
    if (d->ops != NULL && d->ops->close != NULL) d->ops->close(d);
    free(d->whole);
    free(d->icc);
    free(d->exif);
    if (d->fd >= 0) close(d->fd);
    free(d);
}
