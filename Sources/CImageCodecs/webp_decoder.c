/* WebP through libwebp (decoding, and the encoder of the server's webp answers). Opening reads the RIFF chunks'
 * headers and what the header needs (VP8X, ICCP, EXIF, the first image's bitstream header) with small reads; the
 * file is read into memory only to decode (libwebp decodes from a buffer), the image whole as RGBA8 at the first
 * row; an animated file gives its first frame, composed on the canvas by WebPAnimDecoder. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

#include "shim_internal.h"

/* The largest WebP file read into memory. A WebP is at most 16383 x 16383 pixels; its compressed data is far
 * smaller than that. */
#define TV_WEBP_MAX_FILE ((size_t)1 << 30)

struct tv_webp_state {
    const uint8_t *bytes;
    uint8_t *owned;
    uint32_t full_width, full_height; /* the image's; the header has the selected level's */
    uint32_t level;
};

/* What a decode holds beside the frame: the decoded image and the file read into memory (unless the caller gave
 * its bytes). */
static size_t tv_webp_working_bytes(const struct tv_image_decoder *d) {
    return (size_t)d->header.width * d->header.height * 4 + (d->data == NULL ? d->length : 0);
}

/* The size of level `level`: the image halved `level` times, rounded up. */
static void tv_webp_level_size(const struct tv_image_decoder *d, uint32_t level, uint32_t *width, uint32_t *height) {
    const struct tv_webp_state *s = d->state;
    uint64_t scale = (uint64_t)1 << level;
    *width = (uint32_t)((s->full_width + scale - 1) / scale);
    *height = (uint32_t)((s->full_height + scale - 1) / scale);
}

static const char *tv_webp_status_text(VP8StatusCode code, tv_status *status) {
    switch (code) {
    case VP8_STATUS_OUT_OF_MEMORY: *status = TV_ERR_NOMEM; return "out of memory";
    case VP8_STATUS_INVALID_PARAM: *status = TV_ERR_ARG; return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: *status = TV_ERR_CORRUPT; return "the bitstream is damaged";
    case VP8_STATUS_UNSUPPORTED_FEATURE: *status = TV_ERR_UNSUPPORTED; return "an unsupported feature";
    case VP8_STATUS_SUSPENDED: *status = TV_ERR_TRUNCATED; return "decoding suspended";
    case VP8_STATUS_USER_ABORT: *status = TV_ERR_CORRUPT; return "decoding stopped";
    case VP8_STATUS_NOT_ENOUGH_DATA: *status = TV_ERR_TRUNCATED; return "the data ends before the image does";
    default: *status = TV_ERR_CORRUPT; return "the data is damaged";
    }
}

/* The first image of the file, as its bitstream header says. */
struct tv_webp_image {
    uint64_t at;       /* its chunk ("VP8 " or "VP8L"), 0: none yet */
    int lossless;
    uint32_t width, height;
    int alpha;         /* VP8L's alpha hint, or an ALPH chunk before a VP8 one */
};

/* Reads the bitstream header of the image chunk at `at` (`size` bytes of payload, `fourcc` "VP8 " or "VP8L") into
 * `image`: a VP8 key frame's start code and size, or VP8L's signature, size and alpha hint. */
static tv_status tv_webp_image_header(struct tv_image_decoder *d, uint64_t at, const uint8_t *fourcc, uint32_t size,
                                      struct tv_webp_image *image, tv_error *err) {
    uint8_t bits[10];
    image->at = at;
    image->lossless = memcmp(fourcc, "VP8L", 4) == 0;
    uint32_t need = image->lossless ? 5 : 10;
    if (size < need || tv_input_read(d, at + 8, bits, need) != (long long)need) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the bitstream is damaged");
    }
    if (image->lossless) {
        uint32_t word = (uint32_t)tv_uint(bits + 1, 4, 0);
        if (bits[0] != 0x2F || (word >> 29) != 0) {
            return tv_image_fail(d, err, TV_ERR_CORRUPT, "the bitstream is damaged");
        }
        image->width = (word & 0x3FFF) + 1;
        image->height = ((word >> 14) & 0x3FFF) + 1;
        image->alpha = image->alpha || ((word >> 28) & 1);
    } else {
        /* A key frame (bit 0 clear) with the start code 9D 01 2A, then 14-bit sizes. */
        if ((bits[0] & 1) != 0 || bits[3] != 0x9D || bits[4] != 0x01 || bits[5] != 0x2A) {
            return tv_image_fail(d, err, TV_ERR_CORRUPT, "the bitstream is damaged");
        }
        image->width = (uint32_t)tv_uint(bits + 6, 2, 0) & 0x3FFF;
        image->height = (uint32_t)tv_uint(bits + 8, 2, 0) & 0x3FFF;
        if (image->width == 0 || image->height == 0) {
            return tv_image_fail(d, err, TV_ERR_CORRUPT, "the bitstream is damaged");
        }
    }
    return TV_OK;
}

