/* TIFF through libtiff, read through client procedures over the input (pread; no memory map), with libtiff's
 * errors and warnings kept per handle and its largest single allocation bounded.
 *
 * The first page is shown. Its rows are streamed for the common layouts (samples interleaved; gray or palette of
 * 1, 2, 4, 8 or 16 bits, RGB or CMYK of 8 or 16 bits, with or without alpha; JPEG-compressed YCbCr delivered as RGB
 * by libtiff): one strip, or one row of tiles, is held at a time. Anything else libtiff's RGBA interface reads
 * (separate planes, YCbCr without JPEG, CIE Lab, ...) is decoded whole through it. */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

#include "shim_internal.h"

/* libtiff's largest single allocation (a strip's or tile's buffers). */
#define TV_TIFF_MAX_ALLOCATION ((tmsize_t)1 << 30)

/* The most reduced copies of a pyramid taken (a 2^24-pixel side halved down to one tile is fewer). */
#define TV_TIFF_MAX_LEVELS 24

/* A reduced copy of the first page: a later page (`directory`), or a SubIFD at file offset `subifd`; its IFD lies at
 * `offset` either way. */
struct tv_tiff_level {
    uint32_t width, height;
    tdir_t directory;
    uint64_t subifd;
    uint64_t offset;
};

/* How a TIFF's IFDs are laid out, from its header: byte order and classic or BigTIFF. */
struct tv_tiff_chain {
    int big_endian, count_size, entry_size, link_size;
    uint64_t first; /* the first IFD's offset (0: none) */
};

/* The most strips or tiles a page may have: libtiff holds two 8-byte entries each for the page it reads (so at most
 * 64 MiB), read before anything here could plan for them. 16x16 tiles over a billion pixels are about 3.9 million. */
#define TV_TIFF_MAX_STRILES ((uint64_t)1 << 22)

struct tv_tiff_state {
    struct tv_image_decoder *decoder;
    TIFF *tif;
    uint64_t position;
    char message[TV_MESSAGE_LEN]; /* libtiff's first error */
    int has_message;
    int streaming;                /* rows read from strips or tiles; else the RGBA interface, whole */
    uint16_t bps, spp, photometric, compression;
    int alpha_sample;             /* the sample holding alpha, or -1 */
    int associated_alpha;         /* alpha premultiplied into the colour samples */
    int color_samples;            /* 1 gray/palette, 3 RGB, 4 CMYK */
    uint16_t *map[3];             /* palette: libtiff's colour map (16-bit entries, or 8-bit ones held in 16) */
    int map_is_8bit;
    size_t pixel_bytes;           /* bytes of a stored pixel (bps >= 8) */
    tmsize_t row_bytes;           /* bytes of a stored row */
    uint8_t *buffer;              /* a decoded strip, or a row of tiles (one tile after another) */
    tmsize_t unit_bytes;          /* of a strip or of a tile */
    uint32_t buffer_first, buffer_rows; /* rows the buffer holds */
    uint8_t *row;                 /* a stored row assembled from tiles */
    uint32_t first_tile, tiles;   /* the tile columns read (tv_image_crop_columns), or all */
    struct tv_tiff_level levels[TV_TIFF_MAX_LEVELS]; /* the first page's reduced copies, largest first */
    int level_count;
    uint64_t first_offset;        /* the first page's IFD */
    struct tv_tiff_chain chain;   /* how the file's IFDs are read here, before libtiff reads them */
    uint64_t table_at;            /* where the entries of the IFD whose count libtiff read last begin (0: none) */
    uint64_t table_entries;       /* that count */
};

static int tv_tiff_on_error(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    (void)module;
    struct tv_tiff_state *s = user;
    if (!s->has_message) {
        vsnprintf(s->message, sizeof s->message, format, args);
        s->has_message = 1;
    }
    return 1;
}

static int tv_tiff_on_warning(TIFF *tif, void *user, const char *module, const char *format, va_list args) {
    (void)tif;
    (void)module;
    struct tv_tiff_state *s = user;
    char text[TV_MESSAGE_LEN];
    vsnprintf(text, sizeof text, format, args);
    tv_warning_log_add(&s->decoder->warnings, text);
    return 1;
}

/* The most bytes of one tag's values libtiff is let read, but for the strip and tile arrays (bounded by
 * TV_TIFF_MAX_STRILES), SubIFD offsets and an ICC profile (TV_ICC_MAX_BYTES, as in every format); the tags read here
 * or by libtiff's RGBA interface (colour maps, transfer functions, JPEG tables, YCbCr fields) stay well below it. */
#define TV_TIFF_MAX_TAG_BYTES ((uint64_t)1 << 20)

/* Bytes a value of TIFF field type `type` takes (1 for types libtiff does not know). */
static uint64_t tv_tiff_type_size(unsigned type) {
    switch (type) {
    case 3: case 8: return 2;                   /* SHORT, SSHORT */
    case 4: case 9: case 11: case 13: return 4; /* LONG, SLONG, FLOAT, IFD */
    case 5: case 10: case 12: return 8;         /* RATIONAL, SRATIONAL, DOUBLE */
    case 16: case 17: case 18: return 8;        /* LONG8, SLONG8, IFD8 */
    default: return 1;
    }
}

/* libtiff reads every tag of a directory into memory, and copies it once more (a 100 MB Photoshop layer tag held
 * 213 MB to open, on every open of the file). In a directory's entries as libtiff reads them, each tag whose values
 * are more than TV_TIFF_MAX_TAG_BYTES (an ICC profile: TV_ICC_MAX_BYTES) is shown with no values, so libtiff reads
 * none; a profile left out says so in a warning, as in every format. */
