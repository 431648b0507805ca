#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H
/* jpeglib.h uses size_t and FILE without including anything: these two must come first. */
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#endif
