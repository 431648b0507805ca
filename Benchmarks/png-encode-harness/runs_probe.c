/* Time of tileview's own run-length PNG writer (Sources/CImageCodecs/png_runs.c) against zlib's Z_RLE and level 2
 * on the same Sub-filtered rows of a frame: compression only for zlib, the whole file (conversion, filter,
 * deflate, chunks) for png_runs.c. Medians of 21 in one process; the zlib streams and the written file are checked
 * by decompressing them.
 *   runs_probe FRAME.png
 * Build (from the repository):
 *   cc -O2 -I Sources/CImageCodecs/include -I Sources/CImageCodecs -o runs_probe \
 *     Benchmarks/png-encode-harness/runs_probe.c Sources/CImageCodecs/png_runs.c \
 *     $(pkg-config --cflags --libs libpng) -lz */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "shim_internal.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static size_t zlib_compress(int level, int strategy, const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    z_stream s; memset(&s, 0, sizeof s);
    deflateInit2(&s, level, Z_DEFLATED, 15, 8, strategy);
    s.next_in = (uint8_t *)in; s.avail_in = (uInt)n; s.next_out = out; s.avail_out = (uInt)cap;
    deflate(&s, Z_FINISH);
    size_t r = s.total_out; deflateEnd(&s); return r;
}
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, argv[1])) return 1;
    im.format = PNG_FORMAT_RGBA;
    uint32_t w = im.width, h = im.height;
    uint8_t *rgba = malloc(PNG_IMAGE_SIZE(im));
    png_image_finish_read(&im, NULL, rgba, 0, NULL);
    size_t row = (size_t)w * 3, n = (row + 1) * h;
    uint8_t *filtered = malloc(n), *check = malloc(n);
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *d = filtered + y * (row + 1); const uint8_t *s = rgba + (size_t)y * w * 4; d[0] = 1;
        for (uint32_t x = 0; x < w; x++) for (int c = 0; c < 3; c++) {
            int left = x > 0 ? s[(x - 1) * 4 + c] : 0; d[1 + x * 3 + c] = (uint8_t)(s[x * 4 + c] - left);
        }
    }
    size_t cap = n + n / 8 + 1024; uint8_t *out = malloc(cap);
    const char *names[3] = {"zlib level 2", "zlib Z_RLE", "png_runs.c (whole file)"};
    for (int m = 0; m < 3; m++) {
        double t[21]; size_t bytes = 0; int ok = 1;
        for (int r = 0; r < 21; r++) {
            double start = now();
            if (m < 2) {
                bytes = zlib_compress(m == 0 ? 2 : 1, m == 0 ? Z_DEFAULT_STRATEGY : Z_RLE, filtered, n, out, cap);
                t[r] = now() - start;
                if (r == 0) {
                    uLongf got = n;
                    ok = uncompress(check, &got, out, bytes) == Z_OK && got == n && !memcmp(check, filtered, n);
                }
            } else {
                tv_png_runs *p = tv_png_runs_begin(w, h, 2, TV_PNG_FILTER_SUB);
                for (uint32_t y = 0; y < h; y++) tv_png_runs_row(p, rgba + (size_t)y * w * 4);
                uint8_t *file = NULL; size_t length = 0;
                tv_png_runs_end(p, &file, &length);
                t[r] = now() - start;
                bytes = length;
                if (r == 0) { /* IDAT payload starts at byte 41 and ends 16 bytes before the end */
                    uLongf got = n;
                    ok = uncompress(check, &got, file + 41, length - 41 - 16) == Z_OK && got == n &&
                         !memcmp(check, filtered, n);
                }
                free(file); tv_png_runs_free(p);
            }
        }
        qsort(t, 21, sizeof t[0], by_value);
        printf("%-24s %7.2f ms  %8zu bytes  %s\n", names[m], t[10], bytes, ok ? "checked" : "MISMATCH");
    }
    return 0;
}