static void tv_tiff_drop_large_tags(struct tv_tiff_state *s, uint8_t *entries, uint64_t count) {
    const struct tv_tiff_chain *c = &s->chain;
    int big_tiff = c->entry_size == 20;
    for (uint64_t i = 0; i < count; i++) {
        uint8_t *entry = entries + i * (uint64_t)c->entry_size;
        unsigned tag = (unsigned)tv_uint(entry, 2, c->big_endian);
        uint64_t values = tv_uint(entry + 4, big_tiff ? 8 : 4, c->big_endian);
        uint64_t size = tv_tiff_type_size((unsigned)tv_uint(entry + 2, 2, c->big_endian));
        if (tag == 273 || tag == 279 || tag == 324 || tag == 325 || tag == 330) continue;
        uint64_t limit = tag == 34675 ? TV_ICC_MAX_BYTES : TV_TIFF_MAX_TAG_BYTES;
        if (values <= limit / size) continue;
        memset(entry + 4, 0, big_tiff ? 8 : 4);
        if (tag == 34675) tv_image_icc_too_large(s->decoder);
    }
}

static tmsize_t tv_tiff_read(thandle_t handle, void *buffer, tmsize_t size) {
    struct tv_tiff_state *s = (struct tv_tiff_state *)handle;
    if (size <= 0) return 0;
    uint64_t at = s->position;
    long long got = tv_input_read(s->decoder, at, buffer, (size_t)size);
    if (got < 0) return -1;
    s->position += (uint64_t)got;
    /* libtiff reads a directory as its entry count, then its entries at once, just after. */
    const struct tv_tiff_chain *c = &s->chain;
    if (c->first != 0) {
        if (got == c->count_size) {
            s->table_at = at + (uint64_t)c->count_size;
            s->table_entries = tv_uint(buffer, c->count_size, c->big_endian);
        } else {
            if (s->table_at != 0 && at == s->table_at && (uint64_t)got == s->table_entries * (uint64_t)c->entry_size) {
                tv_tiff_drop_large_tags(s, buffer, s->table_entries);
            }
            s->table_at = 0;
        }
    }
    return (tmsize_t)got;
}

static tmsize_t tv_tiff_write(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return -1;
}

static toff_t tv_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    struct tv_tiff_state *s = (struct tv_tiff_state *)handle;
    uint64_t base = whence == SEEK_CUR ? s->position : whence == SEEK_END ? s->decoder->length : 0;
    s->position = base + offset;
    return (toff_t)s->position;
}