/* Reads `size` bytes of the chunk payload at `at` into a new buffer (NULL when out of memory or cut short). */
static uint8_t *tv_webp_payload(struct tv_image_decoder *d, uint64_t at, uint32_t size) {
    uint8_t *bytes = malloc(size > 0 ? size : 1);
    if (bytes != NULL && tv_input_read(d, at + 8, bytes, size) != (long long)size) {
        free(bytes);
        bytes = NULL;
    }
    return bytes;
}

/* The header from the RIFF chunks, walked with an 8-byte read each (libwebp's demuxer needs the whole file in
 * memory, which a file of 200 MB made a 213 MB header read): VP8X's flags and canvas, the ICC profile and EXIF
 * (within their limits), the ANMF frames counted, and the first image's bitstream header. libwebp checks the rest
 * when it decodes. An animation of more than TV_MAX_FRAMES frames (an hour at 30 a second; GIF's and TIFF's counts
 * stop there) is refused: the animation decoder's demuxer keeps a record of every frame (about 90 bytes each; an
 * animation of 1,500,000 one-pixel frames in 66 MB held 150 MB more). */
static tv_status tv_webp_open(struct tv_image_decoder *d, tv_error *err) {
    struct tv_webp_state *s = calloc(1, sizeof *s);
    if (s == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    d->state = s;
    uint8_t head[12];
    if (tv_input_read(d, 0, head, 12) != 12) {
        return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the data ends before the image does");
    }
    if (memcmp(head, "RIFF", 4) != 0 || memcmp(head + 8, "WEBP", 4) != 0) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the RIFF container is damaged");
    }
    uint64_t end = 8 + (uint64_t)(uint32_t)tv_uint(head + 4, 4, 0);
    if (end < 12) return tv_image_fail(d, err, TV_ERR_CORRUPT, "the RIFF container is damaged");
    if (end > d->length) return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the file ends before its last chunk");
    uint32_t flags = 0, canvas_width = 0, canvas_height = 0, frames = 0;
    int extended = 0, alpha_chunk = 0;
    struct tv_webp_image image = {0};
    for (uint64_t at = 12; at + 8 <= end;) {
        uint8_t chunk[8];
        if (tv_input_read(d, at, chunk, 8) != 8) {
            return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the file ends before its last chunk");
        }
        uint32_t size = (uint32_t)tv_uint(chunk + 4, 4, 0);
        if ((uint64_t)size > end - at - 8) {
            return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the file ends before its last chunk");
        }
        if (memcmp(chunk, "VP8X", 4) == 0) {
            uint8_t fields[10];
            if (at != 12 || size < 10 || tv_input_read(d, at + 8, fields, 10) != 10) {
                return tv_image_fail(d, err, TV_ERR_CORRUPT, "the RIFF container is damaged");
            }
            extended = 1;
            flags = fields[0];
            canvas_width = (uint32_t)tv_uint(fields + 4, 3, 0) + 1;
            canvas_height = (uint32_t)tv_uint(fields + 7, 3, 0) + 1;
        } else if (memcmp(chunk, "ICCP", 4) == 0 && (flags & ICCP_FLAG) && d->icc == NULL) {
            if (size > TV_ICC_MAX_BYTES) {
                tv_image_icc_too_large(d);
            } else {
                uint8_t *profile = tv_webp_payload(d, at, size);
                if (profile != NULL) tv_image_keep_icc(d, profile, size);
                free(profile);
            }
        } else if (memcmp(chunk, "EXIF", 4) == 0 && (flags & EXIF_FLAG) && d->exif == NULL) {
            /* Within twice EXIF's limit, the "Exif\0\0" prefix some writers add included; tv_image_keep_exif
             * says when the block is over it. */
            uint8_t *block = size <= 2 * TV_EXIF_MAX_BYTES ? tv_webp_payload(d, at, size) : NULL;
            if (block != NULL) tv_image_keep_exif(d, block, size);
            free(block);
        } else if (memcmp(chunk, "ANMF", 4) == 0) {
            if (++frames > TV_MAX_FRAMES) {
                return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, "an animation of more than 100000 frames");
            }
            /* The first frame's image: its sub-chunks after the 16-byte frame header. */
            for (uint64_t sub = at + 24; image.at == 0 && sub + 8 <= at + 8 + size;) {
                uint8_t inner[8];
                if (tv_input_read(d, sub, inner, 8) != 8) break;
                uint32_t inner_size = (uint32_t)tv_uint(inner + 4, 4, 0);
                if ((uint64_t)inner_size > at + 8 + size - sub - 8) break;
                if (memcmp(inner, "ALPH", 4) == 0) image.alpha = 1;
                if (memcmp(inner, "VP8 ", 4) == 0 || memcmp(inner, "VP8L", 4) == 0) {
                    tv_status status = tv_webp_image_header(d, sub, inner, inner_size, &image, err);
                    if (status != TV_OK) return status;
                }
                sub += 8 + (uint64_t)inner_size + (inner_size & 1);
            }
        } else if (memcmp(chunk, "ALPH", 4) == 0 && image.at == 0) {
            alpha_chunk = 1;
        } else if ((memcmp(chunk, "VP8 ", 4) == 0 || memcmp(chunk, "VP8L", 4) == 0) && image.at == 0) {
            if (!extended && at != 12) return tv_image_fail(d, err, TV_ERR_CORRUPT, "the RIFF container is damaged");
            image.alpha = alpha_chunk;
            tv_status status = tv_webp_image_header(d, at, chunk, size, &image, err);
            if (status != TV_OK) return status;
        } else if (!extended && at == 12) {
            /* The simple format starts with its VP8 or VP8L chunk (what follows it is not read). */
            return tv_image_fail(d, err, TV_ERR_CORRUPT, "the RIFF container is damaged");
        }
        at += 8 + (uint64_t)size + (size & 1);
    }
    int animated = extended && (flags & ANIMATION_FLAG) != 0;
    if (image.at == 0) return tv_image_fail(d, err, TV_ERR_CORRUPT, "the file holds no image");
    uint32_t width = extended ? canvas_width : image.width, height = extended ? canvas_height : image.height;
    /* A still image fills its canvas; the frames of an animation lie on it. */
    if (!animated && (image.width != width || image.height != height)) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the image is not the size its header gives");
    }

    tv_image_header *h = &d->header;
    h->width = width;
    h->height = height;
    s->full_width = width;
    s->full_height = height;
    /* Scaled decodes (not of an animation): a level per halving while both sides stay at least 1. */
    if (!animated) {
        while (h->levels < 24 && (width >> (h->levels + 1)) >= 1 && (height >> (h->levels + 1)) >= 1) h->levels++;
    }
    h->bit_depth = 8;
    h->has_alpha = image.alpha || (flags & ALPHA_FLAG) != 0;
    h->samples = h->has_alpha ? 4 : 3;
    h->color = TV_IMAGE_COLOR_RGB;
    h->frames = animated && frames > 0 ? frames : 1;
    h->animated = animated;
    h->lossless = !animated && image.lossless;
    snprintf(h->compression, sizeof h->compression, "%s",
             animated ? "animation" : (image.lossless ? "VP8L" : "VP8"));
    h->working_bytes = tv_webp_working_bytes(d);
    /* The animation decoder composes on a canvas of its own and keeps the previous one. */
    if (animated) h->working_bytes += (size_t)width * height * 8;
    return TV_OK;
}

