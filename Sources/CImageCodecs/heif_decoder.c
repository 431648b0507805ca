/* HEIF (HEIC) and AVIF through libheif: the primary image, its transformations (irot, imir, clap) applied by
 * libheif, alpha, the ICC profile (prof/rICC) or the nclx colour box, the Exif item. The file is read through a
 * reader over the input (pread), not into memory.
 *
 * A grid (phones store 512 px tiles) is decoded a row of tiles at a time, each tile handed to libheif as a file of
 * its own (heif_grid.c), its irot and imir left to the caller as an orientation: a 48 MP photo then holds one row of
 * tiles, 17 MB, where libheif 1.15's whole decode held about 400 MB. Any other image, and a grid of another layout
 * (alpha, a clean aperture), is decoded whole at the first row into libheif's own RGBA image, whose rows are then
 * the decoder's. */

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#include "shim_internal.h"

/* libheif is opened at the first HEIF or AVIF file, not linked: loading it runs libde265's initialiser (de265_init
 * builds its tables: 24.7 M instructions, two thirds of all that `tileview --version` ran), and loads the HEVC and
 * AV1 codecs with it, in every process, whether or not it ever opens such a file. Its header gives the types; the
 * functions are looked up once, by name, in the library Debian's libheif1 installs. */
#define TV_HEIF_FUNCTIONS(X)                                                                                           \
    X(heif_context_alloc)                                                                                              \
    X(heif_context_free)                                                                                               \
    X(heif_context_read_from_memory_without_copy)                                                                      \
    X(heif_context_read_from_reader)                                                                                   \
    X(heif_context_get_primary_image_handle)                                                                           \
    X(heif_context_get_number_of_top_level_images)                                                                     \
    X(heif_image_handle_get_width)                                                                                     \
    X(heif_image_handle_get_height)                                                                                    \
    X(heif_image_handle_get_luma_bits_per_pixel)                                                                       \
    X(heif_image_handle_has_alpha_channel)                                                                             \
    X(heif_image_handle_is_premultiplied_alpha)                                                                        \
    X(heif_image_handle_get_raw_color_profile_size)                                                                    \
    X(heif_image_handle_get_raw_color_profile)                                                                         \
    X(heif_image_handle_get_nclx_color_profile)                                                                        \
    X(heif_image_handle_get_list_of_metadata_block_IDs)                                                                \
    X(heif_image_handle_get_metadata_size)                                                                             \
    X(heif_image_handle_get_metadata)                                                                                  \
    X(heif_image_handle_release)                                                                                       \
    X(heif_nclx_color_profile_free)                                                                                    \
    X(heif_read_main_brand)                                                                                            \
    X(heif_fourcc_to_brand)                                                                                            \
    X(heif_have_decoder_for_format)                                                                                    \
    X(heif_decoding_options_alloc)                                                                                     \
    X(heif_decoding_options_free)                                                                                      \
    X(heif_decode_image)                                                                                               \
    X(heif_image_get_plane)                                                                                            \
    X(heif_image_get_plane_readonly)                                                                                   \
    X(heif_image_get_width)                                                                                            \
    X(heif_image_get_height)                                                                                           \
    X(heif_image_get_bits_per_pixel_range)                                                                             \
    X(heif_image_release)

#define TV_HEIF_POINTER(name) static __typeof__(name) *tv_heif_##name;
TV_HEIF_FUNCTIONS(TV_HEIF_POINTER)

static pthread_once_t tv_heif_loaded = PTHREAD_ONCE_INIT;
/* Empty once the library and every function were found; else why not. */
static char tv_heif_problem[TV_MESSAGE_LEN];

static void tv_heif_load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(tv_heif_problem, sizeof tv_heif_problem, "needs libheif (libheif1), which could not be loaded: %s",
                 why != NULL ? why : "it could not be loaded");
        return;
    }
#define TV_HEIF_RESOLVE(name)                                                                                          \
    tv_heif_##name = (__typeof__(name) *)dlsym(library, #name);                                                        \
    if (tv_heif_##name == NULL) {                                                                                      \
        snprintf(tv_heif_problem, sizeof tv_heif_problem, "this libheif has no %s", #name);                            \
        return;                                                                                                        \
    }
    TV_HEIF_FUNCTIONS(TV_HEIF_RESOLVE)
}