static int tv_tiff_close_proc(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t tv_tiff_size(thandle_t handle) {
    struct tv_tiff_state *s = (struct tv_tiff_state *)handle;
    return (toff_t)s->decoder->length;
}

static int tv_tiff_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void tv_tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

/* libtiff's error, or `fallback`, as the decoder's error. */
static tv_status tv_tiff_error(struct tv_image_decoder *d, tv_error *err, tv_status status, const char *fallback) {
    struct tv_tiff_state *s = d->state;
    const char *text = s != NULL && s->has_message ? s->message : fallback;
    if (status == TV_ERR_CORRUPT && (strstr(text, "end of file") != NULL || strstr(text, "Read error") != NULL ||
                                     strstr(text, "Cannot read") != NULL || strstr(text, "past end") != NULL)) {
        status = TV_ERR_TRUNCATED;
    }
    if (strstr(text, "Maximum single memory allocation") != NULL || strstr(text, "exceeds limit") != NULL) {
        status = TV_ERR_LIMIT;
    }
    return tv_image_fail(d, err, status, text);
}

static const char *tv_tiff_compression_name(uint16_t compression) {
    switch (compression) {
    case COMPRESSION_NONE: return "none";
    case COMPRESSION_LZW: return "LZW";
    case COMPRESSION_ADOBE_DEFLATE:
    case COMPRESSION_DEFLATE: return "deflate";
    case COMPRESSION_PACKBITS: return "PackBits";
    case COMPRESSION_JPEG: return "JPEG";
    case COMPRESSION_OJPEG: return "old JPEG";
    case COMPRESSION_CCITTRLE:
    case COMPRESSION_CCITTFAX3:
    case COMPRESSION_CCITTFAX4: return "CCITT";
    case COMPRESSION_LZMA: return "LZMA";
    case COMPRESSION_ZSTD: return "ZSTD";
    case COMPRESSION_WEBP: return "WebP";
    default: return "other";
    }
}

/* Reads the layout of the current directory (the first page, or a reduced copy of it) into the state and the
 * header: size, samples, colour, strips or tiles, and whether its rows stream. */
static tv_status tv_tiff_layout(struct tv_image_decoder *d, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    TIFF *tif = s->tif;
    uint32_t width = 0, height = 0;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height) ||
        width == 0 || height == 0) {
        return tv_tiff_error(d, err, TV_ERR_CORRUPT, "the page has no size");
    }
    uint16_t bps = 1, spp = 1, planar = PLANARCONFIG_CONTIG, photometric = 0, compression = COMPRESSION_NONE;
    uint16_t sample_format = SAMPLEFORMAT_UINT, inkset = INKSET_CMYK;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sample_format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &inkset);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) {
        photometric = spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
        tv_warning_log_add(&d->warnings, "a page has no PhotometricInterpretation; taken from its samples");
    }
    uint16_t extra_count = 0;
    uint16_t *extra_types = NULL;
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types);

    s->bps = bps;
    s->spp = spp;
    s->photometric = photometric;
    s->compression = compression;
    tv_image_header *h = &d->header;
    h->width = width;
    h->height = height;
    h->bit_depth = bps;
    h->samples = spp;
    h->tiled = TIFFIsTiled(tif);
    if (h->tiled) {
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &h->tile_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &h->tile_height);
        h->rows_per_strip = 0;
    } else {
        h->tile_width = h->tile_height = 0;
        uint32_t rps = height;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rps);
        h->rows_per_strip = rps == 0 || rps > height ? height : rps;
    }
    snprintf(h->compression, sizeof h->compression, "%s", tv_tiff_compression_name(compression));

    switch (photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE: s->color_samples = 1; h->color = TV_IMAGE_COLOR_GRAY; break;
    case PHOTOMETRIC_PALETTE: s->color_samples = 1; h->color = TV_IMAGE_COLOR_PALETTE; break;
    case PHOTOMETRIC_RGB: s->color_samples = 3; h->color = TV_IMAGE_COLOR_RGB; break;
    case PHOTOMETRIC_YCBCR: s->color_samples = 3; h->color = TV_IMAGE_COLOR_YCBCR; break;
    case PHOTOMETRIC_SEPARATED:
        s->color_samples = 4;
        h->color = inkset == INKSET_CMYK ? TV_IMAGE_COLOR_CMYK : TV_IMAGE_COLOR_OTHER;
        break;
    default: s->color_samples = 3; h->color = TV_IMAGE_COLOR_OTHER; break;
    }
    s->alpha_sample = -1;
    s->associated_alpha = 0;
    if (spp > s->color_samples) {
        /* The first extra sample is alpha when it says so, or when it is not said (as most readers take it). */
        int type = extra_count > 0 && extra_types != NULL ? extra_types[0] : EXTRASAMPLE_UNSPECIFIED;
        s->alpha_sample = s->color_samples;
        s->associated_alpha = type == EXTRASAMPLE_ASSOCALPHA;
    }
    h->has_alpha = s->alpha_sample >= 0;

    /* JPEG-compressed YCbCr: libtiff's JPEG codec converts to RGB, so the rows read are RGB. */
    int ycbcr_jpeg = photometric == PHOTOMETRIC_YCBCR && compression == COMPRESSION_JPEG;
    if (ycbcr_jpeg) TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    int rgb_like = photometric == PHOTOMETRIC_RGB || ycbcr_jpeg;
    int cmyk = photometric == PHOTOMETRIC_SEPARATED && inkset == INKSET_CMYK && spp >= 4;
    int gray_or_palette = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE ||
                          photometric == PHOTOMETRIC_PALETTE;
    int depth_ok = (bps == 8 || bps == 16) || (gray_or_palette && spp == 1 && (bps == 1 || bps == 2 || bps == 4));
    /* Every sample a pixel's conversion reads must be in the row: an RGB page of one sample (a file that leaves
     * SamplesPerPixel out) is not read as RGB here (libtiff's RGBA interface refuses it). */
    s->streaming = spp >= 1 && spp >= s->color_samples && sample_format == SAMPLEFORMAT_UINT &&
                   (planar == PLANARCONFIG_CONTIG || spp == 1) && depth_ok &&
                   (rgb_like || cmyk || gray_or_palette) && !(h->tiled && bps < 8) &&
                   !(photometric == PHOTOMETRIC_PALETTE && bps == 16);
    if (photometric == PHOTOMETRIC_PALETTE) {
        if (!TIFFGetField(tif, TIFFTAG_COLORMAP, &s->map[0], &s->map[1], &s->map[2])) {
            return tv_tiff_error(d, err, TV_ERR_CORRUPT, "a palette image without a colour map");
        }
        /* Some writers store 8-bit values in the 16-bit map (as libtiff's RGBA reader checks too). */
        s->map_is_8bit = 1;
        for (uint32_t i = 0; i < (1u << bps) && s->map_is_8bit; i++) {
            if (s->map[0][i] >= 256 || s->map[1][i] >= 256 || s->map[2][i] >= 256) s->map_is_8bit = 0;
        }
    }
    if (s->streaming) {
        s->row_bytes = TIFFScanlineSize(tif);
        s->pixel_bytes = bps >= 8 ? (size_t)spp * (bps / 8) : 0;
        if (s->row_bytes <= 0) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "the rows have no size");
        if (h->tiled) {
            if (h->tile_width == 0 || h->tile_height == 0) {
                return tv_tiff_error(d, err, TV_ERR_CORRUPT, "tiles without a size");
            }
            s->unit_bytes = TIFFTileSize(tif);
            uint64_t across = (width + h->tile_width - 1) / h->tile_width;
            s->first_tile = 0;
            s->tiles = (uint32_t)across;
            h->working_bytes = (size_t)(across * (uint64_t)s->unit_bytes * 2 + (uint64_t)s->row_bytes);
        } else {
            s->unit_bytes = TIFFStripSize(tif);
            h->working_bytes = (size_t)s->unit_bytes * 2;
        }
        if (s->unit_bytes <= 0) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "strips or tiles have no size");
        h->streams_rows = 1;
    } else {
        char message[1024] = "";
        if (!TIFFRGBAImageOK(tif, message)) {
            char text[TV_MESSAGE_LEN];
            snprintf(text, sizeof text, "unsupported: %s", message[0] ? message : "a layout libtiff cannot read");
            return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, text);
        }
        h->working_bytes = (size_t)width * height * 4;
        h->streams_rows = 0;
        /* The RGBA interface delivers RGB (CMYK converted naively): a profile then applies as to RGB. */
        if (h->color != TV_IMAGE_COLOR_GRAY) h->color = TV_IMAGE_COLOR_OTHER;
    }
    return TV_OK;
}

/* Reads `count` bytes at `offset` through `window`, or straight from the input without one. */
static long long tv_tiff_read_at(struct tv_image_decoder *d, struct tv_input_window *window, uint64_t offset,
                                 void *buffer, size_t count) {
    return window != NULL ? tv_input_read_through(d, window, offset, buffer, count)
                          : tv_input_read(d, offset, buffer, count);
}

/* The IFD the one at `offset` links to, in `*next` (0: none); 0 when the IFD cannot be read. Reads through
 * `window` (a walk over many IFDs), or two small reads without one. */
static int tv_tiff_next_ifd(struct tv_image_decoder *d, const struct tv_tiff_chain *c,
                            struct tv_input_window *window, uint64_t offset, uint64_t *next) {
    uint8_t field[8];
    if (tv_tiff_read_at(d, window, offset, field, (size_t)c->count_size) != c->count_size) return 0;
    uint64_t entries = tv_uint(field, c->count_size, c->big_endian);
    if (entries > d->length / (uint64_t)c->entry_size) return 0;
    uint64_t link = offset + (uint64_t)c->count_size + entries * (uint64_t)c->entry_size;
    if (tv_tiff_read_at(d, window, link, field, (size_t)c->link_size) != c->link_size) return 0;
    *next = tv_uint(field, c->link_size, c->big_endian);
    return 1;
}

