#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

/* Public header of the C shim. It includes no libpng or libjpeg header: Swift sees only
 * small, setjmp-free entry points.
 *
 * libpng and libjpeg report fatal errors by longjmp. A longjmp across Swift frames is
 * undefined behaviour, so every entry point below that can reach png_error() or libjpeg's
 * error_exit() calls setjmp() in its own frame: a longjmp only unwinds C frames of the
 * libraries back into that same function, which then returns a status to Swift. After a
 * fatal error a decoder handle is "broken": later calls return TV_ERR_STATE, and only
 * the close function may still be called. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TV_MESSAGE_LEN 256

/* What went wrong, as a category that the Swift side maps to its error kinds. */
typedef enum {
    TV_OK = 0,
    TV_ERR_CORRUPT = 1,      /* the data breaks the format (bad CRC, bad Huffman table, ...) */
    TV_ERR_TRUNCATED = 2,    /* the data ends before the image does */
    TV_ERR_UNSUPPORTED = 3,  /* a valid file of a kind the decoder does not handle (12-bit, lossless) */
    TV_ERR_LIMIT = 4,        /* a size limit refused the image */
    TV_ERR_NOMEM = 5,        /* an allocation failed */
    TV_ERR_IO = 6,           /* the file could not be opened or read */
    TV_ERR_ARG = 7,          /* a caller's argument is out of range */
    TV_ERR_STATE = 8,        /* the call is not valid in the handle's state (e.g. after a failure) */
    TV_ERR_INTERLACED = 9    /* row streaming asked of an Adam7 PNG: read the whole image instead */
} tv_status;

/* The message that goes with a status other than TV_OK. */
typedef struct {
    char message[TV_MESSAGE_LEN];
    int from_warning;        /* 1 when a strict decoder turned a library warning into this error */
} tv_error;

/* ---------- warnings ---------- */

/* The warnings a decoder collected: identical texts are counted once, with a tally. */
typedef struct tv_warning_log tv_warning_log;

int tv_warning_log_total(const tv_warning_log *log);     /* every warning, repeats included */
int tv_warning_log_distinct(const tv_warning_log *log);  /* texts kept (at most TV_MAX_WARNING_TEXTS) */
const char *tv_warning_log_text(const tv_warning_log *log, int index);
int tv_warning_log_times(const tv_warning_log *log, int index);

#define TV_MAX_WARNING_TEXTS 8

/* ---------- files ---------- */

/* Opens a regular file for reading. Anything else (a FIFO, a device, a socket, a folder) is refused with
   "not a regular file" before it is opened for reading (a FIFO would block until a writer comes): NULL and
   `err` set, as for any failure to open. */
FILE *tv_fopen_regular(const char *path, tv_error *err);

/* The descriptor (close-on-exec) of a regular file opened for reading, checked as tv_fopen_regular checks it, or -1
   with `err` set: what a caller opens once and hands to every reader (ImageSource.descriptor). */
int tv_open_file(const char *path, tv_error *err);

/* Reads up to `capacity` bytes from the start of a file (format sniffing); a regular file only. */
tv_status tv_file_read_prefix(const char *path, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err);

/* A stream over an open descriptor of a regular file (anything else is refused, as above). The stream reads
   with pread at an offset of its own, on a duplicate of `fd` that it closes with the stream (fclose): several
   streams over one descriptor never share a file offset, and the caller keeps and closes `fd` as before. */
FILE *tv_fopen_descriptor(int fd, tv_error *err);

/* tv_file_read_prefix from an open descriptor (pread from offset 0; the descriptor's offset is not used). */
tv_status tv_descriptor_read_prefix(int fd, uint8_t *buffer, size_t capacity, size_t *count, tv_error *err);

/* ---------- opening beneath a root (file_access.c) ---------- */

/* What fstat says of an open descriptor: the identity of the file's contents. */
typedef struct {
    uint64_t device, inode;
    int64_t size;
    int64_t modified_ns, changed_ns;  /* since the epoch */
    int kind;                         /* TV_KIND_* */
} tv_file_identity;

#define TV_KIND_OTHER 0
#define TV_KIND_REGULAR 1
#define TV_KIND_FOLDER 2

/* How tv_open_beneath resolves: openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, falling back to the walk
   when the kernel has no openat2 (ENOSYS); or the component-by-component walk only (for tests). */
#define TV_RESOLVE_AUTO 0
#define TV_RESOLVE_WALK 1
#define TV_RESOLVE_KERNEL 2 /* openat2 alone, no walk (tests): absolute links are refused, even inside */

/* The folder `path` opened as a root (O_PATH | O_DIRECTORY, close-on-exec), or -1 with `err` set. */
int tv_open_root(const char *path, tv_error *err);

