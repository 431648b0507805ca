/* PNG encode harness: encodes one RGBA frame the way Sources/CImageCodecs/png_encoder.c does
 * (libpng into a growing memory buffer; RGB via png_set_filler when opaque), with a chosen zlib
 * level, zlib strategy and row filter, and prints the encoded size.
 *
 *   png_encode_harness FRAME.png LEVEL STRATEGY FILTER [ROUNDS]
 *     STRATEGY: libpng (libpng's own choice: Z_FILTERED with a filter, Z_DEFAULT_STRATEGY
 *               without), default, filtered, rle, huffman
 *     FILTER:   none sub up avg paeth adaptive
 *     ROUNDS:   encodes timed (default 1); the median wall time is printed too
 *   Env: HARNESS_MEMLEVEL=1..9 (zlib memLevel, libpng's default 8), HARNESS_BUFFER=BYTES (IDAT
 *   buffer, libpng's default 8192), HARNESS_OUT=FILE (writes the last PNG there).
 *
 * The frame is read with libpng's simplified API (outside the function callgrind counts with
 * --toggle-collect=encode_frame), so instruction counts cover the encode only.
 * Build: cc -O2 -o png_encode_harness png_encode_harness.c $(pkg-config --cflags --libs libpng) -lz
 */
#include <png.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sink { unsigned char *buf; size_t len, cap; };

static void write_fn(png_structp png, png_bytep data, size_t count) {
    struct sink *s = png_get_io_ptr(png);
    if (count > s->cap - s->len) {
        size_t cap = s->cap ? s->cap : 4096;
        while (count > cap - s->len) cap *= 2;
        s->buf = realloc(s->buf, cap);
        if (!s->buf) png_error(png, "out of memory");
        s->cap = cap;
    }
    memcpy(s->buf + s->len, data, count);
    s->len += count;
}
static void flush_fn(png_structp png) { (void)png; }

static int filter_mask(const char *f) {
    if (!strcmp(f, "none")) return PNG_FILTER_NONE;
    if (!strcmp(f, "sub")) return PNG_FILTER_SUB;
    if (!strcmp(f, "up")) return PNG_FILTER_UP;
    if (!strcmp(f, "avg")) return PNG_FILTER_AVG;
    if (!strcmp(f, "paeth")) return PNG_FILTER_PAETH;
    if (!strcmp(f, "adaptive")) return PNG_ALL_FILTERS;
    fprintf(stderr, "unknown filter %s\n", f);
    exit(2);
}
static int strategy_of(const char *s) {
    if (!strcmp(s, "libpng")) return -1;
    if (!strcmp(s, "default")) return Z_DEFAULT_STRATEGY;
    if (!strcmp(s, "filtered")) return Z_FILTERED;
    if (!strcmp(s, "rle")) return Z_RLE;
    if (!strcmp(s, "huffman")) return Z_HUFFMAN_ONLY;
    fprintf(stderr, "unknown strategy %s\n", s);
    exit(2);
}

__attribute__((noinline)) size_t encode_frame(const unsigned char *rgba, unsigned w, unsigned h, int level,
                                              int strategy, int filter, int rgb, struct sink *s) {
    s->len = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) { fprintf(stderr, "libpng error\n"); exit(1); }
    png_set_write_fn(png, s, write_fn, flush_fn);
    png_set_IHDR(png, info, w, h, 8, rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    if (strategy >= 0) png_set_compression_strategy(png, strategy);
    if (getenv("HARNESS_MEMLEVEL")) png_set_compression_mem_level(png, atoi(getenv("HARNESS_MEMLEVEL")));
    if (getenv("HARNESS_BUFFER")) png_set_compression_buffer_size(png, (size_t)atol(getenv("HARNESS_BUFFER")));
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filter);
    png_write_info(png, info);
    if (rgb) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (unsigned y = 0; y < h; y++) png_write_row(png, (png_const_bytep)(rgba + (size_t)y * w * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return s->len;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s FRAME.png LEVEL STRATEGY FILTER [ROUNDS]\n", argv[0]);
        return 2;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, argv[1])) { fprintf(stderr, "%s\n", image.message); return 1; }
    image.format = PNG_FORMAT_RGBA;
    unsigned char *rgba = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, rgba, 0, NULL)) { fprintf(stderr, "%s\n", image.message); return 1; }
    unsigned w = image.width, h = image.height;
    int rgb = 1;
    for (size_t i = 3; i < (size_t)w * h * 4; i += 4) if (rgba[i] != 255) { rgb = 0; break; }
    int level = atoi(argv[2]), strategy = strategy_of(argv[3]), filter = filter_mask(argv[4]);
    int rounds = argc > 5 ? atoi(argv[5]) : 1;
    struct sink s = {0};
    double *ms = calloc(rounds > 0 ? rounds : 1, sizeof *ms);
    size_t size = 0;
    for (int r = 0; r < rounds; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        size = encode_frame(rgba, w, h, level, strategy, filter, rgb, &s);
        clock_gettime(CLOCK_MONOTONIC, &b);
        ms[r] = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
    }
    qsort(ms, rounds, sizeof *ms, cmp);
    printf("%ux%u %s level=%d strategy=%s filter=%s bytes=%zu median_ms=%.2f\n", w, h, rgb ? "RGB" : "RGBA", level,
           argv[3], argv[4], size, ms[rounds / 2]);
    if (getenv("HARNESS_OUT")) {
        FILE *f = fopen(getenv("HARNESS_OUT"), "wb");
        fwrite(s.buf, 1, s.len, f);
        fclose(f);
    }
    return 0;
}