/* Pages in the file: the IFDs of the chain from the header's first one, two small reads an IFD as libtiff makes
 * them, past the 64th through one window; nothing kept per page. Stops at a zero or unreadable link or at
 * TV_MAX_FRAMES; a chain that comes back to an IFD it met counts each of its IFDs once (Brent's cycle finding gives
 * the loop's length, a second walk the pages before it). At least 1: libtiff has read the first page. libtiff's own
 * count (TIFFNumberOfDirectories) keeps every offset it meets: a 6 MB file of a million empty IFDs (six bytes each)
 * held 130 MB and took 1.4 s to open. */
static uint32_t tv_tiff_count_pages(struct tv_image_decoder *d, const struct tv_tiff_chain *c) {
    struct tv_input_window *window = NULL; /* from the 64th IFD on: a long chain is read a window at a time */
    uint32_t pages = 0;
    /* Brent: `saved` is an IFD met, `steps` links behind the walk, moved up to it at each power of two; coming to
     * it again closes a loop of `steps` IFDs. */
    uint64_t offset = c->first, saved = c->first, next = 0;
    uint32_t power = 1, steps = 0;
    int looped = 0;
    while (offset != 0 && pages < TV_MAX_FRAMES && tv_tiff_next_ifd(d, c, window, offset, &next)) {
        pages++;
        if (pages == 64 && (window = malloc(sizeof *window)) != NULL) window->length = 0;
        offset = next;
        steps++;
        if (offset == saved) {
            looped = 1;
            break;
        }
        if (steps == power) {
            saved = offset;
            power *= 2;
            steps = 0;
        }
    }
    if (looped) {
        /* The loop has `steps` IFDs; the pages before it are those until a walker `steps` ahead meets one from the
         * start. */
        uint64_t behind = c->first, ahead = c->first;
        for (uint32_t i = 0; i < steps; i++) tv_tiff_next_ifd(d, c, window, ahead, &ahead);
        uint32_t before = 0;
        while (behind != ahead && before < pages) {
            tv_tiff_next_ifd(d, c, window, behind, &behind);
            tv_tiff_next_ifd(d, c, window, ahead, &ahead);
            before++;
        }
        pages = before + steps;
    }
    free(window);
    return pages > 0 ? pages : 1;
}

/* Reads the file's header into `c`: byte order, classic or BigTIFF, the first IFD (0 when it is not a TIFF header). */
static void tv_tiff_chain_start(struct tv_image_decoder *d, struct tv_tiff_chain *c) {
    c->first = 0;
    uint8_t head[16] = {0};
    if (tv_input_read(d, 0, head, 16) < 8 || (head[0] != 'I' && head[0] != 'M')) return;
    c->big_endian = head[0] == 'M';
    int big_tiff = tv_uint(head + 2, 2, c->big_endian) == 43;
    c->count_size = big_tiff ? 8 : 2;
    c->entry_size = big_tiff ? 20 : 12;
    c->link_size = big_tiff ? 8 : 4;
    c->first = big_tiff ? tv_uint(head + 8, 8, c->big_endian) : tv_uint(head + 4, 4, c->big_endian);
}

/* The strips or tiles the IFD at `offset` has, as libtiff works them out from its size, rows per strip or tile
 * size, samples and planar configuration (the entries of one value only; up to 65536 entries looked at). 0 when
 * the IFD cannot be read (libtiff then says why). */
static uint64_t tv_tiff_ifd_striles(struct tv_image_decoder *d, const struct tv_tiff_chain *c, uint64_t offset) {
    uint8_t field[8];
    if (offset == 0 || tv_input_read(d, offset, field, (size_t)c->count_size) != c->count_size) return 0;
    uint64_t entries = tv_uint(field, c->count_size, c->big_endian);
    if (entries > 65536) entries = 65536;
    size_t bytes = (size_t)entries * (size_t)c->entry_size;
    uint8_t *block = malloc(bytes > 0 ? bytes : 1);
    if (block == NULL) return 0;
    long long got = tv_input_read(d, offset + (uint64_t)c->count_size, block, bytes);
    entries = got > 0 ? (uint64_t)got / (uint64_t)c->entry_size : 0;
    uint64_t width = 0, height = 0, rows_per_strip = 0, tile_width = 0, tile_height = 0, samples = 1, planar = 1;
    int value_at = c->entry_size == 20 ? 12 : 8;
    for (uint64_t i = 0; i < entries; i++) {
        const uint8_t *entry = block + i * (uint64_t)c->entry_size;
        unsigned tag = (unsigned)tv_uint(entry, 2, c->big_endian);
        unsigned type = (unsigned)tv_uint(entry + 2, 2, c->big_endian);
        uint64_t count = tv_uint(entry + 4, c->entry_size == 20 ? 8 : 4, c->big_endian);
        int size = type == 3 ? 2 : type == 4 ? 4 : type == 16 ? 8 : 0;
        if (count != 1 || size == 0) continue;
        uint64_t value = tv_uint(entry + value_at, size, c->big_endian);
        switch (tag) {
        case 256: width = value; break;
        case 257: height = value; break;
        case 278: rows_per_strip = value; break;
        case 277: samples = value; break;
        case 284: planar = value; break;
        case 322: tile_width = value; break;
        case 323: tile_height = value; break;
        default: break;
        }
    }
    free(block);
    uint64_t striles;
    if (tile_width > 0 && tile_height > 0) {
        striles = ((width + tile_width - 1) / tile_width) * ((height + tile_height - 1) / tile_height);
    } else {
        if (rows_per_strip == 0 || rows_per_strip > height) rows_per_strip = height;
        striles = rows_per_strip == 0 ? 0 : (height + rows_per_strip - 1) / rows_per_strip;
    }
    return planar == 2 ? striles * (samples > 0 ? samples : 1) : striles;
}

