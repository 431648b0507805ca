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

/* Copies at most TV_MESSAGE_LEN - 1 bytes and terminates. */
void tv_copy_message(char *dst, const char *src);

/* The descriptor of a regular file opened by path (O_NONBLOCK for the open, checked with fstat, then blocking),
 * or -1 with `err` set: what tv_fopen_regular opens. */
int tv_open_regular(const char *path, tv_error *err);

/* A close-on-exec duplicate of `fd` when fstat says it is a regular file, or -1 with `err` set. */
int tv_dup_regular(int fd, tv_error *err);

/* Bytes in the file a stream reads (a path stream or a descriptor stream), or -1 when unknown. */
long long tv_stream_length(FILE *file);

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

#endif
