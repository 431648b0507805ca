/* Colour management through Little CMS 2: a transform from a source's colour description (an ICC profile, or PNG
 * chromaticities and gamma) to sRGB, applied in place to decoded RGBA8 rows (or CMYK rows, which become RGBA8).
 *
 * lcms2 reports problems through a log handler and returns NULL; it never longjmps. Each transform has a context of
 * its own, whose log handler writes into that context's message, so that two threads building transforms at once
 * never mix their messages. A built transform is read-only: cmsDoTransform keeps its one-pixel cache on the stack, so
 * one transform serves several threads at once. */

#include <lcms2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

/* An RGB matrix-shaper profile (no tables for the intent) converts as lcms2's own 8-bit optimisation does: each
 * channel through its tone curve to linear light, a 3x3 matrix into sRGB's linear light, then sRGB's curve from a
 * table. Done here in a tight loop over RGBA rows it costs a third of lcms2's generic path per pixel (its
 * formatters go through function pointers for every pixel), which is most of a tagged fit's extra time. */
#define TV_SHAPER_STEPS 16384
struct tv_matrix_shaper {
    float linear[3][256];               /* each channel's 8-bit values, in linear light */
    float matrix[3][3];                 /* source linear RGB to sRGB linear RGB */
    uint8_t encode[TV_SHAPER_STEPS + 1]; /* sRGB linear light in 1/16384 steps to 8-bit sRGB */
};

struct tv_color_transform {
    cmsContext context;
    cmsHTRANSFORM transform;
    tv_color_layout layout;
    struct tv_matrix_shaper *shaper; /* the fast path, when the profile is a matrix-shaper; else NULL */
};

struct tv_color_log {
    char message[TV_MESSAGE_LEN];
};

static void tv_color_log_handler(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    struct tv_color_log *log = cmsGetContextUserData(context);
    if (log != NULL && log->message[0] == 0 && text != NULL) tv_copy_message(log->message, text);
}

/* The input format of a layout: RGB and gray read RGBA8 pixels (gray reads the first byte of four, the decoders
 * replicate gray to R = G = B); CMYK reads four bytes of ink, inverted (Adobe) or not. */
static cmsUInt32Number tv_color_input_format(tv_color_layout layout) {
    switch (layout) {
    case TV_COLOR_GRAY: return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3);
    case TV_COLOR_CMYK: return TYPE_CMYK_8;
    case TV_COLOR_CMYK_INVERTED: return TYPE_CMYK_8_REV;
    case TV_COLOR_RGB:
    default: return TYPE_RGBA_8;
    }
}

static cmsColorSpaceSignature tv_color_space_of(tv_color_layout layout) {
    switch (layout) {
    case TV_COLOR_GRAY: return cmsSigGrayData;
    case TV_COLOR_CMYK:
    case TV_COLOR_CMYK_INVERTED: return cmsSigCmykData;
    case TV_COLOR_RGB:
    default: return cmsSigRgbData;
    }
}

static const char *tv_color_space_name(cmsColorSpaceSignature space) {
    switch (space) {
    case cmsSigGrayData: return "gray";
    case cmsSigRgbData: return "RGB";
    case cmsSigCmykData: return "CMYK";
    case cmsSigLabData: return "Lab";
    case cmsSigXYZData: return "XYZ";
    default: return "another colour space";
    }
}

static inline uint8_t tv_shaper_out(const struct tv_matrix_shaper *s, float v) {
    if (!(v > 0)) return s->encode[0]; /* also NaN */
    if (v >= 1) return s->encode[TV_SHAPER_STEPS];
    return s->encode[(int)(v * TV_SHAPER_STEPS + 0.5f)];
}

static void tv_shaper_apply(const struct tv_matrix_shaper *s, uint8_t *pixels, size_t stride, uint32_t width,
                            uint32_t rows) {
    const float(*m)[3] = s->matrix;
    for (uint32_t y = 0; y < rows; y++) {
        uint8_t *p = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++, p += 4) {
            float r = s->linear[0][p[0]], g = s->linear[1][p[1]], b = s->linear[2][p[2]];
            p[0] = tv_shaper_out(s, m[0][0] * r + m[0][1] * g + m[0][2] * b);
            p[1] = tv_shaper_out(s, m[1][0] * r + m[1][1] * g + m[1][2] * b);
            p[2] = tv_shaper_out(s, m[2][0] * r + m[2][1] * g + m[2][2] * b);
        }
    }
}