/* Whether the page at `offset` has at most TV_TIFF_MAX_STRILES strips or tiles; else the error says how many. */
static tv_status tv_tiff_striles_fit(struct tv_image_decoder *d, uint64_t offset, tv_error *err) {
    uint64_t striles = tv_tiff_ifd_striles(d, &((struct tv_tiff_state *)d->state)->chain, offset);
    if (striles <= TV_TIFF_MAX_STRILES) return TV_OK;
    char message[TV_MESSAGE_LEN];
    snprintf(message, sizeof message,
             "a page of %llu strips or tiles, over the %llu read (libtiff keeps 16 bytes for each)",
             (unsigned long long)striles, (unsigned long long)TV_TIFF_MAX_STRILES);
    return tv_image_fail(d, err, TV_ERR_LIMIT, message);
}

/* Checks that strip or tile `strile` has a place in the file: its offset and byte count read (where they are read
 * on demand, an entry past the file's end is an error rather than libtiff's 0, and a count missing or past the end
 * would have libtiff estimate counts and read from wherever the offsets say, the file's header included), a byte
 * count above zero, and its bytes inside the file. */
static tv_status tv_tiff_check_strile(struct tv_image_decoder *d, uint32_t strile, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    int offset_err = 0, count_err = 0;
    uint64_t offset = TIFFGetStrileOffsetWithErr(s->tif, strile, &offset_err);
    uint64_t count = TIFFGetStrileByteCountWithErr(s->tif, strile, &count_err);
    if (offset_err || count_err) {
        return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the place of a strip or tile lies past the end of the file");
    }
    if (count == 0) return tv_image_fail(d, err, TV_ERR_CORRUPT, "a strip or tile of no bytes");
    if (offset >= d->length || count > d->length - offset) {
        return tv_image_fail(d, err, TV_ERR_TRUNCATED, "the file ends before a strip or tile does");
    }
    return TV_OK;
}

/* The reduced copies of the first page (a pyramid): its SubIFDs, or else the pages after it marked as reduced
 * images (NewSubfileType bit 0), each smaller than the one before; the first page that is neither ends them. Leaves
 * the first page current. */
static tv_status tv_tiff_find_levels(struct tv_image_decoder *d, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    TIFF *tif = s->tif;
    uint32_t last_width = d->header.width, last_height = d->header.height;
    tv_image_color color = d->header.color;
    uint16_t count = 0;
    toff_t *offsets = NULL;
    toff_t subifds[TV_TIFF_MAX_LEVELS];
    int subifd_count = 0;
    if (TIFFGetField(tif, TIFFTAG_SUBIFD, &count, &offsets) && offsets != NULL) {
        for (int i = 0; i < count && subifd_count < TV_TIFF_MAX_LEVELS; i++) subifds[subifd_count++] = offsets[i];
    }
    int candidates = subifd_count > 0 ? subifd_count : (int)d->header.frames - 1;
    for (int i = 0; i < candidates && s->level_count < TV_TIFF_MAX_LEVELS; i++) {
        uint64_t next = 0;
        if (subifd_count > 0) {
            next = subifds[i];
        } else if (!tv_tiff_next_ifd(d, &s->chain, NULL, TIFFCurrentDirOffset(tif), &next)) {
            break;
        }
        if (tv_tiff_striles_fit(d, next, NULL) != TV_OK) break;
        int read = subifd_count > 0 ? TIFFSetSubDirectory(tif, subifds[i]) : TIFFSetDirectory(tif, (tdir_t)(i + 1));
        if (!read) break;
        uint32_t width = 0, height = 0, kind = 0;
        TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
        TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
        TIFFGetFieldDefaulted(tif, TIFFTAG_SUBFILETYPE, &kind);
        if (subifd_count == 0 && !(kind & FILETYPE_REDUCEDIMAGE)) break;
        if (width == 0 || height == 0 || width >= last_width || height >= last_height) break;
        /* Only copies whose rows stream, stored as the first page is. */
        if (tv_tiff_layout(d, NULL) != TV_OK || !d->header.streams_rows || d->header.color != color) break;
        struct tv_tiff_level *level = &s->levels[s->level_count++];
        level->width = width;
        level->height = height;
        level->directory = subifd_count > 0 ? 0 : (tdir_t)(i + 1);
        level->subifd = subifd_count > 0 ? subifds[i] : 0;
        level->offset = TIFFCurrentDirOffset(tif);
        last_width = width;
        last_height = height;
    }
    /* Back to the first page; what libtiff said while probing is not an error of the file's. */
    s->has_message = 0;
    if (!TIFFSetDirectory(tif, 0)) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "the first page cannot be read again");
    d->header.levels = (uint32_t)s->level_count;
    return tv_tiff_layout(d, err);
}

static tv_status tv_tiff_open(struct tv_image_decoder *d, tv_error *err) {
    struct tv_tiff_state *s = calloc(1, sizeof *s);
    if (s == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    d->state = s;
    s->decoder = d;
    s->alpha_sample = -1;
    tv_tiff_chain_start(d, &s->chain);
    tv_status fits = tv_tiff_striles_fit(d, d->open_directory != 0 ? d->open_directory : s->chain.first, err);
    if (fits != TV_OK) return fits;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, TV_TIFF_MAX_ALLOCATION);
    TIFFOpenOptionsSetErrorHandlerExtR(options, tv_tiff_on_error, s);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tv_tiff_on_warning, s);
    /* At a known directory: the file's header only ("h"), then that IFD, its tile offsets and byte counts read
     * for the tiles asked for only ("O"). */
    const char *mode = d->open_directory != 0 ? "rmhO" : "rm";
    s->tif = TIFFClientOpenExt("image", mode, (thandle_t)s, tv_tiff_read, tv_tiff_write, tv_tiff_seek,
                               tv_tiff_close_proc, tv_tiff_size, tv_tiff_map, tv_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (s->tif == NULL) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "the file cannot be opened");
    TIFF *tif = s->tif;
    if (d->open_directory != 0) {
        if (!TIFFSetSubDirectory(tif, d->open_directory)) {
            return tv_tiff_error(d, err, TV_ERR_CORRUPT, "the directory asked for cannot be read");
        }
        return tv_tiff_layout(d, err);
    }
    s->first_offset = TIFFCurrentDirOffset(tif);

    tv_status status = tv_tiff_layout(d, err);
    if (status != TV_OK) return status;
    uint16_t orientation = ORIENTATION_TOPLEFT;
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &orientation);
    tv_image_header *h = &d->header;
    h->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc != NULL) {
        tv_image_keep_icc(d, icc, icc_length);
    }
    h->frames = tv_tiff_count_pages(d, &s->chain);
    if (h->streams_rows) {
        status = tv_tiff_find_levels(d, err);
        if (status != TV_OK) return status;
    }
    return TV_OK;
}