/* From here on a call of heif_x is a call through the pointer looked up. */
#define heif_context_alloc tv_heif_heif_context_alloc
#define heif_context_free tv_heif_heif_context_free
#define heif_context_read_from_memory_without_copy tv_heif_heif_context_read_from_memory_without_copy
#define heif_context_read_from_reader tv_heif_heif_context_read_from_reader
#define heif_context_get_primary_image_handle tv_heif_heif_context_get_primary_image_handle
#define heif_context_get_number_of_top_level_images tv_heif_heif_context_get_number_of_top_level_images
#define heif_image_handle_get_width tv_heif_heif_image_handle_get_width
#define heif_image_handle_get_height tv_heif_heif_image_handle_get_height
#define heif_image_handle_get_luma_bits_per_pixel tv_heif_heif_image_handle_get_luma_bits_per_pixel
#define heif_image_handle_has_alpha_channel tv_heif_heif_image_handle_has_alpha_channel
#define heif_image_handle_is_premultiplied_alpha tv_heif_heif_image_handle_is_premultiplied_alpha
#define heif_image_handle_get_raw_color_profile_size tv_heif_heif_image_handle_get_raw_color_profile_size
#define heif_image_handle_get_raw_color_profile tv_heif_heif_image_handle_get_raw_color_profile
#define heif_image_handle_get_nclx_color_profile tv_heif_heif_image_handle_get_nclx_color_profile
#define heif_image_handle_get_list_of_metadata_block_IDs tv_heif_heif_image_handle_get_list_of_metadata_block_IDs
#define heif_image_handle_get_metadata_size tv_heif_heif_image_handle_get_metadata_size
#define heif_image_handle_get_metadata tv_heif_heif_image_handle_get_metadata
#define heif_image_handle_release tv_heif_heif_image_handle_release
#define heif_nclx_color_profile_free tv_heif_heif_nclx_color_profile_free
#define heif_read_main_brand tv_heif_heif_read_main_brand
#define heif_fourcc_to_brand tv_heif_heif_fourcc_to_brand
#define heif_have_decoder_for_format tv_heif_heif_have_decoder_for_format
#define heif_decoding_options_alloc tv_heif_heif_decoding_options_alloc
#define heif_decoding_options_free tv_heif_heif_decoding_options_free
#define heif_decode_image tv_heif_heif_decode_image
#define heif_image_get_plane tv_heif_heif_image_get_plane
#define heif_image_get_plane_readonly tv_heif_heif_image_get_plane_readonly
#define heif_image_get_width tv_heif_heif_image_get_width
#define heif_image_get_height tv_heif_heif_image_get_height
#define heif_image_get_bits_per_pixel_range tv_heif_heif_image_get_bits_per_pixel_range
#define heif_image_release tv_heif_heif_image_release

struct tv_heif_state {
    struct heif_context *context;
    struct heif_image_handle *handle;
    struct heif_image *image; /* the decoded image, kept (tv_heif_decode_held) */
    uint64_t position;
    struct tv_image_decoder *decoder;
    struct tv_heif_grid *grid;         /* a grid read a row of tiles at a time, or NULL */
    uint8_t *strip;                    /* a row of tiles: window_width x tile_height RGBA8 */
    uint32_t strip_first, strip_rows;  /* rows the strip holds */
    uint32_t first_tile, tiles;        /* the tile columns read (tv_image_crop_columns), or all */
    uint32_t parts_first;              /* the first row of the row of tiles tv_image_parts_prepare made ready */
    tv_status *part_status;            /* each tile's, by part (tiles entries) */
    tv_error *part_error;
};

static int64_t tv_heif_get_position(void *userdata) {
    struct tv_heif_state *s = userdata;
    return (int64_t)s->position;
}

static int tv_heif_read(void *data, size_t size, void *userdata) {
    struct tv_heif_state *s = userdata;
    long long got = tv_input_read(s->decoder, s->position, data, size);
    if (got < 0 || (size_t)got != size) return 1;
    s->position += size;
    return 0;
}

static int tv_heif_seek(int64_t position, void *userdata) {
    struct tv_heif_state *s = userdata;
    if (position < 0 || (uint64_t)position > s->decoder->length) return 1;
    s->position = (uint64_t)position;
    return 0;
}

static enum heif_reader_grow_status tv_heif_wait_for_file_size(int64_t target_size, void *userdata) {
    struct tv_heif_state *s = userdata;
    return target_size >= 0 && (uint64_t)target_size <= s->decoder->length ? heif_reader_grow_status_size_reached
                                                                             : heif_reader_grow_status_size_beyond_eof;
}