/* Opens `relative` (no leading '/') beneath the folder `root` in one step, never leaving it: no component, no
   symbolic link (followed only while it stays beneath the root) and no ".." may lead out. A link with an absolute
   target is followed only when the target starts with `root_path` (the root's resolved path; NULL refuses every
   absolute link), and then resolved from `root` again. `want_folder` 0: a
   regular file, opened O_RDONLY | O_NONBLOCK (a FIFO or device is never waited on) and checked with fstat, then
   made blocking; 1: a folder, opened O_RDONLY | O_DIRECTORY. Returns the descriptor (close-on-exec) and fills
   `identity`, or -1 with errno and `err` set (EXDEV or ELOOP for a way out, ENOENT, EISDIR/ENOTDIR or EINVAL
   for the wrong kind). `mode` is TV_RESOLVE_AUTO or TV_RESOLVE_WALK. */
int tv_open_beneath(int root, const char *root_path, const char *relative, int want_folder, int mode,
                    tv_file_identity *identity, tv_error *err);

/* fstat of `fd` as an identity; 0, or -1 with errno set. */
int tv_descriptor_identity(int fd, tv_file_identity *identity);

/* Up to `count` bytes of `fd` from `offset` into `buffer` (pread, retried when interrupted; the descriptor's own
 * offset is not used): the bytes read, fewer when the file ends sooner, or -1 (errno set) when a read fails. The
 * one loop of positioned reads: the row decoders' input reads through it too (tv_input_read). */
long long tv_descriptor_read_at(int fd, uint64_t offset, void *buffer, size_t count);

/* Closes `fd` (a descriptor an OpenDescriptor owned). */
void tv_descriptor_close(int fd);

/* ---------- the process (system_info.c) ---------- */

/* How many processors this process's affinity mask allows (sched_getaffinity), or -1 when it cannot be read. */
int tv_affinity_cpu_count(void);
/* Folder watching (inotify): a non-blocking descriptor (-1 with errno on failure); a watch of one folder for
 * files written, moved, made, removed or touched, not through a link (-1 with errno: ENOSPC past the system's
 * max_user_watches); a wait of at most `timeout_ms` that drains the events and returns how many (0 on timeout,
 * -1 on error). */
int tv_watch_open(void);
int tv_watch_add(int fd, const char *path);
int tv_watch_wait(int fd, int timeout_ms);

/* ---------- colour (lcms2: color.c) ---------- */

/* What a colour transform reads: RGBA8 (gray: R = G = B, the first byte read), or four bytes of CMYK ink per
 * pixel, as stored or inverted (Adobe: 255 is no ink). Every one writes RGBA8 in sRGB (CMYK: alpha 255). */
typedef enum {
    TV_COLOR_RGB = 0,
    TV_COLOR_GRAY = 1,
    TV_COLOR_CMYK = 2,
    TV_COLOR_CMYK_INVERTED = 3
} tv_color_layout;

/* The largest ICC profile taken (lcms2 parses untrusted bytes: a bound on its memory and time). */
#define TV_ICC_MAX_BYTES (4u << 20)

typedef struct tv_color_transform tv_color_transform;

typedef struct {
    char description[128]; /* the profile's 'desc', printable ASCII; may be empty */
    int intent;            /* the rendering intent used: the profile's default where it has tables for it */
    int identity;          /* 1 when the transform moves no 8-bit value by more than one level (an sRGB profile) */
} tv_color_info;

/* PNG cHRM (white point and primaries, CIE xy) and gAMA (here the decoding exponent, 1 / file gamma). */
typedef struct {
    double white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y;
    double gamma;
    char name[64]; /* the description the made profile carries (may be empty) */
} tv_chromaticities;

/* The transform from an ICC profile (`length` bytes, at most TV_ICC_MAX_BYTES) to sRGB, for pixels laid out as
 * `layout` says. A profile lcms2 cannot read, of the wrong class or colour space, or cut short gives an error
 * (TV_ERR_CORRUPT, TV_ERR_TRUNCATED, TV_ERR_UNSUPPORTED or TV_ERR_LIMIT) with a message. */
tv_status tv_color_from_icc(const uint8_t *profile, size_t length, tv_color_layout layout, tv_color_transform **out,
                            tv_color_info *info, tv_error *err);

/* The transform of an RGB (or gray) space given by chromaticities and a gamma, as browsers build one from PNG cHRM
 * and gAMA. When `profile` is not NULL it receives the made profile's bytes (release with tv_free), to embed. */
tv_status tv_color_from_chromaticities(const tv_chromaticities *chromaticities, tv_color_layout layout,
                                       tv_color_transform **out, tv_color_info *info, uint8_t **profile,
                                       size_t *profile_length, tv_error *err);

/* Converts `rows` rows of `width` pixels, `stride` bytes apart, in place. Thread-safe: one transform may serve
 * several threads at once. */
void tv_color_apply(const tv_color_transform *transform, uint8_t *pixels, size_t stride, uint32_t width,
                    uint32_t rows);
void tv_color_free(tv_color_transform *transform);

/* ---------- PNG decoding (libpng, streaming) ---------- */

typedef struct tv_png_decoder tv_png_decoder;

typedef struct {
    uint32_t width, height;
    int bit_depth;           /* as stored: 1, 2, 4, 8 or 16 */
    int color_type;          /* as stored: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    int interlaced;          /* 1 = Adam7 */
} tv_png_header;