/* The value of sample `index` of a row of samples of `bits` bits (1, 2, 4, 8 or 16; 16 in native order). */
static inline unsigned tv_tiff_sample(const uint8_t *row, size_t index, unsigned bits) {
    switch (bits) {
    case 8: return row[index];
    case 16: return ((const uint16_t *)(const void *)row)[index];
    default: {
        size_t bit = index * bits;
        unsigned byte = row[bit / 8];
        return (byte >> (8 - bits - bit % 8)) & ((1u << bits) - 1);
    }
    }
}

/* A sample as 8 bits. */
static inline uint8_t tv_tiff_to8(unsigned value, unsigned bits) {
    switch (bits) {
    case 8: return (uint8_t)value;
    case 16: return tv_sample16_to8((uint16_t)value);
    default: return (uint8_t)(value * 255u / ((1u << bits) - 1));
    }
}

/* One stored row to RGBA8 (or, for CMYK with a colour transform, to ink the transform reads). */
static void tv_tiff_convert_row(const struct tv_image_decoder *d, const uint8_t *in, uint8_t *out) {
    const struct tv_tiff_state *s = d->state;
    uint32_t width = d->window_width;
    unsigned bits = s->bps, spp = s->spp;
    int ink = s->color_samples == 4 && d->color != NULL;
    for (uint32_t x = 0; x < width; x++, out += 4) {
        size_t first = (size_t)x * spp;
        uint8_t a = s->alpha_sample >= 0 ? tv_tiff_to8(tv_tiff_sample(in, first + (size_t)s->alpha_sample, bits), bits)
                                         : 255;
        uint8_t r, g, b;
        switch (s->photometric) {
        case PHOTOMETRIC_PALETTE: {
            unsigned i = tv_tiff_sample(in, first, bits);
            r = s->map_is_8bit ? (uint8_t)s->map[0][i] : (uint8_t)(s->map[0][i] >> 8);
            g = s->map_is_8bit ? (uint8_t)s->map[1][i] : (uint8_t)(s->map[1][i] >> 8);
            b = s->map_is_8bit ? (uint8_t)s->map[2][i] : (uint8_t)(s->map[2][i] >> 8);
            break;
        }
        case PHOTOMETRIC_MINISBLACK:
        case PHOTOMETRIC_MINISWHITE: {
            uint8_t v = tv_tiff_to8(tv_tiff_sample(in, first, bits), bits);
            if (s->photometric == PHOTOMETRIC_MINISWHITE) v = (uint8_t)(255 - v);
            r = g = b = v;
            break;
        }
        case PHOTOMETRIC_SEPARATED: {
            uint8_t c = tv_tiff_to8(tv_tiff_sample(in, first, bits), bits);
            uint8_t m = tv_tiff_to8(tv_tiff_sample(in, first + 1, bits), bits);
            uint8_t y = tv_tiff_to8(tv_tiff_sample(in, first + 2, bits), bits);
            uint8_t k = tv_tiff_to8(tv_tiff_sample(in, first + 3, bits), bits);
            if (ink) {
                out[0] = c;
                out[1] = m;
                out[2] = y;
                out[3] = k;
                continue;
            }
            /* No profile: the naive conversion libtiff's RGBA reader makes. */
            r = (uint8_t)(((255u - c) * (255u - k) + 127u) / 255u);
            g = (uint8_t)(((255u - m) * (255u - k) + 127u) / 255u);
            b = (uint8_t)(((255u - y) * (255u - k) + 127u) / 255u);
            break;
        }
        default:
            r = tv_tiff_to8(tv_tiff_sample(in, first, bits), bits);
            g = tv_tiff_to8(tv_tiff_sample(in, first + 1, bits), bits);
            b = tv_tiff_to8(tv_tiff_sample(in, first + 2, bits), bits);
            break;
        }
        out[0] = r;
        out[1] = g;
        out[2] = b;
        out[3] = a;
        if (s->associated_alpha) tv_unpremultiply(out);
    }
}

/* Makes the buffer hold the strip, or the row of tiles, that has `row`. */
static tv_status tv_tiff_fill(struct tv_image_decoder *d, uint32_t row, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    if (s->buffer != NULL && row >= s->buffer_first && row < s->buffer_first + s->buffer_rows) return TV_OK;
    tv_image_header *h = &d->header;
    uint32_t unit_rows = h->tiled ? h->tile_height : h->rows_per_strip;
    uint32_t first = row / unit_rows * unit_rows;
    uint32_t rows = h->height - first < unit_rows ? h->height - first : unit_rows;
    uint32_t across = h->tiled ? s->tiles : 1;
    if (s->buffer == NULL) {
        s->buffer = malloc((size_t)s->unit_bytes * across);
        if (h->tiled) s->row = malloc((size_t)s->row_bytes);
        if (s->buffer == NULL || (h->tiled && s->row == NULL)) {
            return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory for a strip or a row of tiles");
        }
    }
    s->buffer_rows = 0;
    /* A codec may leave part of a damaged strip or tile unwritten without an error: those bytes are zero, whatever
     * was read before (so every way of reading the same rows gives the same pixels). */
    memset(s->buffer, 0, (size_t)s->unit_bytes * across);
    if (h->tiled) {
        for (uint32_t t = 0; t < across; t++) {
            uint32_t tile = TIFFComputeTile(s->tif, (s->first_tile + t) * h->tile_width, first, 0, 0);
            tv_status placed = tv_tiff_check_strile(d, tile, err);
            if (placed != TV_OK) return placed;
            if (TIFFReadEncodedTile(s->tif, tile, s->buffer + (size_t)t * (size_t)s->unit_bytes, s->unit_bytes) < 0) {
                return tv_tiff_error(d, err, TV_ERR_CORRUPT, "a tile cannot be decoded");
            }
        }
    } else {
        tmsize_t want = (tmsize_t)rows * s->row_bytes;
        uint32_t strip = TIFFComputeStrip(s->tif, first, 0);
        tv_status placed = tv_tiff_check_strile(d, strip, err);
        if (placed != TV_OK) return placed;
        tmsize_t got = TIFFReadEncodedStrip(s->tif, strip, s->buffer, want);
        if (got < 0) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "a strip cannot be decoded");
        if (got < want) return tv_tiff_error(d, err, TV_ERR_TRUNCATED, "a strip ends before its last row");
    }
    s->buffer_first = first;
    s->buffer_rows = rows;
    return TV_OK;
}