static const struct heif_reader tv_heif_reader = {
    .reader_api_version = 1,
    .get_position = tv_heif_get_position,
    .read = tv_heif_read,
    .seek = tv_heif_seek,
    .wait_for_file_size = tv_heif_wait_for_file_size,
};

static tv_status tv_heif_error(struct tv_image_decoder *d, tv_error *err, struct heif_error error) {
    tv_status status;
    switch (error.code) {
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
    case heif_error_Decoder_plugin_error: status = TV_ERR_UNSUPPORTED; break;
    case heif_error_Memory_allocation_error: status = TV_ERR_NOMEM; break;
    case heif_error_Invalid_input:
        status = error.subcode == heif_suberror_End_of_data ? TV_ERR_TRUNCATED : TV_ERR_CORRUPT;
        break;
    default: status = TV_ERR_CORRUPT; break;
    }
    if (error.subcode == heif_suberror_Security_limit_exceeded) status = TV_ERR_LIMIT;
    if (error.subcode == heif_suberror_Unsupported_codec) status = TV_ERR_UNSUPPORTED;
    char message[TV_MESSAGE_LEN];
    snprintf(message, sizeof message, "%s", error.message != NULL && error.message[0] ? error.message : "error");
    return tv_image_fail(d, err, status, message);
}

/* libheif 1.15 keeps every box it parses, about 130 bytes each: 2,000,000 empty boxes at the top level (16 MB) took
 * 2.8 s and 268 MB to open. A HEIF image has a few boxes at the top level and a meta box of at most a few hundred
 * KB (a 1 GP grid of 16,384 tiles: about 760 KB); a file past either limit is refused before libheif reads it. */
#define TV_HEIF_MAX_TOP_BOXES 64
#define TV_HEIF_MAX_META (2u << 20)

/* Walks the boxes at the top level (their headers only); a box cut short or running past the end is left for
 * libheif to name. */