void tv_color_apply(const tv_color_transform *t, uint8_t *pixels, size_t stride, uint32_t width, uint32_t rows) {
    if (t == NULL || pixels == NULL || width == 0 || rows == 0) return;
    if (t->shaper != NULL) {
        tv_shaper_apply(t->shaper, pixels, stride, width, rows);
        return;
    }
    cmsDoTransformLineStride(t->transform, pixels, pixels, width, rows, (cmsUInt32Number)stride,
                             (cmsUInt32Number)stride, 0, 0);
    if (t->layout == TV_COLOR_CMYK || t->layout == TV_COLOR_CMYK_INVERTED) {
        /* The ink's fourth byte became alpha's place: opaque. */
        for (uint32_t y = 0; y < rows; y++) {
            uint8_t *p = pixels + (size_t)y * stride + 3;
            for (uint32_t x = 0; x < width; x++, p += 4) *p = 0xFF;
        }
    }
}

void tv_color_free(tv_color_transform *t) {
    if (t == NULL) return;
    if (t->transform != NULL) cmsDeleteTransform(t->transform);
    free(t->shaper);
    if (t->context != NULL) {
        void *log = cmsGetContextUserData(t->context);
        cmsDeleteContext(t->context);
        free(log);
    }
    free(t);
}

/* Whether `t` leaves 8-bit values where they are (within one level): the 256 grays, and for RGB a 16-step cube and
 * the ramps of each primary. A profile that passes is sRGB for every purpose a frame has. */
static int tv_color_is_identity(const struct tv_color_transform *t) {
    if (t->layout == TV_COLOR_CMYK || t->layout == TV_COLOR_CMYK_INVERTED) return 0;
    enum { cube = 16, count = 256 * 4 + cube * cube * cube };
    uint8_t *in = malloc((size_t)count * 4), *out = malloc((size_t)count * 4);
    if (in == NULL || out == NULL) {
        free(in);
        free(out);
        return 0;
    }
    size_t n = 0;
    for (int v = 0; v < 256; v++) {
        uint8_t ramps[4][3] = {{v, v, v}, {v, 0, 0}, {0, v, 0}, {0, 0, v}};
        int kinds = t->layout == TV_COLOR_GRAY ? 1 : 4;
        for (int k = 0; k < kinds; k++, n++) {
            memcpy(in + n * 4, ramps[k], 3);
            in[n * 4 + 3] = 0xFF;
        }
    }
    if (t->layout == TV_COLOR_RGB) {
        for (int r = 0; r < cube; r++) {
            for (int g = 0; g < cube; g++) {
                for (int b = 0; b < cube; b++, n++) {
                    in[n * 4] = (uint8_t)(r * 17);
                    in[n * 4 + 1] = (uint8_t)(g * 17);
                    in[n * 4 + 2] = (uint8_t)(b * 17);
                    in[n * 4 + 3] = 0xFF;
                }
            }
        }
    }
    memcpy(out, in, n * 4);
    tv_color_apply(t, out, n * 4, (uint32_t)n, 1);
    int identity = 1;
    for (size_t i = 0; i < n * 4 && identity; i++) {
        if ((i & 3) == 3) continue;
        int d = (int)out[i] - (int)in[i];
        if (d > 1 || d < -1) identity = 0;
    }
    free(in);
    free(out);
    return identity;
}

/* The colorants of a matrix-shaper profile as a matrix from linear RGB to XYZ (D50, the PCS); 0 when a tag is
 * missing or a value is not a finite number of reasonable size. */