/* Opens a PNG held in memory (`data` must outlive the decoder) or a file, reads every chunk
 * up to the image data and sets the transforms that make every row RGBA8: palette and tRNS
 * expanded, 1/2/4-bit gray scaled up, 16-bit reduced to the high byte, gray copied to RGB,
 * alpha 0xFF added where the file has none. */
tv_status tv_png_open_memory(const uint8_t *data, size_t length, tv_png_decoder **decoder, tv_png_header *header,
                             tv_error *err);
tv_status tv_png_open_file(const char *path, tv_png_decoder **decoder, tv_png_header *header, tv_error *err);
/* The same from an open descriptor of a regular file (read through tv_fopen_descriptor; `fd` stays the caller's). */
tv_status tv_png_open_descriptor(int fd, tv_png_decoder **decoder, tv_png_header *header, tv_error *err);

/* The payload of an eXIf chunk met before the image data (a TIFF structure), or NULL. */
const uint8_t *tv_png_exif(const tv_png_decoder *decoder, size_t *length);

/* The colour description the PNG's chunks before the image data give: an iCCP profile (decompressed; `icc` NULL when
 * there is none), an sRGB chunk, cHRM and gAMA. */
typedef struct {
    const uint8_t *icc;
    size_t icc_length;
    int has_srgb;
    int has_chrm, has_gama;
    tv_chromaticities chromaticities; /* gamma: 1 / the file's gAMA when has_gama */
} tv_png_color;
void tv_png_color_info(const tv_png_decoder *decoder, tv_png_color *color);

/* Converts every row read from now on with `transform` (RGB or gray layout; NULL: none). The transform must outlive
 * the reads. */
void tv_png_set_color(tv_png_decoder *decoder, const tv_color_transform *transform);

/* Non-interlaced only: decodes the next `rows` rows (RGBA8, `stride` bytes apart) into `dst`;
 * `dst` NULL decodes and discards them. `*done` counts the rows finished, also on failure. */
tv_status tv_png_read_rows(tv_png_decoder *decoder, uint8_t *dst, size_t stride, uint32_t rows, uint32_t *done,
                           tv_error *err);

/* The whole image (every Adam7 pass) into `dst` (height * stride bytes); only before any row was read. */
tv_status tv_png_read_image(tv_png_decoder *decoder, uint8_t *dst, size_t stride, tv_error *err);

/* After the last row: reads the chunks after the image data (checksums, trailing chunks). */
tv_status tv_png_finish(tv_png_decoder *decoder, tv_error *err);

/* Rows inflated ahead on another thread (png_decoder.c, "rows inflated ahead"): for a PNG of 8- or 16-bit gray, gray
 * and alpha, RGB or RGBA samples with no tRNS, not interlaced, before any row is read, start returns 1 and the rows
 * tv_png_read_rows gives are made from a ring of inflated rows, the same bytes, errors and warnings as libpng's (libpng
 * takes over at anything unusual). `produce` inflates into the ring until the rows and the end are done or `stop` is
 * called; run it on a thread of its own while the rows are read (the reading thread inflates itself when no other
 * thread is at it, so it may also run after the reads, or not at all). Call stop, and let produce return, before
 * tv_png_close. `bytes` is what the pipeline holds for an image `width` pixels wide (`file`: read from a file). */
int tv_png_pipeline_start(tv_png_decoder *decoder);
void tv_png_pipeline_produce(tv_png_decoder *decoder);
void tv_png_pipeline_stop(tv_png_decoder *decoder);
/* Whether rows still come from the pipeline (0 once libpng has taken over). */
int tv_png_pipeline_used(const tv_png_decoder *decoder);
size_t tv_png_pipeline_bytes(uint32_t width, int file);

const tv_warning_log *tv_png_warnings(const tv_png_decoder *decoder);
void tv_png_close(tv_png_decoder *decoder);

/* ---------- PNG encoding (libpng, to memory) ---------- */

typedef enum {
    TV_PNG_FILTER_ADAPTIVE = 0,  /* libpng picks a filter per row among all five */
    TV_PNG_FILTER_NONE = 1,
    TV_PNG_FILTER_SUB = 2,
    TV_PNG_FILTER_UP = 3,
    TV_PNG_FILTER_AVERAGE = 4,
    TV_PNG_FILTER_PAETH = 5
} tv_png_filter;

typedef enum {
    TV_PNG_DEFLATE_DEFAULT = 0, /* zlib's default strategy: repeated strings, searched as the level says */
    TV_PNG_DEFLATE_RLE = 1      /* runs of the byte before only: with one filter and no interlacing tileview's own
                                 * deflate (a Huffman code per 64 KiB block), else zlib's Z_RLE through libpng */
} tv_png_deflate;

/* Encodes RGBA8 rows (`stride` bytes apart) as an 8-bit PNG of colour type 0 (gray: Rec. 601
 * luma, rounded; exact for R = G = B), 2 (RGB: alpha dropped) or 6 (RGBA). On success `*out`
 * holds `*out_length` bytes to release with tv_free. The same bytes as the row encoder below given
 * every row in order. */
