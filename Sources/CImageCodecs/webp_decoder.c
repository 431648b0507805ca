/* WebP through libwebp (decoding, and the encoder of the server's webp answers): the file is read into memory (libwebp decodes from a buffer), its chunks (ICCP, EXIF,
 * ANIM) read with the demuxer, and the image decoded whole as RGBA8 at the first row; an animated file gives its
 * first frame, composed on the canvas by WebPAnimDecoder. */

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

/* libwebp's demuxer keeps a record of every frame (about 90 bytes each, beside the file): an animation of
 * 1,500,000 one-pixel frames (66 MB) held 150 MB more to open, on every request. An animation of more frames than
 * TV_MAX_FRAMES (an hour at 30 frames a second; GIF's and TIFF's counts stop there) is refused before it is
 * demuxed. */

/* The ANMF chunks at the RIFF's top level, counted up to one past TV_MAX_FRAMES (a chunk running past the
 * end is left for libwebp to name). */
static uint32_t tv_webp_count_frames(const uint8_t *bytes, size_t length) {
    uint32_t frames = 0;
    for (size_t at = 12; at + 8 <= length && frames <= TV_MAX_FRAMES;) {
        size_t size = (size_t)bytes[at + 4] | (size_t)bytes[at + 5] << 8 | (size_t)bytes[at + 6] << 16 |
                      (size_t)bytes[at + 7] << 24;
        if (memcmp(bytes + at, "ANMF", 4) == 0) frames++;
        if (size > length - at - 8) break;
        at += 8 + size + (size & 1);
    }
    return frames;
}

static tv_status tv_webp_open(struct tv_image_decoder *d, tv_error *err) {
    struct tv_webp_state *s = calloc(1, sizeof *s);
    if (s == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    d->state = s;
    tv_status status = tv_input_all(d, TV_WEBP_MAX_FILE, &s->bytes, &s->owned, err);
    if (status != TV_OK) return status;

    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(s->bytes, d->length, &features);
    if (code != VP8_STATUS_OK) {
        const char *text = tv_webp_status_text(code, &status);
        return tv_image_fail(d, err, status, text);
    }
    if (features.has_animation && tv_webp_count_frames(s->bytes, d->length) > TV_MAX_FRAMES) {
        return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, "an animation of more than 100000 frames");
    }
    WebPData data = {s->bytes, d->length};
    WebPDemuxState demux_state;
    WebPDemuxer *demux = WebPDemuxPartial(&data, &demux_state);
    if (demux == NULL || demux_state == WEBP_DEMUX_PARSE_ERROR) {
        WebPDemuxDelete(demux);
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the RIFF container is damaged");
    }
    if (demux_state != WEBP_DEMUX_DONE) {
        WebPDemuxDelete(demux);
        return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the file ends before its last chunk");
    }
    uint32_t flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS);
    uint32_t width = WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
    uint32_t height = WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
    uint32_t frames = WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
    WebPChunkIterator chunk;
    if ((flags & ICCP_FLAG) && WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
        tv_image_keep_icc(d, chunk.chunk.bytes, chunk.chunk.size);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    if ((flags & EXIF_FLAG) && WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
        tv_image_keep_exif(d, chunk.chunk.bytes, chunk.chunk.size);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);

    tv_image_header *h = &d->header;
    h->width = width;
    h->height = height;
    s->full_width = width;
    s->full_height = height;
    /* Scaled decodes (not of an animation): a level per halving while both sides stay at least 1. */
    if (!features.has_animation) {
        while (h->levels < 24 && (width >> (h->levels + 1)) >= 1 && (height >> (h->levels + 1)) >= 1) h->levels++;
    }
    h->bit_depth = 8;
    h->samples = features.has_alpha ? 4 : 3;
    h->has_alpha = features.has_alpha || (flags & ALPHA_FLAG) != 0;
    h->color = TV_IMAGE_COLOR_RGB;
    h->frames = frames > 0 ? frames : 1;
    h->animated = features.has_animation;
    h->lossless = features.format == 2;
    snprintf(h->compression, sizeof h->compression, "%s",
             features.has_animation ? "animation" : (features.format == 2 ? "VP8L" : "VP8"));
    h->working_bytes = (size_t)width * height * 4 + (s->owned != NULL ? d->length : 0);
    /* The animation decoder composes on a canvas of its own and keeps the previous one. */
    if (features.has_animation) h->working_bytes += (size_t)width * height * 8;
    return TV_OK;
}

static tv_status tv_webp_decode_whole(struct tv_image_decoder *d, uint8_t *pixels, tv_error *err) {
    struct tv_webp_state *s = d->state;
    uint32_t width = d->header.width, height = d->header.height;
    size_t bytes = (size_t)width * height * 4;
    tv_status status;
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
    d->header.working_bytes = (size_t)d->header.width * d->header.height * 4 + (s->owned != NULL ? d->length : 0);
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