static tv_status tv_heif_check_boxes(struct tv_image_decoder *d, uint64_t *meta_at, uint64_t *meta_length,
                                     tv_error *err) {
    *meta_at = *meta_length = 0;
    struct tv_input_window *window = d->data != NULL ? NULL : malloc(sizeof *window);
    if (d->data == NULL && window == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    if (window != NULL) window->length = 0;
    tv_status status = TV_OK;
    char message[TV_MESSAGE_LEN];
    uint64_t at = 0;
    for (int boxes = 1; at + 8 <= d->length; boxes++) {
        uint8_t head[16];
        long long got = tv_input_read_through(d, window, at, head, sizeof head);
        if (got < 8) break;
        uint64_t size = tv_uint(head, 4, 1), header = 8;
        if (size == 1) {
            if (got < 16) break;
            size = tv_uint(head + 8, 8, 1);
            header = 16;
        } else if (size == 0) {
            size = d->length - at;
        }
        if (boxes > TV_HEIF_MAX_TOP_BOXES) {
            snprintf(message, sizeof message, "more than %d boxes at its top level, more than a HEIF image has",
                     TV_HEIF_MAX_TOP_BOXES);
            status = tv_image_fail(d, err, TV_ERR_UNSUPPORTED, message);
            break;
        }
        if (memcmp(head + 4, "meta", 4) == 0 && size > TV_HEIF_MAX_META) {
            snprintf(message, sizeof message, "its meta box has %llu bytes, more than the 2 MiB an image's items need",
                     (unsigned long long)size);
            status = tv_image_fail(d, err, TV_ERR_UNSUPPORTED, message);
            break;
        }
        if (size < header || size > d->length - at) break;
        if (memcmp(head + 4, "meta", 4) == 0 && *meta_length == 0) {
            *meta_at = at + header;
            *meta_length = size - header;
        }
        at += size;
    }
    free(window);
    return status;
}

/* Reads the primary image a row of tiles at a time when it is a grid of a layout heif_grid.c reads and its
 * oriented size is the one libheif gives; otherwise leaves it to be decoded whole. */
static void tv_heif_use_grid(struct tv_image_decoder *d, uint64_t meta_at, uint64_t meta_length) {
    struct tv_heif_state *s = d->state;
    struct tv_heif_grid *grid = tv_heif_grid_read(d, meta_at, meta_length);
    if (grid == NULL) return;
    const struct tv_heif_grid_layout *l = tv_heif_grid_layout(grid);
    tv_image_header *h = &d->header;
    int turned = l->orientation >= 5;
    if ((turned ? l->height : l->width) != h->width || (turned ? l->width : l->height) != h->height) {
        tv_heif_grid_free(grid);
        return;
    }
    s->grid = grid;
    s->first_tile = 0;
    s->tiles = l->columns;
    h->width = l->width;
    h->height = l->height;
    h->orientation = l->orientation;
    h->streams_rows = 1;
    h->tiled = 1;
    h->tile_width = l->tile_width;
    h->tile_height = l->tile_height;
    /* The row of tiles, and one tile's decode: its file, the decoder's planes and pictures (libde265 keeps a few),
     * libheif's RGB planes and its RGBA image (up to 16-bit samples): 24 bytes a pixel covers them. */
    size_t tile_pixels = (size_t)l->tile_width * l->tile_height;
    h->part_bytes = l->largest_tile_file + tile_pixels * 24;
    h->working_bytes = (size_t)l->columns * tile_pixels * 4 + h->part_bytes + (size_t)meta_length * 2;
}

static tv_status tv_heif_open(struct tv_image_decoder *d, tv_error *err) {
    pthread_once(&tv_heif_loaded, tv_heif_load);
    if (tv_heif_problem[0] != '\0') return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, tv_heif_problem);
    struct tv_heif_state *s = calloc(1, sizeof *s);
    if (s == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    d->state = s;
    s->decoder = d;
    s->context = heif_context_alloc();
    if (s->context == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    uint64_t meta_at, meta_length;
    tv_status checked = tv_heif_check_boxes(d, &meta_at, &meta_length, err);
    if (checked != TV_OK) return checked;
    struct heif_error error;
    if (d->data != NULL) {
        error = heif_context_read_from_memory_without_copy(s->context, d->data, d->length, NULL);
    } else {
        error = heif_context_read_from_reader(s->context, &tv_heif_reader, s, NULL);
    }
    if (error.code != heif_error_Ok) return tv_heif_error(d, err, error);
    error = heif_context_get_primary_image_handle(s->context, &s->handle);
    if (error.code != heif_error_Ok) return tv_heif_error(d, err, error);
    struct heif_image_handle *handle = s->handle;

    tv_image_header *h = &d->header;
    int width = heif_image_handle_get_width(handle), height = heif_image_handle_get_height(handle);
    if (width <= 0 || height <= 0) return tv_image_fail(d, err, TV_ERR_CORRUPT, "the image has no size");
    h->width = (uint32_t)width;
    h->height = (uint32_t)height;
    int bits = heif_image_handle_get_luma_bits_per_pixel(handle);
    h->bit_depth = bits > 0 ? bits : 8;
    h->has_alpha = heif_image_handle_has_alpha_channel(handle);
    h->samples = h->has_alpha ? 4 : 3;
    h->color = TV_IMAGE_COLOR_YCBCR;
    int images = heif_context_get_number_of_top_level_images(s->context);
    h->frames = images > 0 ? (uint32_t)images : 1;

    /* The codec: the brand says AVIF or HEIC; HEIC otherwise (libheif decodes only these two here). */
    uint8_t prefix[12];
    const char *codec = "HEVC";
    if (tv_input_read(d, 0, prefix, sizeof prefix) == (long long)sizeof prefix) {
        heif_brand2 brand = heif_read_main_brand(prefix, (int)sizeof prefix);
        if (brand == heif_fourcc_to_brand("avif") || brand == heif_fourcc_to_brand("avis")) codec = "AV1";
    }
    snprintf(h->compression, sizeof h->compression, "%s", codec);
    if (!heif_have_decoder_for_format(strcmp(codec, "AV1") == 0 ? heif_compression_AV1 : heif_compression_HEVC)) {
        char message[TV_MESSAGE_LEN];
        snprintf(message, sizeof message, "unsupported codec (no %s decoder in this libheif)", codec);
        return tv_image_fail(d, err, TV_ERR_UNSUPPORTED, message);
    }

    size_t profile_size = heif_image_handle_get_raw_color_profile_size(handle);
    if (profile_size > 0 && profile_size <= TV_ICC_MAX_BYTES) {
        uint8_t *profile = malloc(profile_size);
        if (profile != NULL) {
            if (heif_image_handle_get_raw_color_profile(handle, profile).code == heif_error_Ok) {
                tv_image_keep_icc(d, profile, profile_size);
            }
            free(profile);
        }
    } else if (profile_size > TV_ICC_MAX_BYTES) {
        tv_image_icc_too_large(d);
    }
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_error nclx_error = heif_image_handle_get_nclx_color_profile(handle, &nclx);
    if (nclx_error.code != heif_error_Ok && nclx != NULL) {
        /* libheif 1.15 may hand out the profile it allocated along with an error: ours to free. */
        heif_nclx_color_profile_free(nclx);
        nclx = NULL;
    }
    if (nclx != NULL) {
        h->nclx_primaries = (int)nclx->color_primaries;
        h->nclx_transfer = (int)nclx->transfer_characteristics;
        double xy[8] = {nclx->color_primary_red_x,   nclx->color_primary_red_y,   nclx->color_primary_green_x,
                        nclx->color_primary_green_y, nclx->color_primary_blue_x,  nclx->color_primary_blue_y,
                        nclx->color_primary_white_x, nclx->color_primary_white_y};
        memcpy(h->nclx_xy, xy, sizeof xy);
        heif_nclx_color_profile_free(nclx);
    }
    heif_item_id exif_id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &exif_id, 1) == 1) {
        size_t size = heif_image_handle_get_metadata_size(handle, exif_id);
        if (size > 4 && size <= (1u << 20)) {
            uint8_t *block = malloc(size);
            if (block != NULL && heif_image_handle_get_metadata(handle, exif_id, block).code == heif_error_Ok) {
                /* HEIF's Exif item starts with a 4-byte offset to the TIFF header. */
                uint32_t skip = ((uint32_t)block[0] << 24) | ((uint32_t)block[1] << 16) | ((uint32_t)block[2] << 8) |
                                block[3];
                if (skip <= size - 4) tv_image_keep_exif(d, block + 4 + skip, size - 4 - skip);
            }
            free(block);
        }
    }
    /* libheif's interleaved RGBA image (kept), and the decoded planes while it is made (up to 16 bits, 4:4:4, and
     * alpha). */
    size_t pixels = (size_t)h->width * h->height;
    h->working_bytes = pixels * 4 + pixels * (h->bit_depth > 8 ? 2 : 1) * 4;
    if (!h->has_alpha && meta_length > 0) tv_heif_use_grid(d, meta_at, meta_length);
    return TV_OK;
}

