/* PNG decoding through libpng's full API: header and transforms to RGBA8, row streaming for
 * non-interlaced images, whole-image reads (Adam7), each behind its own setjmp. */

#include <errno.h>
#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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
    int source_fd;                      /* the caller's descriptor (tv_png_open_descriptor), else -1 */
    size_t idat_offset;                 /* where the first IDAT chunk's data starts (libpng stops there) */
    struct tv_png_pipe *pipe;           /* rows inflated ahead on another thread (tv_png_pipeline_start) */
    uint32_t libpng_rows;               /* rows libpng itself has decoded (it starts at row 0 when it takes over) */
    tv_png_header stored;               /* as the file stores it (libpng's getters give the transformed) */
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
        d->position += got;
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
    return d == NULL ? tv_fail(err, TV_ERR_ARG, "no decoder") : tv_decoder_usable(d->broken, d->finished, err);
}

/* ---------- rows inflated ahead (tv_png_pipeline_*) ----------
 *
 * libpng decodes a row by inflating its bytes and then unfiltering them, one after the other on one thread. For a
 * PNG whose rows libpng would only unpack (8 or 16 bits a sample; gray, gray and alpha, RGB or RGBA; no tRNS; not
 * interlaced), the rows can come from here instead: one thread inflates the image data into a ring of filtered rows
 * (`tv_png_pipeline_produce`), while the reader's thread unfilters and unpacks them. The result is the same bytes,
 * which the PNG format fixes: unfiltering, and unpacking whole bytes (a 16-bit sample's high byte, as libpng's
 * strip-16 keeps), leave no choice.
 *
 * What libpng would report, it still reports. A chunk's CRC is checked before any of its bytes is inflated, so every
 * row handed out was made from checked data; at anything else (a CRC that does not match, a zlib error, a filter
 * type over 4, image data that ends early, a chunk too large for the window) the inflater stops, the rows already
 * made are handed out, and libpng takes over where they end: it decodes the rows before (from the start of the image
 * data, where it stopped reading) and discards them, then goes on with its own errors and warnings. After the last
 * row the inflater checks that the data ends cleanly: the zlib stream ends with the last row's bytes, in the last
 * IDAT chunk, followed by an empty IEND chunk. libpng reads the stream's end with the last row, so that row is
 * handed out only when the stream ends so (else libpng takes over for it); anything else after the stream (more
 * IDAT chunks, text chunks) makes `tv_png_finish` let libpng read it all again, for libpng's own verdict.
 *
 * Any thread may do the inflating, one at a time: the reader does it itself when the ring is empty and no other
 * thread is at it (so the rows come even when no producer runs at all). */

#define TV_PIPE_WINDOW (1u << 20)   /* file bytes read at once; a larger chunk goes to libpng */
#define TV_PIPE_RING_BYTES (256u << 10)
#define TV_PIPE_RING_ROWS_MIN 4u
#define TV_PIPE_ROW_MAX (1u << 20)  /* a longer row (over 262,143 RGBA pixels) goes to libpng */

/* Rows the ring holds for rows of `slot` bytes (filter type byte included). */
static uint32_t tv_pipe_ring_rows(size_t slot) {
    return (uint32_t)(TV_PIPE_RING_BYTES / slot > TV_PIPE_RING_ROWS_MIN ? TV_PIPE_RING_BYTES / slot
                                                                        : TV_PIPE_RING_ROWS_MIN);
}