static int tv_colorant_matrix(cmsHPROFILE profile, double m[3][3]) {
    const cmsTagSignature tags[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    for (int c = 0; c < 3; c++) {
        const cmsCIEXYZ *xyz = cmsReadTag(profile, tags[c]);
        if (xyz == NULL) return 0;
        const double v[3] = {xyz->X, xyz->Y, xyz->Z};
        for (int r = 0; r < 3; r++) {
            if (!isfinite(v[r]) || fabs(v[r]) > 16) return 0;
            m[r][c] = v[r];
        }
    }
    return 1;
}

static int tv_invert3(const double a[3][3], double out[3][3]) {
    double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                 a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    if (!isfinite(det) || fabs(det) < 1e-9) return 0;
    out[0][0] = (a[1][1] * a[2][2] - a[1][2] * a[2][1]) / det;
    out[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
    out[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
    out[1][0] = (a[1][2] * a[2][0] - a[1][0] * a[2][2]) / det;
    out[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
    out[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
    out[2][0] = (a[1][0] * a[2][1] - a[1][1] * a[2][0]) / det;
    out[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
    out[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
    return 1;
}

/* The fast path of an RGB matrix-shaper source with sRGB as the destination, or NULL where lcms2 must do the work: a
 * profile with tables for the intent (lcms2 uses those), absolute colorimetric (white point scaling), or curves that
 * do not start at black (lcms2 compensates the black point of version 4 profiles in the perceptual intent). */
static struct tv_matrix_shaper *tv_matrix_shaper(cmsHPROFILE source, cmsHPROFILE srgb, cmsUInt32Number intent,
                                                 tv_color_layout layout) {
    if (layout != TV_COLOR_RGB || intent == INTENT_ABSOLUTE_COLORIMETRIC || !cmsIsMatrixShaper(source) ||
        cmsIsCLUT(source, intent, LCMS_USED_AS_INPUT) || !cmsIsMatrixShaper(srgb)) {
        return NULL;
    }
    double from[3][3], to[3][3], back[3][3];
    if (!tv_colorant_matrix(source, from) || !tv_colorant_matrix(srgb, to) || !tv_invert3(to, back)) return NULL;
    const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    struct tv_matrix_shaper *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *curve = cmsReadTag(source, curves[c]);
        if (curve == NULL) goto refuse;
        for (int v = 0; v < 256; v++) {
            float value = cmsEvalToneCurveFloat(curve, (cmsFloat32Number)(v / 255.0));
            if (!isfinite(value) || (v == 0 && fabsf(value) > 1e-6f)) goto refuse;
            s->linear[c][v] = value < 0 ? 0 : value > 1 ? 1 : value;
        }
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            double sum = back[r][0] * from[0][c] + back[r][1] * from[1][c] + back[r][2] * from[2][c];
            if (!isfinite(sum)) goto refuse;
            s->matrix[r][c] = (float)sum;
        }
    }
    const cmsToneCurve *srgbCurve = cmsReadTag(srgb, cmsSigRedTRCTag);
    cmsToneCurve *inverse = srgbCurve != NULL ? cmsReverseToneCurve(srgbCurve) : NULL;
    if (inverse == NULL) goto refuse;
    for (int i = 0; i <= TV_SHAPER_STEPS; i++) {
        float v = cmsEvalToneCurveFloat(inverse, (cmsFloat32Number)i / TV_SHAPER_STEPS);
        float scaled = v * 255.0f + 0.5f;
        s->encode[i] = (uint8_t)(scaled < 0 ? 0 : scaled > 255 ? 255 : scaled);
    }
    cmsFreeToneCurve(inverse);
    return s;
refuse:
    free(s);
    return NULL;
}

/* The profile's description (its 'desc' tag), or "" when it has none. */
static void tv_color_describe(cmsHPROFILE profile, char *text, size_t size) {
    text[0] = 0;
    cmsUInt32Number got = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", text, (cmsUInt32Number)size);
    if (got == 0) text[0] = 0;
    /* Printable ASCII only: the text reaches terminals and JSON. */
    for (char *c = text; *c != 0; c++) {
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7E) *c = '?';
    }
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == ' ') text[--length] = 0;
}

/* Builds the transform from `source` (which it closes) to sRGB with the profile's default intent. */
static tv_status tv_color_build(cmsContext context, cmsHPROFILE source, tv_color_layout layout,
                                tv_color_transform **out, tv_color_info *info, tv_error *err) {
    struct tv_color_log *log = cmsGetContextUserData(context);
    tv_status status = TV_OK;
    char message[TV_MESSAGE_LEN];
    cmsHPROFILE srgb = NULL;
    cmsHTRANSFORM transform = NULL;
    cmsProfileClassSignature kind = cmsGetDeviceClass(source);
    cmsColorSpaceSignature space = cmsGetColorSpace(source);
    cmsColorSpaceSignature pcs = cmsGetPCS(source);
    if (kind == cmsSigLinkClass || kind == cmsSigAbstractClass || kind == cmsSigNamedColorClass) {
        status = tv_fail(err, TV_ERR_UNSUPPORTED, "the ICC profile is a device link, abstract or named-colour profile, "
                                                  "not one that describes an image's colours");
        goto done;
    }
    if (space != tv_color_space_of(layout)) {
        snprintf(message, sizeof message, "the ICC profile describes %s colours, but the image's are %s",
                 tv_color_space_name(space), tv_color_space_name(tv_color_space_of(layout)));
        status = tv_fail(err, TV_ERR_UNSUPPORTED, message);
        goto done;
    }
    if (pcs != cmsSigXYZData && pcs != cmsSigLabData) {
        status = tv_fail(err, TV_ERR_CORRUPT, "the ICC profile's connection space is neither XYZ nor Lab");
        goto done;
    }
    cmsUInt32Number intent = cmsGetHeaderRenderingIntent(source);
    if (intent > INTENT_ABSOLUTE_COLORIMETRIC || !cmsIsIntentSupported(source, intent, LCMS_USED_AS_INPUT)) {
        intent = cmsIsIntentSupported(source, INTENT_PERCEPTUAL, LCMS_USED_AS_INPUT)
                     ? INTENT_PERCEPTUAL
                     : INTENT_RELATIVE_COLORIMETRIC;
    }
    srgb = cmsCreate_sRGBProfileTHR(context);
    if (srgb == NULL) {
        status = tv_fail(err, TV_ERR_NOMEM, "lcms2 could not make the sRGB profile");
        goto done;
    }
    transform = cmsCreateTransformTHR(context, source, tv_color_input_format(layout), srgb, TYPE_RGBA_8, intent, 0);
    if (transform == NULL) {
        snprintf(message, sizeof message, "lcms2 cannot use the ICC profile: %s",
                 log->message[0] != 0 ? log->message : "no transform to sRGB");
        status = tv_fail(err, TV_ERR_CORRUPT, message);
        goto done;
    }
    struct tv_color_transform *t = calloc(1, sizeof *t);
    if (t == NULL) {
        status = tv_fail(err, TV_ERR_NOMEM, "out of memory");
        goto done;
    }
    t->context = context;
    t->transform = transform;
    t->layout = layout;
    t->shaper = tv_matrix_shaper(source, srgb, intent, layout);
    transform = NULL;
    context = NULL;
    memset(info, 0, sizeof *info);
    tv_color_describe(source, info->description, sizeof info->description);
    info->intent = (int)intent;
    info->identity = tv_color_is_identity(t);
    *out = t;
done:
    if (transform != NULL) cmsDeleteTransform(transform);
    if (srgb != NULL) cmsCloseProfile(srgb);
    cmsCloseProfile(source);
    if (context != NULL) {
        cmsDeleteContext(context);
        free(log);
    }
    return status;
}

/* A context whose log handler keeps the first message; NULL when out of memory. */
static cmsContext tv_color_context(void) {
    struct tv_color_log *log = calloc(1, sizeof *log);
    if (log == NULL) return NULL;
    cmsContext context = cmsCreateContext(NULL, log);
    if (context == NULL) {
        free(log);
        return NULL;
    }
    cmsSetLogErrorHandlerTHR(context, tv_color_log_handler);
    return context;
}

/* Ends `context` (and its log) and fails with "`what`: the library's first message, else `otherwise`". */
static tv_status tv_color_context_fail(cmsContext context, tv_error *err, const char *what, const char *otherwise) {
    struct tv_color_log *log = cmsGetContextUserData(context);
    char message[TV_MESSAGE_LEN];
    snprintf(message, sizeof message, "%s: %s", what, log->message[0] != 0 ? log->message : otherwise);
    cmsDeleteContext(context);
    free(log);
    return tv_fail(err, TV_ERR_CORRUPT, message);
}

tv_status tv_color_from_icc(const uint8_t *profile, size_t length, tv_color_layout layout, tv_color_transform **out,
                            tv_color_info *info, tv_error *err) {
    *out = NULL;
    if (profile == NULL || length < 132) return tv_fail(err, TV_ERR_CORRUPT, "the ICC profile is shorter than its header");
    if (length > TV_ICC_MAX_BYTES) {
        char message[TV_MESSAGE_LEN];
        snprintf(message, sizeof message, "the ICC profile is %zu bytes, more than the %u accepted", length,
                 (unsigned)TV_ICC_MAX_BYTES);
        return tv_fail(err, TV_ERR_LIMIT, message);
    }
    uint32_t declared = (uint32_t)profile[0] << 24 | (uint32_t)profile[1] << 16 | (uint32_t)profile[2] << 8 | profile[3];
    if (declared > length) {
        char message[TV_MESSAGE_LEN];
        snprintf(message, sizeof message, "the ICC profile is cut short: %zu of its %u bytes are there", length,
                 (unsigned)declared);
        return tv_fail(err, TV_ERR_TRUNCATED, message);
    }
    cmsContext context = tv_color_context();
    if (context == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    cmsHPROFILE source = cmsOpenProfileFromMemTHR(context, profile, (cmsUInt32Number)length);
    if (source == NULL) return tv_color_context_fail(context, err, "lcms2 cannot read the ICC profile", "not a profile");
    return tv_color_build(context, source, layout, out, info, err);
}

tv_status tv_color_from_chromaticities(const tv_chromaticities *c, tv_color_layout layout, tv_color_transform **out,
                                       tv_color_info *info, uint8_t **profile, size_t *profile_length, tv_error *err) {
    *out = NULL;
    if (profile != NULL) *profile = NULL;
    if (profile_length != NULL) *profile_length = 0;
    if (layout != TV_COLOR_RGB && layout != TV_COLOR_GRAY) {
        return tv_fail(err, TV_ERR_ARG, "chromaticities describe RGB or gray colours");
    }
    const double values[] = {c->white_x, c->white_y, c->red_x, c->red_y, c->green_x, c->green_y,
                             c->blue_x,  c->blue_y,  c->gamma};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        if (!isfinite(values[i]) || values[i] <= 0 || values[i] > 10) {
            return tv_fail(err, TV_ERR_CORRUPT, "the chromaticities or gamma are out of range");
        }
    }
    if (c->white_y < 1e-6 || c->red_y < 1e-6 || c->green_y < 1e-6 || c->blue_y < 1e-6) {
        return tv_fail(err, TV_ERR_CORRUPT, "the chromaticities are out of range");
    }
    cmsContext context = tv_color_context();
    if (context == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    cmsToneCurve *curve = cmsBuildGamma(context, c->gamma);
    cmsHPROFILE source = NULL;
    cmsCIExyY white = {c->white_x, c->white_y, 1.0};
    if (curve != NULL && layout == TV_COLOR_GRAY) {
        source = cmsCreateGrayProfileTHR(context, &white, curve);
    } else if (curve != NULL) {
        cmsCIExyYTRIPLE primaries = {
            {c->red_x, c->red_y, 1.0}, {c->green_x, c->green_y, 1.0}, {c->blue_x, c->blue_y, 1.0}};
        cmsToneCurve *curves[3] = {curve, curve, curve};
        source = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    }
    if (curve != NULL) cmsFreeToneCurve(curve);
    if (source == NULL) {
        return tv_color_context_fail(context, err, "lcms2 cannot make a profile of the chromaticities",
                                     "degenerate primaries");
    }
    if (c->name[0] != 0) {
        cmsMLU *description = cmsMLUalloc(context, 1);
        if (description != NULL) {
            cmsMLUsetASCII(description, "en", "US", c->name);
            cmsWriteTag(source, cmsSigProfileDescriptionTag, description);
            cmsMLUfree(description);
        }
    }
    if (profile != NULL && profile_length != NULL) {
        cmsUInt32Number needed = 0;
        if (cmsSaveProfileToMem(source, NULL, &needed) && needed > 0) {
            uint8_t *bytes = malloc(needed);
            if (bytes != NULL && cmsSaveProfileToMem(source, bytes, &needed) && needed >= 128) {
                /* lcms2 stamps the time of making in the header (and the ID, an MD5 of it): a fixed date and no ID
                 * make the same numbers the same bytes, so that a PNG carrying the profile is the same file on
                 * every run. */
                static const uint8_t date[12] = {0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0}; /* 2000-01-01 00:00:00 */
                memcpy(bytes + 24, date, sizeof date);
                memset(bytes + 84, 0, 16);
                *profile = bytes;
                *profile_length = needed;
            } else {
                free(bytes);
            }
        }
    }
    tv_status status = tv_color_build(context, source, layout, out, info, err);
    if (status != TV_OK && profile != NULL) {
        free(*profile);
        *profile = NULL;
        if (profile_length != NULL) *profile_length = 0;
    }
    return status;
}
