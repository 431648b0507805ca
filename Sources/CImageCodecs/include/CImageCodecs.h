#ifndef CIMAGECODECS_H
#define CIMAGECODECS_H

/* Public header of the C shim. It includes no libpng or libjpeg header: Swift sees only
 * small, setjmp-free entry points. */

#include <stddef.h>
#include <stdint.h>

/* Version of the libraries linked, for diagnostics. */
const char *tv_libpng_version(void);
int tv_libjpeg_turbo_version_number(void);

#endif