struct tv_png_pipe {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    /* Input: the bytes in memory, or the file read through `fd` (a copy of the decoder's). */
    const uint8_t *data;
    size_t length;
    int fd;
    uint8_t *window;
    size_t window_start, window_length;
    size_t next_chunk;          /* offset of the next chunk's length field */
    int last_was_idat;
    z_stream z;
    int z_ready;
    int locks_ready;
    /* Rows: each `row_length` bytes after its filter type byte. */
    size_t row_length;
    int bpp;                    /* bytes a pixel: 1 to 8 */
    int channels;
    int sample;                 /* bytes a sample: 1, or 2 for 16 bits */
    uint32_t height;
    uint8_t *ring;
    uint32_t ring_rows;
    uint32_t partial;           /* bytes of the row being inflated */
    /* Under the lock. */
    uint32_t produced;          /* rows inflated whole, from checked data */
    uint32_t consumed;          /* rows the reader has taken from the ring */
    int inflating;              /* a thread is inflating */
    int rows_over;              /* no more rows will come (all made, or stopped at an anomaly) */
    int end_checked;            /* after the rows: the end was looked at */
    int clean_end;              /* ... 1: the stream ends with the rows; 2: and an empty IEND follows */
    int stop;                   /* the reader has no more use for the producer */
    /* The reader's own. */
    uint8_t *previous, *current; /* unfiltered rows */
    int handed_over;            /* libpng has taken over */
};

/* Makes [offset, offset + count) of the input readable; NULL when it is not there or cannot be read. */
static const uint8_t *tv_pipe_bytes(struct tv_png_pipe *p, size_t offset, size_t count) {
    if (p->data != NULL) {
        if (offset > p->length || count > p->length - offset) return NULL;
        return p->data + offset;
    }
    if (count > TV_PIPE_WINDOW) return NULL;
    if (offset >= p->window_start && offset - p->window_start + count <= p->window_length) {
        return p->window + (offset - p->window_start);
    }
    long long got = tv_descriptor_read_at(p->fd, offset, p->window, TV_PIPE_WINDOW);
    p->window_start = offset;
    p->window_length = got > 0 ? (size_t)got : 0;
    return p->window_length >= count ? p->window : NULL;
}

