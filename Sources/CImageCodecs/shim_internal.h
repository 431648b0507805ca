#ifndef CIMAGECODECS_SHIM_INTERNAL_H
#define CIMAGECODECS_SHIM_INTERNAL_H

/* Functions shared by the shim's C files; not part of the public header. */

#include "CImageCodecs.h"

struct tv_warning_log {
    int total;
    int distinct;
    char text[TV_MAX_WARNING_TEXTS][TV_MESSAGE_LEN];
    int times[TV_MAX_WARNING_TEXTS];
};

/* Counts a warning; keeps its text when it is new and there is room. */
void tv_warning_log_add(struct tv_warning_log *log, const char *text);

/* Fills `err` (which may be NULL) and returns `status`. */
tv_status tv_fail(tv_error *err, tv_status status, const char *message);

/* TV_OK, or TV_ERR_STATE with the reason for a decoder stopped by an earlier error (`broken`) or `finished`. */
tv_status tv_decoder_usable(int broken, int finished, tv_error *err);

/* The status of a fatal libjpeg error code (jpeg_decoder.c): an unsupported process or conversion, memory, a size
 * limit, data cut short, a read error; `otherwise` for any other code. The decoder and the encoder both use it. */
tv_status tv_jpeg_status_of(int msg_code, tv_status otherwise);

/* A progressive JPEG's scans may go over its blocks at most TV_JPEG_MAX_PASSES times together (see jpeg_decoder.c):
 * each scan costs a pass over the image however little it holds. A decompressor counts them from a libjpeg progress
 * monitor, which calls tv_jpeg_scans_past_limit. */
#define TV_JPEG_MAX_PASSES 64
struct tv_jpeg_scan_count {
    int scan;        /* the last scan counted */
    uint64_t visits; /* blocks the scans so far go over */
};
struct jpeg_decompress_struct;
/* Counts the scan `cinfo` is in, once; past the limit, writes why into `message` (of `size` bytes) and returns 1. */
int tv_jpeg_scans_past_limit(struct jpeg_decompress_struct *cinfo, struct tv_jpeg_scan_count *count, char *message,
                             size_t size);

/* Copies at most TV_MESSAGE_LEN - 1 bytes as one line (control characters as spaces, no trailing space) and
 * terminates. */
void tv_copy_message(char *dst, const char *src);

/* The descriptor of a regular file opened by path (O_NONBLOCK for the open, checked with fstat, then blocking),
 * or -1 with `err` set: what tv_fopen_regular opens. */
int tv_open_regular(const char *path, tv_error *err);

/* A close-on-exec duplicate of `fd` when fstat says it is a regular file, or -1 with `err` set. */
int tv_dup_regular(int fd, tv_error *err);

/* Bytes in the file a stream reads (a path stream or a descriptor stream), or -1 when unknown. */
long long tv_stream_length(FILE *file);

/* ---------- a JPEG's 1/8 scale decoded by parts (jpeg_index.c), for jpeg_decoder.c ---------- */

/* What the decode by parts needs of a JPEG whose header libjpeg has read. */
struct tv_eighth_facts {
    const uint8_t *data; /* the whole file: the caller's bytes, or room for them read from `fd` */
    size_t length;
    int fd;              /* -1: `data` holds the file; else the plan reads the header and each part its share */
    int gray;            /* one component (else YCbCr) */
    int chroma_2x2;      /* chroma blocks give 2x2 samples: libjpeg's DCT scaling of 4:2:0 chroma at 1/8 */
    int16_t quant[3][64]; /* each component's quantisation table, natural order, as libjpeg multiplies by it */
    uint32_t out_width, out_height;
    size_t held_bytes;   /* of `data`, what the decoder read into memory for this decode (0: the caller's bytes) */
    size_t max_bytes;    /* the most this decode may hold: the file read, the MCUs' records, the rows made */
    int keep_index;      /* also keep where each MCU begins, for the entropy index (tv_eighth_index) */
};

struct tv_eighth;
/* A plan of at most `parts` parts of at least `min_part_bytes` entropy-coded bytes each: NULL when the scan is not
 * one this decoder reproduces exactly, there would be one part, or the decode would hold more than
 * `facts->max_bytes`. `facts->data` must outlive it. */