tv_status tv_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int color_type,
                        int compression_level, tv_png_deflate deflate, tv_png_filter filter, int interlaced,
                        uint8_t **out,
                        size_t *out_length, tv_error *err);

/* The same encoding a few rows at a time, so that rows can be encoded while later ones are still being
 * drawn: begin, then rows top to bottom (all `height` of them once per pass: `*passes` is 7 for Adam7, else
 * 1), then end. Each call is behind its own setjmp; after a failure only tv_png_row_encoder_free may follow.
 * end hands over the file bytes as tv_png_encode does; free releases the encoder (NULL is allowed). */
typedef struct tv_png_row_encoder tv_png_row_encoder;
tv_status tv_png_row_encoder_begin(uint32_t width, uint32_t height, int color_type, int compression_level,
                                   tv_png_deflate deflate, tv_png_filter filter, int interlaced,
                                   tv_png_row_encoder **encoder, int *passes,
                                   tv_error *err);
tv_status tv_png_row_encoder_write(tv_png_row_encoder *encoder, const uint8_t *rgba, size_t stride, uint32_t rows,
                                   tv_error *err);
tv_status tv_png_row_encoder_end(tv_png_row_encoder *encoder, uint8_t **out, size_t *out_length, tv_error *err);
void tv_png_row_encoder_free(tv_png_row_encoder *encoder);

/* A whole iCCP chunk (length, type, keyword `name`, the profile deflated, CRC) to put after a PNG's IHDR: so a PNG
 * that keeps stored values carries the profile they are in. `*out` is released with tv_free. */
tv_status tv_png_iccp_chunk(const uint8_t *profile, size_t length, const char *name, uint8_t **out,
                            size_t *out_length, tv_error *err);

void tv_free(void *pointer);

/* ---------- JPEG decoding (libjpeg-turbo, libjpeg API, streaming) ---------- */

typedef struct tv_jpeg_decoder tv_jpeg_decoder;

typedef enum {
    TV_JPEG_COLOR_UNKNOWN = 0,
    TV_JPEG_COLOR_GRAY = 1,
    TV_JPEG_COLOR_RGB = 2,
    TV_JPEG_COLOR_YCBCR = 3,
    TV_JPEG_COLOR_CMYK = 4,
    TV_JPEG_COLOR_YCCK = 5
} tv_jpeg_color;

typedef struct {
    uint32_t width, height;  /* as stored (SOF) */
    int components;
    int precision;           /* bits per sample (8) */
    tv_jpeg_color color;
    int progressive;
    int arithmetic;
    int h_sampling[4], v_sampling[4];  /* of the first four components */
    int adobe;               /* an Adobe APP14 marker: CMYK values are stored inverted */
} tv_jpeg_header;

typedef struct {
    uint32_t scaled_width, scaled_height;  /* the whole image at the chosen scale */
    uint32_t crop_x, crop_width;           /* columns delivered, after alignment to the iMCU grid */
} tv_jpeg_window;

/* Opens a JPEG in memory (`data` must outlive the decoder) or a file and reads its header.
 * `strict`: any libjpeg warning (corrupt or truncated data) becomes an error at once;
 * otherwise warnings are only collected. */
tv_status tv_jpeg_open_memory(const uint8_t *data, size_t length, int strict, tv_jpeg_decoder **decoder,
                              tv_jpeg_header *header, tv_error *err);
tv_status tv_jpeg_open_file(const char *path, int strict, tv_jpeg_decoder **decoder, tv_jpeg_header *header,
                            tv_error *err);
/* The same from an open descriptor of a regular file (read through tv_fopen_descriptor; `fd` stays the caller's). */
tv_status tv_jpeg_open_descriptor(int fd, int strict, tv_jpeg_decoder **decoder, tv_jpeg_header *header,
                                  tv_error *err);

/* The TIFF payload of the first APP1 "Exif\0\0" segment, or NULL. */
const uint8_t *tv_jpeg_exif(const tv_jpeg_decoder *decoder, size_t *length);

/* The ICC profile of the APP2 "ICC_PROFILE" markers, joined in their sequence (NULL when there is none). When the
 * markers are not a whole, consistent set (a number missing or repeated, counts that disagree) `*problem` says so
 * and NULL comes back: the caller treats the profile as absent, with a warning. */
const uint8_t *tv_jpeg_icc(const tv_jpeg_decoder *decoder, size_t *length, const char **problem);

/* Converts every row read with `transform` (set before tv_jpeg_start; NULL: none). Its layout must be the image's:
 * gray for gray, RGB for YCbCr and RGB, CMYK (inverted when the header says adobe) for CMYK and YCCK, which then
 * replaces djpeg's CMYK rule. The transform must outlive the reads. */
void tv_jpeg_set_color(tv_jpeg_decoder *decoder, const tv_color_transform *transform);

/* Starts decompression at scale scale_num/8 (1...16). crop_width 0 = every column; otherwise
 * columns [crop_x, crop_x + crop_width) of the scaled image, widened to the left to the iMCU
 * grid (the window says which columns come). Rows are RGBA8; CMYK and YCCK are converted as
 * djpeg does: R = round(C*K/255), G = round(M*K/255), B = round(Y*K/255) on the stored values. */
