#include "CImageCodecs.h"
#include <stdio.h>
#include <png.h>
#include <jpeglib.h>

const char *tv_libpng_version(void) { return png_get_libpng_ver(NULL); }

int tv_libjpeg_turbo_version_number(void) {
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
    return LIBJPEG_TURBO_VERSION_NUMBER;
#else
    return JPEG_LIB_VERSION;
#endif
}