static uint32_t tv_pipe_u32(const uint8_t *b) {
    return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

/* Feeds zlib the next IDAT chunk's data, its CRC checked first. 0: no IDAT chunk follows, or it is damaged. */
static int tv_pipe_next_idat(struct tv_png_pipe *p) {
    for (;;) {
        const uint8_t *head = tv_pipe_bytes(p, p->next_chunk, 8);
        if (head == NULL) return 0;
        uint32_t length = tv_pipe_u32(head);
        if (memcmp(head + 4, "IDAT", 4) != 0 || length > 0x7fffffffu || length > TV_PIPE_WINDOW - 12) return 0;
        const uint8_t *chunk = tv_pipe_bytes(p, p->next_chunk, (size_t)length + 12);
        if (chunk == NULL) return 0;
        if (crc32(crc32(0L, Z_NULL, 0), chunk + 4, length + 4) != tv_pipe_u32(chunk + 8 + length)) return 0;
        p->next_chunk += (size_t)length + 12;
        if (length == 0) continue;
        p->z.next_in = (Bytef *)(chunk + 8);
        p->z.avail_in = length;
        return 1;
    }
}

/* Inflates rows into the ring's free slots until it is full or no more rows will come; the caller holds the
 * inflating turn but not the lock. */
static void tv_pipe_inflate(struct tv_png_pipe *p) {
    pthread_mutex_lock(&p->lock);
    uint32_t produced = p->produced, room = p->ring_rows - (p->produced - p->consumed);
    int over = p->rows_over;
    pthread_mutex_unlock(&p->lock);
    size_t slot_length = p->row_length + 1;
    while (!over && room > 0) {
        uint8_t *slot = p->ring + (size_t)(produced % p->ring_rows) * slot_length;
        int anomaly = 0, row_done = 0;
        while (!row_done) {
            if (p->z.avail_in == 0 && !tv_pipe_next_idat(p)) {
                anomaly = 1;
                break;
            }
            p->z.next_out = slot + p->partial;
            p->z.avail_out = (uInt)(slot_length - p->partial);
            int code = inflate(&p->z, Z_NO_FLUSH);
            p->partial = (uint32_t)(slot_length - p->z.avail_out);
            if (p->partial == slot_length) {
                row_done = 1;
            } else if (code != Z_OK && !(code == Z_BUF_ERROR && p->z.avail_in == 0)) {
                anomaly = 1; /* an error, or the stream ends before the rows do */
                break;
            }
        }
        if (row_done && slot[0] > 4) anomaly = 1;
        pthread_mutex_lock(&p->lock);
        if (anomaly) {
            p->rows_over = 1;
            p->end_checked = 1;
        } else {
            p->partial = 0;
            produced = ++p->produced;
            if (produced == p->height) p->rows_over = 1;
        }
        room = p->ring_rows - (p->produced - p->consumed);
        over = p->rows_over;
        pthread_cond_broadcast(&p->changed);
        pthread_mutex_unlock(&p->lock);
    }
}

/* After the last row: 2 when the data ends as libpng ends it without a word (the stream's end with no byte over, in
 * the last IDAT chunk, then an empty IEND chunk); 1 when the stream ends so but something else follows it; 0 when
 * the stream itself does not end cleanly (libpng reads that end with the last row). */
static int tv_pipe_clean_end(struct tv_png_pipe *p) {
    uint8_t spare;
    for (;;) {
        /* The stream may have ended with the last row's bytes already: inflate again before asking for input. */
        p->z.next_out = &spare;
        p->z.avail_out = 1;
        int code = inflate(&p->z, Z_NO_FLUSH);
        if (p->z.avail_out == 0) return 0; /* more data than rows */
        if (code == Z_STREAM_END) break;
        if (code == Z_BUF_ERROR && p->z.avail_in == 0) {
            if (!tv_pipe_next_idat(p)) return 0;
            continue;
        }
        if (code != Z_OK) return 0;
    }
    if (p->z.avail_in != 0) return 0;
    const uint8_t *end = tv_pipe_bytes(p, p->next_chunk, 12);
    static const uint8_t iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    return end != NULL && memcmp(end, iend, 12) == 0 ? 2 : 1;
}

/* Takes the inflating turn when no thread has it and `work` is wanted: inflates, or checks the end. Called and
 * returns with the lock held; 0 when another thread has the turn (then it waits for a change). */
static int tv_pipe_take_turn(struct tv_png_pipe *p) {
    if (p->inflating) {
        pthread_cond_wait(&p->changed, &p->lock);
        return 0;
    }
    p->inflating = 1;
    int rows = !p->rows_over;
    pthread_mutex_unlock(&p->lock);
    if (rows) {
        tv_pipe_inflate(p);
        pthread_mutex_lock(&p->lock);
    } else {
        int clean = tv_pipe_clean_end(p);
        pthread_mutex_lock(&p->lock);
        p->clean_end = clean;
        p->end_checked = 1;
    }
    p->inflating = 0;
    pthread_cond_broadcast(&p->changed);
    return 1;
}

size_t tv_png_pipeline_bytes(uint32_t width, int file) {
    size_t row = (size_t)width * 8 + 1; /* 16-bit RGBA at most */
    if (row > TV_PIPE_ROW_MAX) return 0;
    return row * tv_pipe_ring_rows(row) + 2 * row + (file ? TV_PIPE_WINDOW : 0) + (64u << 10) /* zlib */;
}

static void tv_pipe_free(struct tv_png_pipe *p) {
    if (p == NULL) return;
    if (p->locks_ready) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->changed);
    }
    if (p->z_ready) inflateEnd(&p->z);
    if (p->fd >= 0) close(p->fd);
    free(p->window);
    free(p->ring);
    free(p->previous);
    free(p->current);
    free(p);
}

