#ifndef CLCMS2_SHIM_H
#define CLCMS2_SHIM_H
/* Little CMS 2: colour profiles and transforms. Only the C shim (CImageCodecs) includes it. */
#include <lcms2.h>
#endif