/* The stored row `row` (the buffer holds it). */
static const uint8_t *tv_tiff_stored_row(struct tv_image_decoder *d, uint32_t row) {
    struct tv_tiff_state *s = d->state;
    tv_image_header *h = &d->header;
    uint32_t within = row - s->buffer_first;
    if (!h->tiled) return s->buffer + (size_t)within * (size_t)s->row_bytes;
    size_t tile_row_bytes = (size_t)h->tile_width * s->pixel_bytes;
    for (uint32_t t = 0; t < s->tiles; t++) {
        uint32_t left = (s->first_tile + t) * h->tile_width;
        uint32_t columns = h->width - left < h->tile_width ? h->width - left : h->tile_width;
        memcpy(s->row + (size_t)t * tile_row_bytes,
               s->buffer + (size_t)t * (size_t)s->unit_bytes + (size_t)within * tile_row_bytes,
               (size_t)columns * s->pixel_bytes);
    }
    return s->row;
}

static tv_status tv_tiff_read_rows(struct tv_image_decoder *d, uint8_t *dst, size_t stride, uint32_t rows,
                                   uint32_t *done, tv_error *err) {
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t row = d->next_row + r;
        /* Skipped rows need no decoding: strips and tiles are read at random, the one holding a wanted row then. */
        if (dst != NULL) {
            tv_status status = tv_tiff_fill(d, row, err);
            if (status != TV_OK) return status;
            tv_tiff_convert_row(d, tv_tiff_stored_row(d, row), dst + (size_t)r * stride);
        }
        (*done)++;
    }
    return TV_OK;
}

/* A tiled file reads only the tile columns that hold [x, x + width). */
static void tv_tiff_crop_columns(struct tv_image_decoder *d, uint32_t x, uint32_t width) {
    struct tv_tiff_state *s = d->state;
    tv_image_header *h = &d->header;
    if (!h->tiled || width == 0) return;
    tv_image_tile_window(d, x, width, &s->first_tile, &s->tiles);
}

static tv_status tv_tiff_decode_whole(struct tv_image_decoder *d, uint8_t *pixels, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    uint32_t striles = TIFFIsTiled(s->tif) ? TIFFNumberOfTiles(s->tif) : TIFFNumberOfStrips(s->tif);
    for (uint32_t strile = 0; strile < striles; strile++) {
        tv_status placed = tv_tiff_check_strile(d, strile, err);
        if (placed != TV_OK) return placed;
    }
    TIFFRGBAImage image;
    char message[1024] = "";
    if (!TIFFRGBAImageBegin(&image, s->tif, 1, message)) {
        return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, message[0] ? message : "libtiff cannot read this layout");
    }
    /* Rows as stored: the orientation is the caller's to apply. */
    image.req_orientation = image.orientation;
    int ok = TIFFRGBAImageGet(&image, (uint32_t *)(void *)pixels, d->header.width, d->header.height);
    TIFFRGBAImageEnd(&image);
    if (!ok) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "the image cannot be decoded");
    /* The raster is ABGR words: R, G, B, A bytes on a little-endian machine; alpha premultiplied. */
    size_t count = (size_t)d->header.width * d->header.height;
    for (size_t i = 0; i < count; i++) {
        uint32_t word = ((uint32_t *)(void *)pixels)[i];
        uint8_t *out = pixels + i * 4;
        uint8_t r = (uint8_t)TIFFGetR(word), g = (uint8_t)TIFFGetG(word), b = (uint8_t)TIFFGetB(word);
        out[0] = r;
        out[1] = g;
        out[2] = b;
        out[3] = d->header.has_alpha ? (uint8_t)TIFFGetA(word) : 255;
        tv_unpremultiply(out);
    }
    return TV_OK;
}

static void tv_tiff_level_size(const struct tv_image_decoder *d, uint32_t level, uint32_t *width, uint32_t *height) {
    const struct tv_tiff_state *s = d->state;
    if (level < 1 || (int)level > s->level_count) return;
    *width = s->levels[level - 1].width;
    *height = s->levels[level - 1].height;
}

uint64_t tv_tiff_level_directory(const struct tv_image_decoder *d, uint32_t level) {
    const struct tv_tiff_state *s = d->state;
    if (level == 0) return s->first_offset;
    return (int)level <= s->level_count ? s->levels[level - 1].offset : 0;
}

/* Makes the rows read from now on those of `level` (0: the first page; k: its k-th reduced copy). */
static tv_status tv_tiff_select_level(struct tv_image_decoder *d, int level, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    tv_image_color color = d->header.color;
    int read = level == 0 ? TIFFSetDirectory(s->tif, 0)
               : s->levels[level - 1].directory != 0 ? TIFFSetDirectory(s->tif, s->levels[level - 1].directory)
                                                     : TIFFSetSubDirectory(s->tif, s->levels[level - 1].subifd);
    if (!read) return tv_tiff_error(d, err, TV_ERR_CORRUPT, "a reduced copy cannot be read");
    free(s->buffer);
    free(s->row);
    s->buffer = s->row = NULL;
    s->buffer_rows = 0;
    tv_status status = tv_tiff_layout(d, err);
    if (status != TV_OK) return status;
    if (!d->header.streams_rows || d->header.color != color) {
        return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, "a reduced copy is stored unlike the first page");
    }
    if (level > 0 && (d->header.width != s->levels[level - 1].width || d->header.height != s->levels[level - 1].height)) {
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "a reduced copy changed size");
    }
    return TV_OK;
}