tv_status tv_jpeg_start(tv_jpeg_decoder *decoder, unsigned scale_num, uint32_t crop_x, uint32_t crop_width,
                        tv_jpeg_window *window, tv_error *err);
/* The 1/8 scale decoded in parts at once (jpeg_index.c). Plan before tv_jpeg_start; run every part; join; make
 * the rows in bands; finish. Parts (and bands) may run at once, each on a thread of its own. After a finish that
 * returns more than 0, tv_jpeg_start at scale 1 delivers the rows made: the same bytes libjpeg's decode gives.
 * - The plan is NULL (libjpeg decodes as usual) for what the parts do not reproduce exactly: anything but one
 *   baseline Huffman scan of gray or of YCbCr with 1x1, 2x1 or 2x2 luma and 1x1 chroma; a file over 64 MiB; fewer
 *   than two parts of `min_part_bytes`; a decode that would hold more than `max_bytes` (the file read whole,
 *   records of at most 3/8 of a byte a pixel, the 1/8 rows).
 * - With keep_index the plan also keeps where every MCU begins (8 bytes each), for tv_jpeg_parts_index.
 * - Join returns how many parts gave MCUs (a part that never fell into step was decoded by the one before it),
 *   or 0 when the data was not clean: a damaged file is decoded by libjpeg, with its warnings. Finish returns that
 *   number when every band was made, else 0 (no join, a join of 0, or a 4:2:0 chroma block so extreme that
 *   libjpeg-turbo's SIMD and C transforms might differ on it: libjpeg decodes that file). It releases the plan. */
typedef struct tv_eighth tv_jpeg_parts;
tv_jpeg_parts *tv_jpeg_parts_plan(tv_jpeg_decoder *decoder, int parts, size_t min_part_bytes, size_t max_bytes,
                                  int keep_index);
int tv_jpeg_parts_count(const tv_jpeg_parts *plan);
void tv_jpeg_parts_run(tv_jpeg_parts *plan, int part);
int tv_jpeg_parts_join(tv_jpeg_parts *plan);
/* After a join, with a plan made with keep_index: the entropy index (tv_jpeg_index_save's bytes, released with
 * tv_free), byte for byte the one tv_jpeg_index_build's own pass makes; 0 and NULL when there is none. */
int tv_jpeg_parts_index(const tv_jpeg_parts *plan, uint8_t **out, size_t *length);
void tv_jpeg_parts_rows(tv_jpeg_parts *plan, int band); /* band: 0 ..< tv_jpeg_parts_count */
int tv_jpeg_parts_finish(tv_jpeg_decoder *decoder, tv_jpeg_parts *plan);

tv_status tv_jpeg_skip_rows(tv_jpeg_decoder *decoder, uint32_t rows, uint32_t *skipped, tv_error *err);
/* Decodes up to `rows` rows into `dst` (`stride` bytes apart); `*done` counts them, also on failure. */
tv_status tv_jpeg_read_rows(tv_jpeg_decoder *decoder, uint8_t *dst, size_t stride, uint32_t rows, uint32_t *done,
                            tv_error *err);
/* Ends decompression: jpeg_finish_decompress when every row was read (it reads on to EOI, so
 * warnings about the end of the stream are seen), jpeg_abort_decompress when rows remain. */
tv_status tv_jpeg_finish(tv_jpeg_decoder *decoder, tv_error *err);

const tv_warning_log *tv_jpeg_warnings(const tv_jpeg_decoder *decoder);
void tv_jpeg_close(tv_jpeg_decoder *decoder);

/* ---------- JPEG encoding (libjpeg-turbo, to memory) ---------- */

/* Encodes RGBA8 rows (`stride` bytes apart) as a baseline 8-bit JFIF JPEG at `quality` 1 ... 100
 * (libjpeg's scale): YCbCr with 4:2:0 chroma subsampling, or one gray component (libjpeg's
 * Rec. 601 luma) when `grayscale` is non-zero. ISLOW DCT, standard Huffman tables. The alpha
 * byte is ignored (not composited): callers flatten translucent pixels first. At most 65500
 * pixels each way. On success `*out` holds `*out_length` bytes to release with tv_free. */
tv_status tv_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int quality,
                         int grayscale, uint8_t **out, size_t *out_length, tv_error *err);

/* ---------- JPEG random access (an index of the entropy decoder's state) ---------- */

/* One pass over a baseline JPEG's entropy-coded data records the decoder's state every 8 MCUs of every MCU
 * row (about 16 bytes per 8 MCUs), so that a rect of MCUs can be decoded without the rows above it. Only
 * files the index reproduces exactly are taken: one interleaved Huffman scan of 8-bit samples (SOF0/SOF1),
 * 1 or 3 components, clean restart markers, the EOI right after the scan, a header that libjpeg's decoder
 * starts on without an error or a warning (a strict decode stops at either), within the limits below. Anything
 * else is refused (TV_ERR_UNSUPPORTED, or TV_ERR_CORRUPT for damaged data) and the caller decodes the file as
 * usual. The pass reads the file through a window of 1 MiB (as much as the header when that is longer) and
 * holds the window, a copy of the header and the entries; nothing else grows with the file. The index keeps
 * the file open (a replaced file is not seen) and reads it with pread: one index may be used by several threads
 * at once. */