int tv_png_pipeline_start(tv_png_decoder *d) {
    if (d == NULL || d->broken || d->finished || d->pipe != NULL || d->interlaced || d->next_row != 0) return 0;
    int bit_depth = d->stored.bit_depth, color_type = d->stored.color_type;
    int channels = color_type == PNG_COLOR_TYPE_GRAY         ? 1
                   : color_type == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                   : color_type == PNG_COLOR_TYPE_RGB        ? 3
                   : color_type == PNG_COLOR_TYPE_RGB_ALPHA  ? 4
                                                             : 0;
    if ((bit_depth != 8 && bit_depth != 16) || channels == 0) return 0;
    if (png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0) return 0;
    if (d->idat_offset < 8 || d->height == 0 || d->width == 0) return 0;
    if ((size_t)d->width * 8 + 1 > TV_PIPE_ROW_MAX) return 0; /* as tv_png_pipeline_bytes counts it */
    struct tv_png_pipe *p = calloc(1, sizeof *p);
    if (p == NULL) return 0;
    p->fd = -1;
    p->channels = channels;
    p->sample = bit_depth / 8;
    p->bpp = channels * p->sample;
    p->row_length = (size_t)d->width * (size_t)p->bpp;
    p->height = d->height;
    size_t slot = p->row_length + 1;
    p->ring_rows = tv_pipe_ring_rows(slot);
    p->ring = malloc(slot * p->ring_rows);
    p->previous = calloc(1, p->row_length);
    p->current = malloc(p->row_length);
    int ok = p->ring != NULL && p->previous != NULL && p->current != NULL;
    if (d->file == NULL) {
        p->data = d->data;
        p->length = d->length;
    } else if (ok) {
        p->fd = d->source_fd >= 0 ? dup(d->source_fd) : -1;
        p->window = malloc(TV_PIPE_WINDOW);
        ok = p->fd >= 0 && p->window != NULL;
    }
    /* windowBits 0: the window the stream's header gives, as libpng inflates IDAT. */
    if (ok && inflateInit2(&p->z, 0) == Z_OK) {
        p->z_ready = 1;
    } else {
        ok = 0;
    }
    if (ok && pthread_mutex_init(&p->lock, NULL) == 0) {
        if (pthread_cond_init(&p->changed, NULL) == 0) {
            p->locks_ready = 1;
        } else {
            pthread_mutex_destroy(&p->lock);
        }
    }
    if (!ok || !p->locks_ready) {
        tv_pipe_free(p);
        return 0;
    }
    p->next_chunk = d->idat_offset - 8;
    d->pipe = p;
    return 1;
}