/* Whether a JPEG stream marks its three components as RGB: an Adobe APP14 marker with transform 0, or a frame header
 * whose component ids are 'R', 'G', 'B'. Reads the segments up to the first frame header. */
static int tv_tiff_jpeg_says_rgb(const uint8_t *stream, size_t length) {
    size_t at = 2;
    while (at + 4 <= length && stream[at] == 0xFF) {
        uint8_t marker = stream[at + 1];
        size_t size = ((size_t)stream[at + 2] << 8) | stream[at + 3];
        if (size < 2 || at + 2 + size > length) return 0;
        const uint8_t *body = stream + at + 4;
        if (marker == 0xEE && size >= 14 && memcmp(body, "Adobe", 5) == 0) return body[11] == 0;
        if (marker >= 0xC0 && marker <= 0xC2) {
            /* precision, height, width, components, then 3 bytes a component starting with its id */
            return size >= 17 && body[5] == 3 && body[6] == 'R' && body[9] == 'G' && body[12] == 'B';
        }
        at += 2 + size;
    }
    return 0;
}

tv_status tv_tiff_stored_jpeg_tile(struct tv_image_decoder *d, uint32_t column, uint32_t row, uint32_t tile_size,
                                   uint8_t **out, size_t *out_length, tv_error *err) {
    struct tv_tiff_state *s = d->state;
    tv_image_header *h = &d->header;
    int stored_as_jpeg = s->compression == COMPRESSION_JPEG &&
                         (s->photometric == PHOTOMETRIC_YCBCR || s->photometric == PHOTOMETRIC_MINISBLACK ||
                          s->photometric == PHOTOMETRIC_RGB) &&
                         s->alpha_sample < 0 && h->tiled && h->tile_width == tile_size && h->tile_height == tile_size;
    if (!stored_as_jpeg || (uint64_t)column * tile_size >= h->width || (uint64_t)row * tile_size >= h->height) {
        return tv_fail(err, TV_ERR_UNSUPPORTED, "not a stored JPEG tile");
    }
    /* A tile the image's right or bottom edge cuts is its stored stream cut by its coefficients (from the tile's
     * origin, which lies on the MCU grid), as iipsrv sends the stored bytes of a whole one. */
    uint32_t cut_width = h->width - column * tile_size, cut_height = h->height - row * tile_size;
    if (cut_width > tile_size) cut_width = tile_size;
    if (cut_height > tile_size) cut_height = tile_size;
    uint32_t count = 0;
    const uint8_t *tables = NULL;
    if (!TIFFGetField(s->tif, TIFFTAG_JPEGTABLES, &count, &tables)) {
        tables = NULL;
        count = 0;
    }
    /* The tables are a JPEG stream of their own: SOI, tables, EOI; the tile's stream starts with SOI. */
    size_t tables_length = 0;
    if (tables != NULL && count >= 4) {
        if (tables[0] != 0xFF || tables[1] != 0xD8 || tables[count - 2] != 0xFF || tables[count - 1] != 0xD9) {
            return tv_fail(err, TV_ERR_UNSUPPORTED, "JPEG tables not stored as a stream");
        }
        tables_length = count - 2;
    }
    uint32_t tile = TIFFComputeTile(s->tif, column * tile_size, row * tile_size, 0, 0);
    tv_status placed = tv_tiff_check_strile(d, tile, err);
    if (placed != TV_OK) return placed;
    uint64_t raw = TIFFGetStrileByteCount(s->tif, tile);
    if (raw < 4 || raw > (64u << 20)) return tv_fail(err, TV_ERR_UNSUPPORTED, "a stored tile of no usable size");
    uint8_t *data = malloc((size_t)raw + tables_length);
    if (data == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    if (tables_length > 0) memcpy(data, tables, tables_length);
    uint8_t *tile_data = data + tables_length;
    tmsize_t got = TIFFReadRawTile(s->tif, tile, tile_data, (tmsize_t)raw);
    if (got < 4 || tile_data[0] != 0xFF || tile_data[1] != 0xD8) {
        free(data);
        return tv_tiff_error(d, err, TV_ERR_CORRUPT, "a stored tile is not a JPEG stream");
    }
    /* RGB tiles (libvips at Q 90 and above): a decoder takes three components for YCbCr unless the stream says RGB,
     * by an Adobe APP14 marker or by the component ids 'R', 'G', 'B' (libjpeg's rule, which libtiff's JPEG codec
     * writes). A stream that says neither is not passed through. */
    if (s->photometric == PHOTOMETRIC_RGB && !tv_tiff_jpeg_says_rgb(tile_data, (size_t)got)) {
        free(data);
        return tv_fail(err, TV_ERR_UNSUPPORTED, "RGB JPEG tiles that do not say RGB");
    }
    size_t length;
    if (tables_length > 0) {
        /* SOI, the tables, then the tile's stream after its own SOI. */
        memmove(tile_data, tile_data + 2, (size_t)got - 2);
        length = tables_length + (size_t)got - 2;
    } else {
        length = (size_t)got;
    }
    if (cut_width < tile_size || cut_height < tile_size) {
        tv_status cut = tv_jpeg_cut(data, length, cut_width, cut_height, tile_size, out, out_length, err);
        free(data);
        return cut;
    }
    *out = data;
    *out_length = length;
    return TV_OK;
}

static void tv_tiff_close(struct tv_image_decoder *d) {
    struct tv_tiff_state *s = d->state;
    if (s == NULL) return;
    if (s->tif != NULL) TIFFClose(s->tif);
    free(s->buffer);
    free(s->row);
    free(s);
    d->state = NULL;
}

const struct tv_image_ops tv_tiff_ops = {
    .open = tv_tiff_open, .read_rows = tv_tiff_read_rows, .decode_whole = tv_tiff_decode_whole,
    .crop_columns = tv_tiff_crop_columns, .select_level = tv_tiff_select_level, .level_size = tv_tiff_level_size,
    .close = tv_tiff_close};