/* The file in memory, read on the first decode. */
static tv_status tv_webp_load(struct tv_image_decoder *d, tv_error *err) {
    struct tv_webp_state *s = d->state;
    return s->bytes != NULL ? TV_OK : tv_input_all(d, TV_WEBP_MAX_FILE, &s->bytes, &s->owned, err);
}

static tv_status tv_webp_decode_whole(struct tv_image_decoder *d, uint8_t *pixels, tv_error *err) {
    struct tv_webp_state *s = d->state;
    uint32_t width = d->header.width, height = d->header.height;
    size_t bytes = (size_t)width * height * 4;
    tv_status status = tv_webp_load(d, err);
    if (status != TV_OK) return status;
    if (d->header.animated) {
        WebPData data = {s->bytes, d->length};
        WebPAnimDecoderOptions options;
        if (!WebPAnimDecoderOptionsInit(&options)) return tv_image_fail(d, err, TV_ERR_STATE, "libwebp mismatch");
        options.color_mode = MODE_RGBA;
        options.use_threads = 0;
        WebPAnimDecoder *animation = WebPAnimDecoderNew(&data, &options);
        if (animation == NULL) return tv_image_fail(d, err, TV_ERR_CORRUPT, "the animation cannot be decoded");
        uint8_t *frame = NULL;
        int timestamp = 0;
        if (!WebPAnimDecoderGetNext(animation, &frame, &timestamp) || frame == NULL) {
            WebPAnimDecoderDelete(animation);
            return tv_image_fail(d, err, TV_ERR_CORRUPT, "the first frame of the animation cannot be decoded");
        }
        memcpy(pixels, frame, bytes);
        WebPAnimDecoderDelete(animation);
        return TV_OK;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return tv_image_fail(d, err, TV_ERR_STATE, "libwebp mismatch");
    config.output.colorspace = MODE_RGBA;
    /* A lossy image's loop filter and output (the rescaling too) run on a thread of libwebp's own beside the decoding
     * of the next macroblock row: the same rows, sooner (libvips asks for it as well). */
    config.options.use_threads = 1;
    if (s->level > 0) {
        /* libwebp decodes the rows and rescales them as they come: only the level's pixels are held. */
        config.options.use_scaling = 1;
        config.options.scaled_width = (int)width;
        config.options.scaled_height = (int)height;
    }
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels;
    config.output.u.RGBA.stride = (int)width * 4;
    config.output.u.RGBA.size = bytes;
    VP8StatusCode code = WebPDecode(s->bytes, d->length, &config);
    WebPFreeDecBuffer(&config.output);
    if (code != VP8_STATUS_OK) {
        const char *text = tv_webp_status_text(code, &status);
        return tv_image_fail(d, err, status, text);
    }
    if ((uint32_t)config.output.width != width || (uint32_t)config.output.height != height) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the image is not the size its header gives");
    }
    return TV_OK;
}