void tv_png_pipeline_produce(tv_png_decoder *d) {
    struct tv_png_pipe *p = d != NULL ? d->pipe : NULL;
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    while (!p->stop && !p->end_checked) {
        if (!p->rows_over && p->produced - p->consumed == p->ring_rows) {
            pthread_cond_wait(&p->changed, &p->lock);
        } else {
            (void)tv_pipe_take_turn(p);
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void tv_png_pipeline_stop(tv_png_decoder *d) {
    struct tv_png_pipe *p = d != NULL ? d->pipe : NULL;
    if (p == NULL) return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

int tv_png_pipeline_used(const tv_png_decoder *d) { return d != NULL && d->pipe != NULL && !d->pipe->handed_over; }

/* Unfilters one row (PNG section 9) from `row` (its bytes after the type) over `previous` into `out`. */
static void tv_pipe_unfilter(int type, const uint8_t *row, const uint8_t *previous, uint8_t *out, size_t length,
                             int bpp) {
    size_t i;
    switch (type) {
    case 0: memcpy(out, row, length); break;
    case 1:
        for (i = 0; i < (size_t)bpp && i < length; i++) out[i] = row[i];
        for (; i < length; i++) out[i] = (uint8_t)(row[i] + out[i - bpp]);
        break;
    case 2:
        for (i = 0; i < length; i++) out[i] = (uint8_t)(row[i] + previous[i]);
        break;
    case 3:
        for (i = 0; i < (size_t)bpp && i < length; i++) out[i] = (uint8_t)(row[i] + (previous[i] >> 1));
        for (; i < length; i++) out[i] = (uint8_t)(row[i] + ((out[i - bpp] + previous[i]) >> 1));
        break;
    default:
        for (i = 0; i < (size_t)bpp && i < length; i++) out[i] = (uint8_t)(row[i] + previous[i]);
        for (; i < length; i++) {
            int a = out[i - bpp], b = previous[i], c = previous[i - bpp];
            int pa = b - c, pb = a - c;
            int pc = pa + pb;
            pa = pa < 0 ? -pa : pa;
            pb = pb < 0 ? -pb : pb;
            pc = pc < 0 ? -pc : pc;
            int predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
            out[i] = (uint8_t)(row[i] + predictor);
        }
        break;
    }
}

/* Unpacks an unfiltered row of `channels` samples of `sample` bytes to RGBA8, as libpng's expand, strip-16 (a 16-bit
 * sample's high byte, which comes first), gray-to-RGB and filler do. */
static void tv_pipe_unpack(const uint8_t *in, uint8_t *out, uint32_t width, int channels, int sample) {
    if (channels == 4 && sample == 1) {
        memcpy(out, in, (size_t)width * 4);
        return;
    }
    size_t step = (size_t)channels * (size_t)sample;
    for (uint32_t x = 0; x < width; x++, in += step, out += 4) {
        switch (channels) {
        case 4:
            out[0] = in[0];
            out[1] = in[sample];
            out[2] = in[2 * sample];
            out[3] = in[3 * sample];
            break;
        case 3:
            out[0] = in[0];
            out[1] = in[sample];
            out[2] = in[2 * sample];
            out[3] = 0xFF;
            break;
        case 2:
            out[0] = out[1] = out[2] = in[0];
            out[3] = in[sample];
            break;
        default:
            out[0] = out[1] = out[2] = in[0];
            out[3] = 0xFF;
            break;
        }
    }
}

/* The next row from the ring into `dst` (RGBA8; NULL: unfiltered only, for the next). 0: none will come, libpng
 * takes over. */
static int tv_pipe_row(struct tv_png_decoder *d, uint8_t *dst) {
    struct tv_png_pipe *p = d->pipe;
    pthread_mutex_lock(&p->lock);
    while (p->produced == p->consumed && !p->rows_over) (void)tv_pipe_take_turn(p);
    /* libpng reads the end of the stream with the last row: that row waits for the same verdict. */
    if (p->consumed + 1 == p->height) {
        while (!p->end_checked) (void)tv_pipe_take_turn(p);
    }
    if (p->produced == p->consumed || (p->consumed + 1 == p->height && p->clean_end == 0)) {
        pthread_mutex_unlock(&p->lock);
        return 0;
    }
    const uint8_t *slot = p->ring + (size_t)(p->consumed % p->ring_rows) * (p->row_length + 1);
    pthread_mutex_unlock(&p->lock);
    tv_pipe_unfilter(slot[0], slot + 1, p->previous, p->current, p->row_length, p->bpp);
    pthread_mutex_lock(&p->lock);
    p->consumed++;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
    uint8_t *swap = p->previous;
    p->previous = p->current;
    p->current = swap;
    if (dst != NULL) tv_pipe_unpack(p->previous, dst, d->width, p->channels, p->sample);
    return 1;
}

static tv_status tv_png_open(const uint8_t *data, size_t length, FILE *file, int fd, tv_png_decoder **decoder,
                             tv_png_header *header, tv_error *err) {
    *decoder = NULL;
    struct tv_png_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) {
        if (file != NULL) fclose(file);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    d->file = file;
    d->source_fd = fd;
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
    /* Text and suggested palettes are never used: skipped unread (their CRCs checked) instead of inflated. Each
     * zTXt or iTXt chunk may inflate to the chunk limit: 100 chunks of 7.7 KB made a 771 KB file whose header took
     * 3.5 s to read. */
    static const png_byte unused[] = {'t', 'E', 'X', 't', 0, 'z', 'T', 'X', 't', 0,
                                      'i', 'T', 'X', 't', 0, 's', 'P', 'L', 'T', 0};
    png_set_keep_unknown_chunks(d->png, PNG_HANDLE_CHUNK_NEVER, unused, (int)(sizeof unused / 5));
    png_read_info(d->png, d->info);
    d->idat_offset = d->position;

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
    d->stored = *header;

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
    return tv_png_open(data, length, NULL, -1, decoder, header, err);
}

tv_status tv_png_open_file(const char *path, tv_png_decoder **decoder, tv_png_header *header, tv_error *err) {
    *decoder = NULL;
    FILE *file = tv_fopen_regular(path, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_png_open(NULL, 0, file, fileno(file), decoder, header, err);
}

tv_status tv_png_open_descriptor(int fd, tv_png_decoder **decoder, tv_png_header *header, tv_error *err) {
    *decoder = NULL;
    FILE *file = tv_fopen_descriptor(fd, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_png_open(NULL, 0, file, fd, decoder, header, err);
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
    d->rows_done = 0;
    if (d->pipe != NULL && !d->pipe->handed_over) {
        while (d->rows_done < rows && d->next_row < d->height) {
            uint8_t *row = dst != NULL ? dst + (size_t)d->rows_done * stride : NULL;
            if (!tv_pipe_row(d, row)) {
                d->pipe->handed_over = 1;
                break;
            }
            if (d->color != NULL && dst != NULL) tv_color_apply(d->color, row, 0, d->width, 1);
            d->rows_done++;
            d->next_row++;
        }
        if (!d->pipe->handed_over) {
            *done = d->rows_done;
            return TV_OK;
        }
    }
    if ((dst == NULL || d->libpng_rows < d->next_row) && d->scratch_row == NULL) {
        d->scratch_row = malloc((size_t)d->width * 4);
        if (d->scratch_row == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    if (setjmp(png_jmpbuf(d->png))) {
        *done = d->rows_done;
        return tv_png_failed(d, err);
    }
    /* libpng taking over from the pipeline decodes the rows already handed out again, and drops them. */
    while (d->libpng_rows < d->next_row) {
        png_read_row(d->png, d->scratch_row, NULL);
        d->libpng_rows++;
    }
    while (d->rows_done < rows && d->next_row < d->height) {
        png_bytep row = dst != NULL ? dst + (size_t)d->rows_done * stride : d->scratch_row;
        png_read_row(d->png, row, NULL);
        d->libpng_rows++;
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
    if (d->pipe != NULL) d->pipe->handed_over = 1;
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
    struct tv_png_pipe *p = d->pipe;
    if (p != NULL && !p->handed_over && !d->image_read) {
        pthread_mutex_lock(&p->lock);
        while (!p->end_checked) (void)tv_pipe_take_turn(p);
        int clean = p->clean_end == 2;
        pthread_mutex_unlock(&p->lock);
        if (clean) {
            d->finished = 1;
            return TV_OK;
        }
        /* Something follows the rows that libpng has a word on: it reads the image data again, then the rest. */
        p->handed_over = 1;
    }
    if (!d->image_read && d->libpng_rows < d->height && d->scratch_row == NULL) {
        d->scratch_row = malloc((size_t)d->width * 4);
        if (d->scratch_row == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    if (setjmp(png_jmpbuf(d->png))) return tv_png_failed(d, err);
    while (!d->image_read && d->libpng_rows < d->height) {
        png_read_row(d->png, d->scratch_row, NULL);
        d->libpng_rows++;
    }
    png_read_end(d->png, NULL);
    d->finished = 1;
    return TV_OK;
}

const tv_warning_log *tv_png_warnings(const tv_png_decoder *d) { return d != NULL ? &d->warnings : NULL; }

void tv_png_close(tv_png_decoder *d) {
    if (d == NULL) return;
    if (d->png != NULL) png_destroy_read_struct(&d->png, d->info != NULL ? &d->info : NULL, NULL);
    if (d->file != NULL) fclose(d->file);
    tv_pipe_free(d->pipe);
    free(d->scratch_row);
    free(d->row_pointers);
    free(d->exif);
    free(d);
}