typedef struct tv_jpeg_index tv_jpeg_index;

/* The limits of an index (the pass refuses a file past them before it allocates for it): the file's length, its
 * header's (every byte before the scan's data), its entries' memory (16 bytes per 8 MCUs of a row, 2 a pixel's
 * 1/32 at the most: a 537 MP JPEG of 8x8 MCUs, 2.1 GP of 16x16). */
#define TV_JPEG_INDEX_MAX_FILE 67108864    /* 64 MiB */
#define TV_JPEG_INDEX_MAX_HEADER 4194304   /* 4 MiB */
#define TV_JPEG_INDEX_MAX_ENTRIES 16777216 /* 16 MiB */

typedef struct {
    uint32_t width, height;          /* the image, stored (EXIF orientation not applied) */
    uint32_t mcu_width, mcu_height;  /* pixels of an MCU */
    uint32_t mcus_x, mcus_y;         /* MCU columns and rows */
    size_t bytes;                    /* memory the index holds */
} tv_jpeg_index_geometry;

tv_status tv_jpeg_index_build(const char *path, tv_jpeg_index **index, tv_error *err);
/* The same from an open descriptor of a regular file: the index keeps a duplicate of `fd`. */
tv_status tv_jpeg_index_build_descriptor(int fd, tv_jpeg_index **index, tv_error *err);
void tv_jpeg_index_describe(const tv_jpeg_index *index, tv_jpeg_index_geometry *geometry);
/* What every index holds besides its header and entries (its Huffman tables and state), for a memory plan. */
size_t tv_jpeg_index_fixed_bytes(void);
void tv_jpeg_index_free(tv_jpeg_index *index);
/* The index as bytes to keep (a disk cache): the file's header up to its scan, its length, and the entries, in
 * this build's layout. `*out` is released with tv_free. */
tv_status tv_jpeg_index_save(const tv_jpeg_index *index, uint8_t **out, size_t *out_length, tv_error *err);
/* An index read back from `tv_jpeg_index_save`'s bytes over the open file `fd` (the index keeps a duplicate): the
 * header is parsed again and every entry checked against the file (its length, each row's offsets in order
 * within it), so bytes of another file or layout are refused (TV_ERR_CORRUPT) rather than trusted. */
tv_status tv_jpeg_index_load(int fd, const uint8_t *bytes, size_t length, tv_jpeg_index **index, tv_error *err);

/* The MCUs [x0, x1) x [y0, y1) as a JPEG of their own (the same coefficients and quantisation tables,
 * standard Huffman tables, the ICC profile `icc` in APP2 markers when it is not NULL; as wide and tall as those MCUs, or to the image's edge). Decoded with the same
 * settings as the file, its pixels equal the file's except within one MCU of an edge that is not an edge of
 * the image. `*jpeg` is released with tv_free. */
tv_status tv_jpeg_index_crop(const tv_jpeg_index *index, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                             const uint8_t *icc, size_t icc_length, uint8_t **jpeg, size_t *jpeg_length,
                             tv_error *err);

/* ---------- WebP, HEIF/AVIF, TIFF and GIF (libwebp, libheif, libtiff, giflib): one row decoder ---------- */

/* The formats that share this decoder; PNG and JPEG have their own above. The caller sniffs the format. */
typedef enum {
    TV_IMAGE_WEBP = 1,
    TV_IMAGE_HEIF = 2, /* HEIC and AVIF: libheif with the codecs it was built with */
    TV_IMAGE_TIFF = 3,
    TV_IMAGE_GIF = 4
} tv_image_format;

typedef enum {
    TV_IMAGE_COLOR_GRAY = 1,
    TV_IMAGE_COLOR_RGB = 2,
    TV_IMAGE_COLOR_PALETTE = 3,
    TV_IMAGE_COLOR_CMYK = 4,   /* ink, 0 = none (TIFF's SEPARATED with four inks) */
    TV_IMAGE_COLOR_YCBCR = 5,
    TV_IMAGE_COLOR_OTHER = 6   /* decoded through a library's generic RGBA path (TIFF: LAB, 1-bit, planar...) */
} tv_image_color;

/* The most frames or pages a header counts: walking them costs time and, for the libraries that keep a record of
 * each, memory, so a hostile file of millions of empty ones is counted this far and no further. */
#define TV_MAX_FRAMES 100000

