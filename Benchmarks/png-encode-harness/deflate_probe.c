/* Instruction cost of compressing a frame's Sub-filtered PNG scanlines (the IDAT payload) with
 * zlib (level N, default strategy or Z_RLE) or libdeflate (level N, via dlopen of libdeflate.so.0).
 *   deflate_probe FRAME.png zlib|zlib-rle|libdeflate LEVEL
 * Count with: valgrind --tool=callgrind --toggle-collect=run_zlib --toggle-collect=run_libdeflate \
 *   --callgrind-out-file=/dev/null ./deflate_probe FRAME.png libdeflate 1
 * Build: cc -O2 -o deflate_probe deflate_probe.c $(pkg-config --cflags --libs libpng) -lz -ldl */
#include <dlfcn.h>
#include <png.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef void *(*alloc_fn)(int);
typedef size_t (*comp_fn)(void *, const void *, size_t, void *, size_t);
__attribute__((noinline)) size_t run_libdeflate(comp_fn f, void *c, const void *in, size_t n, void *out, size_t cap) {
    return f(c, in, n, out, cap);
}
__attribute__((noinline)) size_t run_zlib(int level, int strategy, const unsigned char *in, size_t n, unsigned char *out, size_t cap) {
    z_stream s; memset(&s, 0, sizeof s);
    deflateInit2(&s, level, Z_DEFLATED, 15, 8, strategy);
    s.next_in = (unsigned char *)in; s.avail_in = n; s.next_out = out; s.avail_out = cap;
    deflate(&s, Z_FINISH);
    size_t r = s.total_out; deflateEnd(&s); return r;
}
int main(int argc, char **argv) {
    png_image im; memset(&im, 0, sizeof im); im.version = PNG_IMAGE_VERSION;
    png_image_begin_read_from_file(&im, argv[1]); im.format = PNG_FORMAT_RGB;
    unsigned w = im.width, h = im.height; unsigned char *rgb = malloc(PNG_IMAGE_SIZE(im));
    png_image_finish_read(&im, NULL, rgb, 0, NULL);
    size_t rowb = (size_t)w * 3, n = (rowb + 1) * h;
    unsigned char *f = malloc(n);
    for (unsigned y = 0; y < h; y++) {
        unsigned char *d = f + y * (rowb + 1), *s = rgb + y * rowb; d[0] = 1;
        for (size_t x = 0; x < rowb; x++) d[1 + x] = s[x] - (x >= 3 ? s[x - 3] : 0);
    }
    size_t cap = n + n / 10 + 1024; unsigned char *out = malloc(cap);
    const char *mode = argv[2]; int level = atoi(argv[3]);
    size_t r;
    if (!strcmp(mode, "libdeflate")) {
        void *lib = dlopen("libdeflate.so.0", RTLD_NOW);
        alloc_fn a = (alloc_fn)dlsym(lib, "libdeflate_alloc_compressor");
        comp_fn c = (comp_fn)dlsym(lib, "libdeflate_zlib_compress");
        void *comp = a(level);
        r = run_libdeflate(c, comp, f, n, out, cap);
    } else {
        r = run_zlib(level, !strcmp(mode, "zlib-rle") ? Z_RLE : Z_DEFAULT_STRATEGY, f, n, out, cap);
    }
    printf("%s level %d: %zu -> %zu bytes\n", mode, level, n, r);
    return 0;
}
