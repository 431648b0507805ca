/* GIF through giflib: the first frame on the logical screen (widened to hold the frame, as browsers do), its
 * transparent index (the Graphic Control Extension before it) as alpha 0, interlaced rows put in place. Pixels of
 * the screen the frame does not cover are transparent. The frames are counted by walking the blocks. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

#include "shim_internal.h"

struct tv_gif_state {
    GifFileType *gif;
    uint64_t offset;        /* where giflib reads next */
    int transparent;        /* the first frame's transparent index, or -1 */
    GifImageDesc frame;     /* the first frame's descriptor */
    int read_failed;
    struct tv_input_window window; /* giflib reads a sub-block at a time */
};

static int tv_gif_read(GifFileType *gif, GifByteType *buffer, int count) {
    struct tv_image_decoder *d = gif->UserData;
    struct tv_gif_state *s = d->state;
    if (count <= 0) return 0;
    long long got = tv_input_read_through(d, &s->window, s->offset, buffer, (size_t)count);
    if (got < 0) {
        s->read_failed = 1;
        return 0;
    }
    s->offset += (uint64_t)got;
    return (int)got;
}

static tv_status tv_gif_error(struct tv_image_decoder *d, tv_error *err, int code) {
    struct tv_gif_state *s = d->state;
    const char *text = GifErrorString(code);
    if (text == NULL) text = "the data is damaged";
    tv_status status = TV_ERR_CORRUPT;
    if (s != NULL && s->read_failed) status = TV_ERR_IO;
    else if (code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON) status = TV_ERR_TRUNCATED;
    else if (code == D_GIF_ERR_NOT_ENOUGH_MEM) status = TV_ERR_NOMEM;
    else if (code == D_GIF_ERR_NOT_GIF_FILE) status = TV_ERR_CORRUPT;
    char message[TV_MESSAGE_LEN];
    snprintf(message, sizeof message, "%s", text);
    /* giflib's texts start with "Failed to" or describe the fault; lower-case the first letter for the sentence. */
    if (message[0] >= 'A' && message[0] <= 'Z') message[0] = (char)(message[0] - 'A' + 'a');
    return tv_image_fail(d, err, status, status == TV_ERR_TRUNCATED ? "the file ends before the image does" : message);
}

/* Frames in the file: image descriptors met walking the blocks from `offset`, where the first frame's LZW data
 * starts (giflib has read its descriptor, colour table and code size). Stops at the trailer, at the end of the
 * data, or at TV_MAX_FRAMES. */
static uint32_t tv_gif_count_frames(struct tv_image_decoder *d, struct tv_gif_state *s, uint64_t offset) {
    uint32_t frames = 1;
    uint8_t byte;
    /* Skips sub-blocks (a length byte, then that many bytes, until a zero length). */
#define TV_SKIP_SUBBLOCKS()                                                                                          \
    for (;;) {                                                                                                       \
        if (tv_input_read_through(d, &s->window, offset, &byte, 1) != 1) return frames;                              \
        offset += 1;                                                                                                 \
        if (byte == 0) break;                                                                                        \
        offset += byte;                                                                                              \
    }
    TV_SKIP_SUBBLOCKS();
    while (frames < TV_MAX_FRAMES) {
        if (tv_input_read_through(d, &s->window, offset, &byte, 1) != 1) return frames;
        offset += 1;
        if (byte == 0x3B) return frames; /* trailer */
        if (byte == 0x21) {              /* extension: label, then sub-blocks */
            offset += 1;
            TV_SKIP_SUBBLOCKS();
        } else if (byte == 0x2C) { /* image descriptor: 9 bytes, a local colour table, LZW data */
            uint8_t desc[9];
            if (tv_input_read_through(d, &s->window, offset, desc, 9) != 9) return frames;
            offset += 9;
            frames++;
            if (desc[8] & 0x80) offset += 3u * (1u << ((desc[8] & 7) + 1));
            offset += 1;
            TV_SKIP_SUBBLOCKS();
        } else {
            return frames;
        }
    }
#undef TV_SKIP_SUBBLOCKS
    return frames;
}