struct tv_eighth *tv_eighth_plan(const struct tv_eighth_facts *facts, int parts, size_t min_part_bytes);
int tv_eighth_part_count(const struct tv_eighth *e);
/* Decodes part `part`; parts may run at once, each on one thread. */
void tv_eighth_run(struct tv_eighth *e, int part);
/* Joins the parts (serial, once every part has run): the number of parts whose MCUs are used (the first and those
 * that fell into step), or 0 when the data is not clean (damage, stray bytes: libjpeg decodes it instead and says
 * what it finds). */
int tv_eighth_join(struct tv_eighth *e);
/* Makes band k (of as many as there are parts) of the RGBA rows after a join; bands may be made at once, each on
 * one thread. Take gives the rows only when every band was made (a band stops at a block whose samples libjpeg's
 * transforms might not agree on). */
void tv_eighth_rows(struct tv_eighth *e, int k);
/* After a join, with `facts->keep_index`: the entropy index of the file (jpeg_index.c's saved layout, released with
 * free), the one tv_jpeg_index_build's pass makes, byte for byte, from this pass's MCUs. 0 (and NULL) without it, or
 * where that pass would refuse the data (a DC outside [-1024, 1023]). */
int tv_eighth_index(const struct tv_eighth *e, uint8_t **out, size_t *length);
/* The rows made (out_width * out_height * 4, released with free) and the join's count, NULL and 0 without a join;
 * frees `e`. */
uint8_t *tv_eighth_take(struct tv_eighth *e, int *joined);
void tv_eighth_free(struct tv_eighth *e);

/* Rec. 601 luma in 8-bit fixed point, rounded: exactly v when R = G = B = v (png_runs.c, which needs no libpng,
 * so that a harness can build it alone). */
void tv_rgba_to_gray(const uint8_t *rgba, uint8_t *gray, uint32_t width);

/* A non-interlaced 8-bit PNG (colour type 0, 2 or 6) whose rows are filtered with one filter (not adaptive) and
 * deflated by runs of the byte before only (png_runs.c). begin returns NULL and row and end return 0 when out of
 * memory; end hands over the file's bytes (release with free) after all `height` rows. */
typedef struct tv_png_runs tv_png_runs;
tv_png_runs *tv_png_runs_begin(uint32_t width, uint32_t height, int color_type, tv_png_filter filter);
int tv_png_runs_row(tv_png_runs *w, const uint8_t *rgba);
int tv_png_runs_end(tv_png_runs *w, uint8_t **out, size_t *out_length);
void tv_png_runs_free(tv_png_runs *w);

/* ---------- the row decoder of WebP, HEIF, TIFF and GIF (image_decoder.c and one file per format) ---------- */

struct tv_image_decoder;

/* What a format provides. `open` reads the header (no pixel memory) and sets `header.streams_rows` when
 * `read_rows` delivers this file's rows (dst NULL: skip them); otherwise `decode_whole` fills
 * width * height * 4 bytes of RGBA8 (or, for CMYK with a transform, ink). `close` releases the format's state. */
struct tv_image_ops {
    tv_status (*open)(struct tv_image_decoder *d, tv_error *err);
    tv_status (*read_rows)(struct tv_image_decoder *d, uint8_t *dst, size_t stride, uint32_t rows, uint32_t *done,
                           tv_error *err);
    tv_status (*decode_whole)(struct tv_image_decoder *d, uint8_t *pixels, tv_error *err);
    /* Optional, instead of decode_whole when the whole image is kept: decodes into memory the library holds and
     * sets `whole_base` and `whole_stride` to its RGBA8 rows (HEIF: libheif's image, no copy). */
    tv_status (*decode_held)(struct tv_image_decoder *d, tv_error *err);
    /* Optional: sets `window_x` and `window_width` for columns [x, x + width) (tv_image_crop_columns). */
    void (*crop_columns)(struct tv_image_decoder *d, uint32_t x, uint32_t width);
    /* Optional: makes the rows those of stored level `level` (tv_image_select_level), updating the header's layout
     * fields (size, strips or tiles, working bytes). */
    tv_status (*select_level)(struct tv_image_decoder *d, int level, tv_error *err);
    /* Optional, with select_level: the size of stored level `level` (1 ... header.levels). */
    void (*level_size)(const struct tv_image_decoder *d, uint32_t level, uint32_t *width, uint32_t *height);
    /* Optional, for rows that come from units decoded independently (a HEIF grid's row of tiles): see
     * tv_image_parts_prepare, tv_image_parts_decode and tv_image_parts_join. */
    uint32_t (*parts_prepare)(struct tv_image_decoder *d, uint32_t row);
    void (*parts_decode)(struct tv_image_decoder *d, uint32_t part);
    tv_status (*parts_join)(struct tv_image_decoder *d, tv_error *err);
    void (*close)(struct tv_image_decoder *d);
};