/* Decodes the primary image into libheif's own interleaved RGBA8 image (alpha 255 where the file has none), kept in
 * the state: its rows are the decoder's (no copy). A premultiplied alpha is made straight. */
static tv_status tv_heif_decode_held(struct tv_image_decoder *d, tv_error *err) {
    struct tv_heif_state *s = d->state;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
    options->convert_hdr_to_8bit = 1;
    options->strict_decoding = d->strict ? 1 : 0;
    struct heif_image *image = NULL;
    struct heif_error error =
        heif_decode_image(s->handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) return tv_heif_error(d, err, error);
    uint32_t width = d->header.width, height = d->header.height;
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    if (plane == NULL || stride < (int)width * 4 || heif_image_get_width(image, heif_channel_interleaved) != (int)width ||
        heif_image_get_height(image, heif_channel_interleaved) != (int)height ||
        heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) != 8) {
        heif_image_release(image);
        return tv_image_fail(d, err, TV_ERR_CORRUPT, "the decoded image is not the size or depth its header gives");
    }
    if (d->header.has_alpha && heif_image_handle_is_premultiplied_alpha(s->handle)) {
        for (uint32_t y = 0; y < height; y++) {
            uint8_t *row = plane + (size_t)y * (size_t)stride;
            for (uint32_t x = 0; x < width; x++) tv_unpremultiply(row + (size_t)x * 4);
        }
    }
    s->image = image;
    d->whole_base = plane;
    d->whole_stride = (size_t)stride;
    return TV_OK;
}

/* The image copied into `pixels` (rows of width * 4 bytes). */
static tv_status tv_heif_decode_whole(struct tv_image_decoder *d, uint8_t *pixels, tv_error *err) {
    tv_status status = tv_heif_decode_held(d, err);
    if (status != TV_OK) return status;
    for (uint32_t y = 0; y < d->header.height; y++) {
        memcpy(pixels + (size_t)y * d->header.width * 4, d->whole_base + (size_t)y * d->whole_stride,
               (size_t)d->header.width * 4);
    }
    return TV_OK;
}