/* Makes the decode deliver level `level` (0: the image) by libwebp's scaling. */
static tv_status tv_webp_select_level(struct tv_image_decoder *d, int level, tv_error *err) {
    (void)err;
    struct tv_webp_state *s = d->state;
    s->level = (uint32_t)level;
    if (level == 0) {
        d->header.width = s->full_width;
        d->header.height = s->full_height;
    } else {
        tv_webp_level_size(d, (uint32_t)level, &d->header.width, &d->header.height);
    }
    d->header.working_bytes = tv_webp_working_bytes(d);
    return TV_OK;
}

static void tv_webp_close(struct tv_image_decoder *d) {
    struct tv_webp_state *s = d->state;
    if (s == NULL) return;
    free(s->owned);
    free(s);
    d->state = NULL;
}

const struct tv_image_ops tv_webp_ops = {
    .open = tv_webp_open, .read_rows = NULL, .decode_whole = tv_webp_decode_whole,
    .select_level = tv_webp_select_level, .level_size = tv_webp_level_size, .close = tv_webp_close};

/* ---------- encoding (IIIF's webp answers) ---------- */


tv_status tv_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int quality,
                         int keep_alpha, uint8_t **out, size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        return tv_fail(err, TV_ERR_LIMIT, "WebP images are 1 to 16383 pixels a side");
    }
    if (stride > INT32_MAX) return tv_fail(err, TV_ERR_LIMIT, "rows too long for libwebp");
    WebPConfig config;
    WebPPicture picture;
    if (!WebPConfigInit(&config) || !WebPPictureInit(&picture)) return tv_fail(err, TV_ERR_STATE, "libwebp mismatch");
    config.quality = (float)(quality < 0 ? 0 : quality > 100 ? 100 : quality);
    config.method = 2; /* libwebp's speed/size trade: 0 fastest, 6 smallest; 2 is cwebp -m 2 */
    picture.use_argb = 0;
    picture.width = (int)width;
    picture.height = (int)height;
    int imported = keep_alpha ? WebPPictureImportRGBA(&picture, rgba, (int)stride)
                              : WebPPictureImportRGBX(&picture, rgba, (int)stride);
    if (!imported) {
        WebPPictureFree(&picture);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory importing the picture");
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int ok = WebPEncode(&config, &picture);
    int code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        WebPMemoryWriterClear(&writer);
        char message[TV_MESSAGE_LEN];
        snprintf(message, sizeof message, "libwebp could not encode the picture (error %d)", code);
        return tv_fail(err, code == VP8_ENC_ERROR_OUT_OF_MEMORY ? TV_ERR_NOMEM : TV_ERR_ARG, message);
    }
    /* Handed over in memory the caller releases with tv_free (free), whatever allocator libwebp uses. */
    uint8_t *copy = malloc(writer.size > 0 ? writer.size : 1);
    if (copy == NULL) {
        WebPMemoryWriterClear(&writer);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    memcpy(copy, writer.mem, writer.size);
    *out = copy;
    *out_length = writer.size;
    WebPMemoryWriterClear(&writer);
    return TV_OK;
}
