/* Writes an RGBA8 raw file as a PNG through Sources/CImageCodecs/png_runs.c, built by the codec tests with a small
 * IDAT limit (-DTV_PNG_RUNS_IDAT_LIMIT=1000), so that the path taken only past 2 GiB of stream is exercised:
 *   runs_split WIDTH HEIGHT IN.rgba OUT.png                                                                  */
#include <stdio.h>
#include <stdlib.h>

#include "shim_internal.h"

int main(int argc, char **argv) {
    if (argc != 5) return 2;
    uint32_t width = (uint32_t)strtoul(argv[1], NULL, 10), height = (uint32_t)strtoul(argv[2], NULL, 10);
    size_t size = (size_t)width * height * 4;
    uint8_t *rgba = malloc(size);
    FILE *in = fopen(argv[3], "rb");
    if (rgba == NULL || in == NULL || fread(rgba, 1, size, in) != size) return 3;
    fclose(in);
    tv_png_runs *writer = tv_png_runs_begin(width, height, 6, TV_PNG_FILTER_SUB);
    if (writer == NULL) return 4;
    for (uint32_t y = 0; y < height; y++) {
        if (!tv_png_runs_row(writer, rgba + (size_t)y * width * 4)) return 4;
    }
    uint8_t *file = NULL;
    size_t length = 0;
    if (!tv_png_runs_end(writer, &file, &length)) return 4;
    FILE *out = fopen(argv[4], "wb");
    if (out == NULL || fwrite(file, 1, length, out) != length || fclose(out) != 0) return 5;
    free(file);
    tv_png_runs_free(writer);
    free(rgba);
    return 0;
}