/* Decodes tile `index` (row order) into `dst` (rows of `stride` bytes): its first `columns` x `rows` pixels. */
static tv_status tv_heif_decode_tile(struct tv_image_decoder *d, uint32_t index, uint8_t *dst, size_t stride,
                                     uint32_t columns, uint32_t rows, tv_error *err) {
    struct tv_heif_state *s = d->state;
    const struct tv_heif_grid_layout *l = tv_heif_grid_layout(s->grid);
    uint8_t *file = NULL;
    size_t length = 0;
    tv_status status = tv_heif_grid_tile_file(s->grid, d, index, &file, &length, err);
    if (status != TV_OK) return status;
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (context == NULL || options == NULL) {
        status = tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* As libheif decodes a grid's tiles: not strictly, to 8 bits at the end. */
    options->convert_hdr_to_8bit = 1;
    struct heif_error error = heif_context_read_from_memory_without_copy(context, file, length, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(context, &handle);
    if (error.code == heif_error_Ok) {
        error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    }
    if (error.code != heif_error_Ok) {
        status = tv_heif_error(d, err, error);
        goto done;
    }
    int tile_stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &tile_stride);
    if (plane == NULL || heif_image_get_width(image, heif_channel_interleaved) != (int)l->tile_width ||
        heif_image_get_height(image, heif_channel_interleaved) != (int)l->tile_height ||
        heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) != 8 ||
        tile_stride < (int)l->tile_width * 4) {
        char message[TV_MESSAGE_LEN];
        snprintf(message, sizeof message, "tile %u of the grid does not decode to the %ux%u its ispe gives", index + 1,
                 l->tile_width, l->tile_height);
        status = tv_image_fail(d, err, TV_ERR_CORRUPT, message);
        goto done;
    }
    for (uint32_t y = 0; y < rows; y++) {
        memcpy(dst + (size_t)y * stride, plane + (size_t)y * (size_t)tile_stride, (size_t)columns * 4);
    }
done:
    if (image != NULL) heif_image_release(image);
    if (handle != NULL) heif_image_handle_release(handle);
    if (options != NULL) heif_decoding_options_free(options);
    if (context != NULL) heif_context_free(context);
    free(file);
    return status;
}

/* The rows of the row of tiles whose first row is `first` (the last row of tiles is cut by the output height). */
static uint32_t tv_heif_rows_from(const struct tv_heif_grid_layout *l, uint32_t first) {
    return l->height - first < l->tile_height ? l->height - first : l->tile_height;
}

/* Whether the strip holds `row`. */
static int tv_heif_strip_holds(const struct tv_heif_state *s, uint32_t row) {
    return s->strip != NULL && row >= s->strip_first && row < s->strip_first + s->strip_rows;
}

/* Makes room for a row of tiles of the window (once), and marks it empty; 0 when out of memory. */
static int tv_heif_strip_ready(struct tv_image_decoder *d) {
    struct tv_heif_state *s = d->state;
    if (s->strip == NULL) s->strip = malloc((size_t)d->window_width * 4 * tv_heif_grid_layout(s->grid)->tile_height);
    s->strip_rows = 0;
    return s->strip != NULL;
}

/* Decodes the `t`-th tile column of the window, in the row of tiles whose first row is `first`, into its place in
 * the strip (any tiles at once, each on one thread). */
static tv_status tv_heif_strip_tile(struct tv_image_decoder *d, uint32_t first, uint32_t t, tv_error *err) {
    struct tv_heif_state *s = d->state;
    const struct tv_heif_grid_layout *l = tv_heif_grid_layout(s->grid);
    uint32_t column = s->first_tile + t, left = column * l->tile_width;
    uint32_t columns = l->width - left < l->tile_width ? l->width - left : l->tile_width;
    uint32_t rows = tv_heif_rows_from(l, first);
    return tv_heif_decode_tile(d, first / l->tile_height * l->columns + column,
                               s->strip + (size_t)(left - d->window_x) * 4, (size_t)d->window_width * 4, columns,
                               rows, err);
}