typedef struct {
    uint32_t width, height;   /* as the rows come (before `orientation`; HEIF: with irot/imir applied, but for
                                 a grid read a row of tiles at a time, whose irot/imir are `orientation`) */
    int bit_depth;            /* bits per sample as stored */
    int samples;              /* samples per stored pixel */
    int has_alpha;
    tv_image_color color;
    int orientation;          /* TIFF's Orientation tag, or a HEIF grid's irot/imir, as 1...8; 0 when the
                                 format records none here (EXIF: see tv_image_exif) */
    uint32_t frames;          /* pages (TIFF), frames (GIF, animated WebP), top-level images (HEIF); the first
                                 is shown. TIFF pages and GIF frames are counted up to TV_MAX_FRAMES (a file
                                 with more says TV_MAX_FRAMES); an animated WebP of more is refused */
    int animated;             /* WebP's animation flag; GIF with more than one frame */
    int lossless;             /* WebP VP8L */
    int tiled;                /* TIFF tiles or a HEIF grid's (tile_width x tile_height); else strips of
                                 rows_per_strip */
    uint32_t tile_width, tile_height, rows_per_strip;
    size_t working_bytes;     /* memory a decode holds beyond the caller's rows: the whole image where the format
                                 is decoded whole (WebP, HEIF, GIF, TIFF's generic path), one strip or one row
                                 of tiles (TIFF), plus the file where it is read into memory (WebP) */
    size_t part_bytes;        /* memory each further unit decoded at once holds (tv_image_parts_prepare): a HEIF
                                 grid's tile decode; 0 where rows come from no such units */
    int streams_rows;         /* 1: rows are decoded as they are read (TIFF strips and tiles, HEIF grids); 0:
                                 the whole image is decoded at the first read */
    uint32_t levels;          /* levels the decoder delivers besides the image (tv_image_select_level): a TIFF's
                                 reduced copies of its first page (a pyramid, as later pages or SubIFDs), each
                                 smaller than the one before; WebP's scaled decodes to ceil(W / 2^k) x ceil(H / 2^k),
                                 k = 1 ... until a side is 1 (libwebp's rescaler); 0 elsewhere */
    char compression[24];     /* "VP8", "VP8L", "HEVC", "AV1", "LZW", "JPEG", "deflate", "PackBits", "none"... */
    /* HEIF's nclx colour box (0 when there is none): ISO/IEC 23091-2 codes, and the primaries they name. */
    int nclx_primaries, nclx_transfer;
    double nclx_xy[8];        /* red x y, green x y, blue x y, white x y */
} tv_image_header;

typedef struct tv_image_decoder tv_image_decoder;

/* Opens an image held in memory (`data` must outlive the decoder), a file, or an open descriptor of a regular
 * file (read with pread on a duplicate; `fd` stays the caller's) and reads its header: no pixel memory is
 * allocated. `strict`: a library warning about damaged data fails the read (TIFF) and HEIF decodes strictly. */
tv_status tv_image_open_memory(tv_image_format format, const uint8_t *data, size_t length, int strict,
                               tv_image_decoder **decoder, tv_image_header *header, tv_error *err);
tv_status tv_image_open_file(tv_image_format format, const char *path, int strict, tv_image_decoder **decoder,
                             tv_image_header *header, tv_error *err);
tv_status tv_image_open_descriptor(tv_image_format format, int fd, int strict, tv_image_decoder **decoder,
                                   tv_image_header *header, tv_error *err);

/* The ICC profile (WebP ICCP, HEIF prof/rICC, TIFF tag 34675) and the EXIF TIFF structure (WebP EXIF, a
 * leading "Exif\0\0" removed; HEIF's Exif item), or NULL. */
const uint8_t *tv_image_icc(const tv_image_decoder *decoder, size_t *length);
const uint8_t *tv_image_exif(const tv_image_decoder *decoder, size_t *length);

/* Converts every row read from now on with `transform` (RGB or gray layout; CMYK for a CMYK TIFF, whose rows then
 * reach it as ink). NULL: none. The transform must outlive the reads. */
void tv_image_set_color(tv_image_decoder *decoder, const tv_color_transform *transform);

/* The next `rows` rows, RGBA8 (straight alpha; gray to R = G = B; 16 bits rounded, v * 255 / 65535), `stride`
 * bytes apart, into `dst`; `dst` NULL decodes and drops them. `*done` counts the rows delivered, also on
 * failure. A format decoded whole holds the image from the first read to tv_image_finish, except when that first
 * read asks for every row into rows laid end to end (stride width * 4): then it decodes straight into `dst`. */
tv_status tv_image_read_rows(tv_image_decoder *decoder, uint8_t *dst, size_t stride, uint32_t rows,
                             uint32_t *done, tv_error *err);
/* Narrows the rows read from now on to columns [x, x + width), widened to the tiles that hold them where the file
 * is tiled (a tiled TIFF then reads only those tiles); every other layout keeps every column. `*window_x` and
 * `*window_width` say which columns each row then holds. Before the first read. */
void tv_image_crop_columns(tv_image_decoder *decoder, uint32_t x, uint32_t width, uint32_t *window_x,
                           uint32_t *window_width);

/* The size of stored level `level` (1...levels: the reduced copies, largest first; 0: the image). */
void tv_image_level_size(const tv_image_decoder *decoder, uint32_t level, uint32_t *width, uint32_t *height);