static tv_status tv_gif_open(struct tv_image_decoder *d, tv_error *err) {
    struct tv_gif_state *s = calloc(1, sizeof *s);
    if (s == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    d->state = s;
    s->transparent = -1;
    int code = 0;
    s->gif = DGifOpen(d, tv_gif_read, &code);
    if (s->gif == NULL) return tv_gif_error(d, err, code);
    GifFileType *gif = s->gif;
    /* Records up to the first image descriptor; the Graphic Control Extension before it gives transparency. */
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return tv_gif_error(d, err, gif->Error);
        if (type == TERMINATE_RECORD_TYPE) return tv_image_fail(d, err, TV_ERR_CORRUPT, "the file has no image");
        if (type == EXTENSION_RECORD_TYPE) {
            int label = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(gif, &label, &block) == GIF_ERROR) return tv_gif_error(d, err, gif->Error);
            if (label == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4) {
                s->transparent = (block[1] & 1) ? block[4] : -1;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return tv_gif_error(d, err, gif->Error);
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageDesc(gif) == GIF_ERROR) return tv_gif_error(d, err, gif->Error);
            s->frame = gif->Image;
            break;
        }
    }
    if (s->frame.Width <= 0 || s->frame.Height <= 0) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the first frame is empty");
    }
    if (s->frame.ColorMap == NULL && gif->SColorMap == NULL) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the first frame has no colour table");
    }
    uint32_t width = (uint32_t)gif->SWidth, height = (uint32_t)gif->SHeight;
    uint32_t right = (uint32_t)(s->frame.Left + s->frame.Width), bottom = (uint32_t)(s->frame.Top + s->frame.Height);
    if (right > width) width = right;
    if (bottom > height) height = bottom;
    tv_image_header *h = &d->header;
    h->width = width;
    h->height = height;
    ColorMapObject *map = s->frame.ColorMap != NULL ? s->frame.ColorMap : gif->SColorMap;
    h->bit_depth = map->BitsPerPixel; /* of the palette index */
    h->samples = 1;
    h->has_alpha = s->transparent >= 0 || width > (uint32_t)s->frame.Width || height > (uint32_t)s->frame.Height;
    h->color = TV_IMAGE_COLOR_PALETTE;
    h->frames = tv_gif_count_frames(d, s, s->offset);
    h->animated = h->frames > 1;
    snprintf(h->compression, sizeof h->compression, "LZW");
    h->working_bytes = (size_t)width * height * 4 + (size_t)s->frame.Width;
    return TV_OK;
}

static tv_status tv_gif_decode_whole(struct tv_image_decoder *d, uint8_t *pixels, tv_error *err) {
    struct tv_gif_state *s = d->state;
    GifFileType *gif = s->gif;
    ColorMapObject *map = s->frame.ColorMap != NULL ? s->frame.ColorMap : gif->SColorMap;
    uint32_t width = d->header.width;
    int frame_width = s->frame.Width, frame_height = s->frame.Height;
    GifPixelType *line = malloc((size_t)frame_width);
    if (line == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    /* Interlaced rows come in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
    static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
    int passes = s->frame.Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
        int start = s->frame.Interlace ? starts[pass] : 0, step = s->frame.Interlace ? steps[pass] : 1;
        for (int y = start; y < frame_height; y += step) {
            if (DGifGetLine(gif, line, frame_width) == GIF_ERROR) {
                free(line);
                return tv_gif_error(d, err, gif->Error);
            }
            uint8_t *out = pixels + ((size_t)(s->frame.Top + y) * width + (size_t)s->frame.Left) * 4;
            for (int x = 0; x < frame_width; x++, out += 4) {
                int index = line[x];
                /* The transparent index is transparent black (as libnsgif gives it); an index past the table is
                 * opaque black. */
                if (index == s->transparent) {
                    out[0] = out[1] = out[2] = out[3] = 0;
                    continue;
                }
                if (index < map->ColorCount) {
                    out[0] = map->Colors[index].Red;
                    out[1] = map->Colors[index].Green;
                    out[2] = map->Colors[index].Blue;
                } else {
                    out[0] = out[1] = out[2] = 0;
                }
                out[3] = 255;
            }
        }
    }
    free(line);
    return TV_OK;
}

static void tv_gif_close(struct tv_image_decoder *d) {
    struct tv_gif_state *s = d->state;
    if (s == NULL) return;
    if (s->gif != NULL) {
        int code = 0;
        DGifCloseFile(s->gif, &code);
    }
    free(s);
    d->state = NULL;
}

const struct tv_image_ops tv_gif_ops = {
    .open = tv_gif_open, .read_rows = NULL, .decode_whole = tv_gif_decode_whole, .close = tv_gif_close};