struct tv_image_decoder {
    tv_image_format format;
    const struct tv_image_ops *ops;
    void *state;                    /* the format's */
    const uint8_t *data;            /* memory input (the caller's), or NULL */
    size_t length;                  /* of the input (memory or file) */
    int fd;                         /* a duplicate this decoder owns, or -1 */
    int strict;
    tv_image_header header;
    uint8_t *icc, *exif;            /* owned copies */
    size_t icc_length, exif_length;
    struct tv_warning_log warnings;
    const tv_color_transform *color;
    int broken;
    uint32_t next_row;
    uint32_t window_x, window_width; /* the columns each delivered row holds (all, unless cropped) */
    uint8_t *whole;                 /* decode_whole formats: the image, after the first read */
    uint8_t *whole_base;            /* the kept image's rows: `whole`, or the library's (decode_held) */
    size_t whole_stride;
    int whole_ready;
    uint64_t open_directory;        /* TIFF: open this IFD only (tv_image_stored_jpeg_tile_at); 0: the file */
};

/* For a crop_columns of a tiled layout (header.tile_width): the tile columns that hold [x, x + width) (width > 0,
 * x + width within the image), and the window of the rows delivered, widened to those tiles. */
void tv_image_tile_window(struct tv_image_decoder *d, uint32_t x, uint32_t width, uint32_t *first_tile,
                          uint32_t *tiles);

/* Reads `count` bytes at `offset` of the input; returns the bytes read (fewer at the end), or -1 on an I/O
 * error (errno set). */
long long tv_input_read(const struct tv_image_decoder *d, uint64_t offset, void *buffer, size_t count);

/* A window of the input, for formats read a few bytes at a time (a GIF's sub-blocks of at most 255 bytes, each
 * after its length byte; box headers): one read call per TV_INPUT_WINDOW bytes instead of one per read. A 20 MB
 * GIF of 1-byte sub-blocks took 17 s to decode with a read call each. Memory input is read directly. */
#define TV_INPUT_WINDOW (64u << 10)
struct tv_input_window {
    uint64_t offset; /* the input offset of bytes[0] */
    size_t length;   /* bytes of the input in `bytes` (0: none yet) */
    uint8_t bytes[TV_INPUT_WINDOW];
};
/* As tv_input_read, through `window`. */
long long tv_input_read_through(const struct tv_image_decoder *d, struct tv_input_window *window, uint64_t offset,
                                void *buffer, size_t count);

/* The whole input in memory: the caller's bytes, or the file read into `*owned` (released with free) when it
 * has at most `limit` bytes. */
tv_status tv_input_all(struct tv_image_decoder *d, size_t limit, const uint8_t **bytes, uint8_t **owned,
                       tv_error *err);

/* The unsigned integer of `size` bytes (at most 8) at `bytes`, big-endian or little-endian (file formats' fields). */
static inline uint64_t tv_uint(const uint8_t *bytes, int size, int big_endian) {
    uint64_t value = 0;
    for (int i = 0; i < size; i++) value |= (uint64_t)bytes[big_endian ? size - 1 - i : i] << (8 * i);
    return value;
}

/* The largest EXIF block kept. */
#define TV_EXIF_MAX_BYTES (1u << 20)