/* Makes the rows read from now on those of stored level `level` (0 ... header.levels), from its first row and every
 * column; `header` receives the level's layout (its width and height among it). Before the first read. */
tv_status tv_image_select_level(tv_image_decoder *decoder, uint32_t level, tv_image_header *header, tv_error *err);

/* Where a TIFF keeps stored level `level` (0 ... header.levels; 0: the first page): the file offset of its IFD, which
 * tv_image_stored_jpeg_tile_at reads alone. 0 for other formats. */
uint64_t tv_image_level_directory(const tv_image_decoder *decoder, uint32_t level);

/* A TIFF's stored JPEG tile as a JPEG file of its own, without decoding (iipsrv's pass-through): the tile at
 * (`column`, `row`) of the level whose IFD lies at `directory` (tv_image_level_directory), when that level is tiled
 * in `tile_size` squares, JPEG-compressed YCbCr, gray, or RGB whose stream says so. Its tables (tag 347) are merged
 * in before the tile's data; a tile the level's right or bottom edge cuts is cut by its coefficients. TV_ERR_UNSUPPORTED
 * when the file is not stored so. Reads the file's header, that one IFD and the tile's own offset, byte count and
 * bytes, from `data` (`length` bytes), else the file at `path`, else descriptor `fd` (duplicated; the caller's stays
 * open). `*out` is released with tv_free. */
tv_status tv_image_stored_jpeg_tile_at(const uint8_t *data, size_t length, const char *path, int fd, uint64_t directory,
                                       uint32_t column, uint32_t row, uint32_t tile_size, uint8_t **out,
                                       size_t *out_length, tv_error *err);

/* Rows that come from units decoded independently (a HEIF grid's row of tiles) may have those units decoded at
 * once, on threads the caller runs: tv_image_parts_prepare makes ready the row of units that holds `row` (the next
 * row to be read) and returns how many parts decode it, or 0 when there is nothing to gain (another layout, one
 * unit, the rows held already, no memory: reading decodes them then, one after another). Each part k < count is
 * then decoded once by tv_image_parts_decode, any of them at once, each on one thread; tv_image_parts_join, after
 * every part, says whether all were decoded (else the decoder is broken, as after a failed read). Reading the rows
 * of that unit row afterwards decodes nothing. The same bytes as without parts. */
uint32_t tv_image_parts_prepare(tv_image_decoder *decoder, uint32_t row);
void tv_image_parts_decode(tv_image_decoder *decoder, uint32_t part);
tv_status tv_image_parts_join(tv_image_decoder *decoder, tv_error *err);
/* Rows in each unit row of a streamed tiled layout (tile_height; a strip's rows_per_strip), 0 otherwise. */
uint32_t tv_image_unit_rows(const tv_image_decoder *decoder);

/* A file decoded whole (header.streams_rows 0): decodes it once and keeps it, converted by the colour transform,
 * for tv_image_whole_row; reads of rows then copy from it. */
tv_status tv_image_decode_whole(tv_image_decoder *decoder, tv_error *err);

/* Row `row` (RGBA8, header.width pixels) of the image tv_image_decode_whole kept, valid until the decoder is
 * closed; NULL before it, or past the last row. Any number of threads may read rows at once. */
const uint8_t *tv_image_whole_row(const tv_image_decoder *decoder, uint32_t row);

/* After the last row: releases this decoder's copy of a whole image (one kept by tv_image_decode_whole for
 * tv_image_whole_row stays until tv_image_close). */
tv_status tv_image_finish(tv_image_decoder *decoder, tv_error *err);

const tv_warning_log *tv_image_warnings(const tv_image_decoder *decoder);
void tv_image_close(tv_image_decoder *decoder);

/* Encodes RGBA8 rows (`stride` bytes apart) as a lossy WebP at `quality` 0 ... 100 (libwebp's scale), with its
 * alpha when `keep_alpha`, else opaque. On success `*out` holds `*out_length` bytes to release with tv_free. */
tv_status tv_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int quality,
                         int keep_alpha, uint8_t **out, size_t *out_length, tv_error *err);

/* ---------- SHA-256 in hardware ---------- */

/* The SHA-256 digest of `length` bytes into `digest`, with the processor's SHA instructions and the caller's 64
 * round constants `k` (FIPS 180-4 4.2.2; the portable code's table): returns 1, or 0 (and writes nothing) where the
 * processor has none, for the caller's portable code. Thread-safe. */
int tv_sha256_hardware(const uint8_t *data, size_t length, const uint32_t k[64], uint8_t digest[32]);

/* ---------- CRC-32C ---------- */

/* The CRC-32C (Castagnoli) of `length` bytes: with SSE 4.2 where the processor has it, else by table. Thread-safe. */
uint32_t tv_crc32c(const uint8_t *data, size_t length);
/* The same by table alone (what processors without SSE 4.2 run; tests compare the two). */
uint32_t tv_crc32c_portable(const uint8_t *data, size_t length);

/* ---------- versions ---------- */

/* Version of the libraries linked, for diagnostics. */
const char *tv_libpng_version(void);
int tv_libjpeg_turbo_version_number(void);

#endif