/* Makes the strip hold the row of tiles that has `row` (the window's tile columns). */
static tv_status tv_heif_fill(struct tv_image_decoder *d, uint32_t row, tv_error *err) {
    struct tv_heif_state *s = d->state;
    if (tv_heif_strip_holds(s, row)) return TV_OK;
    if (!tv_heif_strip_ready(d)) return tv_image_fail(d, err, TV_ERR_NOMEM, "out of memory for a row of tiles");
    const struct tv_heif_grid_layout *l = tv_heif_grid_layout(s->grid);
    uint32_t first = row / l->tile_height * l->tile_height;
    for (uint32_t t = 0; t < s->tiles; t++) {
        tv_status status = tv_heif_strip_tile(d, first, t, err);
        if (status != TV_OK) return status;
    }
    s->strip_first = first;
    s->strip_rows = tv_heif_rows_from(l, first);
    return TV_OK;
}

/* Parts: one a tile of the row of tiles that holds `row` (worth it from two tiles on). */
static uint32_t tv_heif_parts_prepare(struct tv_image_decoder *d, uint32_t row) {
    struct tv_heif_state *s = d->state;
    if (s->grid == NULL || s->tiles < 2 || tv_heif_strip_holds(s, row)) return 0;
    if (s->part_status == NULL) s->part_status = calloc(s->tiles, sizeof *s->part_status);
    if (s->part_error == NULL) s->part_error = calloc(s->tiles, sizeof *s->part_error);
    if (s->part_status == NULL || s->part_error == NULL || !tv_heif_strip_ready(d)) return 0;
    uint32_t tile_height = tv_heif_grid_layout(s->grid)->tile_height;
    s->parts_first = row / tile_height * tile_height;
    return s->tiles;
}

static void tv_heif_parts_decode(struct tv_image_decoder *d, uint32_t part) {
    struct tv_heif_state *s = d->state;
    s->part_status[part] = tv_heif_strip_tile(d, s->parts_first, part, &s->part_error[part]);
}

static tv_status tv_heif_parts_join(struct tv_image_decoder *d, tv_error *err) {
    struct tv_heif_state *s = d->state;
    for (uint32_t t = 0; t < s->tiles; t++) {
        if (s->part_status[t] != TV_OK) {
            if (err != NULL) *err = s->part_error[t];
            return s->part_status[t];
        }
    }
    s->strip_first = s->parts_first;
    s->strip_rows = tv_heif_rows_from(tv_heif_grid_layout(s->grid), s->parts_first);
    return TV_OK;
}

static tv_status tv_heif_read_rows(struct tv_image_decoder *d, uint8_t *dst, size_t stride, uint32_t rows,
                                   uint32_t *done, tv_error *err) {
    struct tv_heif_state *s = d->state;
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t row = d->next_row + r;
        /* Skipped rows need no decoding: the row of tiles holding a wanted row is decoded then. */
        if (dst != NULL) {
            tv_status status = tv_heif_fill(d, row, err);
            if (status != TV_OK) return status;
            memcpy(dst + (size_t)r * stride, s->strip + (size_t)(row - s->strip_first) * d->window_width * 4,
                   (size_t)d->window_width * 4);
        }
        (*done)++;
    }
    return TV_OK;
}

/* A grid reads only the tile columns that hold [x, x + width). */
static void tv_heif_crop_columns(struct tv_image_decoder *d, uint32_t x, uint32_t width) {
    struct tv_heif_state *s = d->state;
    if (s->grid == NULL || width == 0) return;
    tv_image_tile_window(d, x, width, &s->first_tile, &s->tiles);
}

static void tv_heif_close(struct tv_image_decoder *d) {
    struct tv_heif_state *s = d->state;
    if (s == NULL) return;
    if (s->image != NULL) heif_image_release(s->image);
    tv_heif_grid_free(s->grid);
    free(s->strip);
    free(s->part_status);
    free(s->part_error);
    if (s->handle != NULL) heif_image_handle_release(s->handle);
    if (s->context != NULL) heif_context_free(s->context);
    free(s);
    d->state = NULL;
}

const struct tv_image_ops tv_heif_ops = {
    .open = tv_heif_open, .read_rows = tv_heif_read_rows, .decode_whole = tv_heif_decode_whole,
    .decode_held = tv_heif_decode_held, .crop_columns = tv_heif_crop_columns,
    .parts_prepare = tv_heif_parts_prepare, .parts_decode = tv_heif_parts_decode, .parts_join = tv_heif_parts_join,
    .close = tv_heif_close};