/* Warns that the file's ICC profile is over TV_ICC_MAX_BYTES and is ignored (the file is then taken as untagged). */
void tv_image_icc_too_large(struct tv_image_decoder *d);
/* Keeps a copy of an ICC profile or EXIF block (at most TV_ICC_MAX_BYTES, resp. 1 MiB; longer ones are dropped
 * with a warning). */
void tv_image_keep_icc(struct tv_image_decoder *d, const uint8_t *bytes, size_t length);
void tv_image_keep_exif(struct tv_image_decoder *d, const uint8_t *bytes, size_t length);

/* The decoder's error (the Swift side names the format). */
tv_status tv_image_fail(const struct tv_image_decoder *d, tv_error *err, tv_status status, const char *message);

/* A premultiplied RGBA8 pixel made straight, rounded (alpha 0 and 255 leave it as it is). */
static inline void tv_unpremultiply(uint8_t *pixel) {
    unsigned a = pixel[3];
    if (a == 0 || a == 255) return;
    for (int c = 0; c < 3; c++) {
        unsigned v = (pixel[c] * 255u + a / 2) / a;
        pixel[c] = (uint8_t)(v > 255 ? 255 : v);
    }
}

/* 16-bit sample to 8 bits, rounded. */
static inline uint8_t tv_sample16_to8(uint16_t v) { return (uint8_t)(((uint32_t)v * 255u + 32767u) / 65535u); }

/* ---------- a HEIF grid read from its meta box, for decoding a row of tiles at a time (heif_grid.c) ---------- */

struct tv_heif_grid_layout {
    uint32_t rows, columns;            /* tiles */
    uint32_t tile_width, tile_height;  /* every tile's (ispe) */
    uint32_t width, height;            /* the grid's output size: the stored rows */
    int orientation;                   /* 1...8: the grid's irot and imir as an Exif orientation */
    uint32_t item_type;                /* the tiles' item type: 'hvc1' or 'av01' */
    size_t largest_tile_file;          /* bytes of the largest file tv_heif_grid_tile_file makes */
};
struct tv_heif_grid;
/* The grid of the primary image, from the meta box whose body (after its 8-byte header) lies at `meta_at` in the
 * input with `meta_length` bytes; NULL when the primary image is not a grid of a layout read tile by tile (then the
 * image is decoded whole), or out of memory. */
struct tv_heif_grid *tv_heif_grid_read(const struct tv_image_decoder *d, uint64_t meta_at, uint64_t meta_length);
const struct tv_heif_grid_layout *tv_heif_grid_layout(const struct tv_heif_grid *g);
/* A HEIF file (malloc'd) holding tile `index` (in row order) alone as its primary item, for libheif to decode. */
tv_status tv_heif_grid_tile_file(const struct tv_heif_grid *g, const struct tv_image_decoder *d, uint32_t index,
                                 uint8_t **out, size_t *out_length, tv_error *err);
void tv_heif_grid_free(struct tv_heif_grid *g);

extern const struct tv_image_ops tv_webp_ops, tv_heif_ops, tv_tiff_ops, tv_gif_ops;

/* The top-left `width` x `height` pixels of the baseline or progressive JPEG stream `jpeg`, cut by its coefficients
 * (a lossless crop from the origin, which lies on every MCU grid): a new baseline stream, malloc'd, in `*out`. A
 * stream that says it is more than `max_side` pixels a side is refused before its coefficients are read. */
tv_status tv_jpeg_cut(const uint8_t *jpeg, size_t length, uint32_t width, uint32_t height, uint32_t max_side,
                      uint8_t **out, size_t *out_length, tv_error *err);
/* tv_image_stored_jpeg_tile_at's work, in the directory the decoder opened. */
tv_status tv_tiff_stored_jpeg_tile(struct tv_image_decoder *d, uint32_t column, uint32_t row, uint32_t tile_size,
                                   uint8_t **out, size_t *out_length, tv_error *err);
/* tv_image_level_directory of a TIFF. */
uint64_t tv_tiff_level_directory(const struct tv_image_decoder *d, uint32_t level);



#endif
