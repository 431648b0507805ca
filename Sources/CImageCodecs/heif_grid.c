/* A HEIF or AVIF whose primary image is a grid of coded tiles (what phones write: 512 px HEVC tiles), read from its
 * meta box so that heif_decoder.c can decode it a row of tiles at a time. libheif 1.15 decodes a grid only whole
 * and opens only top-level images (a grid's tiles are hidden items), so each tile is handed to libheif as a file of
 * its own: the tile's item, with its properties copied byte for byte (hvcC or av1C, ispe, colr, pixi...), and its
 * coded bytes. libheif decodes such a file exactly as it decodes that tile inside the grid (the same plugin call, the
 * same colour conversion to RGB with the tile's own colour box), so the rows are the whole decode's, byte for byte.
 *
 * Only the layout this covers is taken (anything else is decoded whole, as before): the primary item a 'grid' whose
 * descriptor gives R x C tiles, each an hvc1 or av01 item of one size with no transformation of its own, located in
 * the file or the meta box's idat, covering the grid's output size; irot and imir on the grid become an Exif
 * orientation the caller applies. Every count and offset is checked against the bytes that hold it. */

#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

#define TV_FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

/* A tile's coded bytes may be at most this many a pixel (HEVC at its highest quality codes well under 3). */
#define TV_HEIF_TILE_BYTES_PER_PIXEL 16u
/* The tile file's fixed boxes: ftyp, meta with hdlr, pitm, iinf, iloc, iprp's headers and ipma, mdat's header. */
#define TV_HEIF_TILE_FILE_OVERHEAD 256u

struct tv_cursor {
    const uint8_t *p;
    size_t n;
    int bad;
};

static uint64_t tv_take(struct tv_cursor *c, unsigned size) {
    if (c->bad || size > c->n) {
        c->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++) v = v << 8 | c->p[i];
    c->p += size;
    c->n -= size;
    return v;
}

/* The next box of `c`: its type, its body, and the whole box (header included); 0 at the end, or for a box that does
 * not fit (then c->bad). */
static int tv_next_box(struct tv_cursor *c, uint32_t *type, struct tv_cursor *body, const uint8_t **box,
                       size_t *box_size) {
    if (c->bad || c->n < 8) return 0;
    const uint8_t *start = c->p;
    uint64_t size = tv_take(c, 4);
    *type = (uint32_t)tv_take(c, 4);
    uint64_t header = 8;
    if (size == 1) {
        size = tv_take(c, 8);
        header = 16;
    } else if (size == 0) {
        size = c->n + 8;
    }
    if (c->bad || size < header || size - header > c->n) {
        c->bad = 1;
        return 0;
    }
    body->p = c->p;
    body->n = (size_t)(size - header);
    body->bad = 0;
    c->p += body->n;
    c->n -= body->n;
    if (box != NULL) *box = start;
    if (box_size != NULL) *box_size = (size_t)size;
    return 1;
}

struct tv_heif_item {
    uint32_t id, type;
    uint32_t first_extent, extents; /* in grid->extent */
    int located;                    /* in iloc, with data this reader can read */
    uint32_t first_property, properties; /* in grid->association */
    int has_properties;
};

struct tv_heif_extent {
    uint64_t offset, length; /* in the file */
};

struct tv_heif_property {
    const uint8_t *box; /* in grid->meta */
    size_t size;
    uint32_t type;
};

struct tv_heif_grid {
    uint8_t *meta; /* the meta box's body, copied */
    struct tv_heif_item *item;
    uint32_t items;
    struct tv_heif_extent *extent;
    uint32_t extents;
    struct tv_heif_property *property; /* ipco's boxes, index 1 at [0] */
    uint32_t properties;
    uint16_t *association; /* essential << 15 | ipco index */
    uint32_t associations;
    uint32_t *tile; /* tile item ids in row order */
    struct tv_heif_grid_layout layout;
};

static int tv_item_order(const void *a, const void *b) {
    uint32_t x = ((const struct tv_heif_item *)a)->id, y = ((const struct tv_heif_item *)b)->id;
    return x < y ? -1 : x > y;
}

static struct tv_heif_item *tv_item(const struct tv_heif_grid *g, uint32_t id) {
    struct tv_heif_item key = {.id = id};
    return bsearch(&key, g->item, g->items, sizeof key, tv_item_order);
}

/* The ipco property `association` names, or NULL. */
static const struct tv_heif_property *tv_property(const struct tv_heif_grid *g, uint16_t association) {
    uint32_t index = association & 0x7FFFu;
    return index >= 1 && index <= g->properties ? &g->property[index - 1] : NULL;
}

void tv_heif_grid_free(struct tv_heif_grid *g) {
    if (g == NULL) return;
    free(g->meta);
    free(g->item);
    free(g->extent);
    free(g->property);
    free(g->association);
    free(g->tile);
    free(g);
}

const struct tv_heif_grid_layout *tv_heif_grid_layout(const struct tv_heif_grid *g) { return &g->layout; }

/* iinf: every item's id and type, sorted by id; 0 when malformed or an id repeats. */
static int tv_read_items(struct tv_heif_grid *g, struct tv_cursor c) {
    unsigned version = (unsigned)tv_take(&c, 1);
    tv_take(&c, 3);
    uint64_t count = tv_take(&c, version == 0 ? 2 : 4);
    if (c.bad || count > c.n / 12) return 0;
    g->item = calloc(count > 0 ? count : 1, sizeof *g->item);
    if (g->item == NULL) return 0;
    uint32_t type;
    struct tv_cursor infe;
    while (g->items < count && tv_next_box(&c, &type, &infe, NULL, NULL)) {
        if (type != TV_FOURCC('i', 'n', 'f', 'e')) continue;
        unsigned v = (unsigned)tv_take(&infe, 1);
        tv_take(&infe, 3);
        if (v < 2) return 0; /* no item type: not an image item libheif 1.15 reads either */
        struct tv_heif_item *item = &g->item[g->items++];
        item->id = (uint32_t)tv_take(&infe, v == 2 ? 2 : 4);
        tv_take(&infe, 2); /* protection index */
        item->type = (uint32_t)tv_take(&infe, 4);
        if (infe.bad) return 0;
    }
    if (c.bad || g->items != count) return 0;
    qsort(g->item, g->items, sizeof *g->item, tv_item_order);
    for (uint32_t i = 1; i < g->items; i++) {
        if (g->item[i].id == g->item[i - 1].id) return 0;
    }
    return 1;
}

/* ipco and every ipma: the property boxes, and each item's associations in order. */
static int tv_read_properties(struct tv_heif_grid *g, struct tv_cursor c) {
    uint32_t type;
    struct tv_cursor box, ipco = {0};
    size_t associations = 0;
    int have_ipco = 0;
    for (struct tv_cursor scan = c; tv_next_box(&scan, &type, &box, NULL, NULL);) {
        if (type == TV_FOURCC('i', 'p', 'c', 'o') && !have_ipco) {
            ipco = box;
            have_ipco = 1;
        }
        if (type == TV_FOURCC('i', 'p', 'm', 'a')) associations += box.n;
    }
    if (!have_ipco) return 0;
    g->property = calloc(ipco.n / 8 + 1, sizeof *g->property);
    g->association = calloc(associations + 1, sizeof *g->association);
    if (g->property == NULL || g->association == NULL) return 0;
    const uint8_t *start;
    size_t size;
    while (tv_next_box(&ipco, &type, &box, &start, &size)) {
        g->property[g->properties++] = (struct tv_heif_property){.box = start, .size = size, .type = type};
    }
    if (ipco.bad || g->properties > 0x7FFF) return 0;
    while (tv_next_box(&c, &type, &box, NULL, NULL)) {
        if (type != TV_FOURCC('i', 'p', 'm', 'a')) continue;
        unsigned version = (unsigned)tv_take(&box, 1);
        unsigned flags = (unsigned)tv_take(&box, 3);
        uint64_t entries = tv_take(&box, 4);
        for (uint64_t e = 0; e < entries && !box.bad; e++) {
            uint32_t id = (uint32_t)tv_take(&box, version < 1 ? 2 : 4);
            unsigned count = (unsigned)tv_take(&box, 1);
            struct tv_heif_item *item = tv_item(g, id);
            if (item != NULL && item->has_properties) return 0; /* associated twice */
            if (item != NULL) {
                item->has_properties = 1;
                item->first_property = g->associations;
                item->properties = count;
            }
            for (unsigned a = 0; a < count; a++) {
                uint16_t value;
                if (flags & 1) {
                    uint64_t v = tv_take(&box, 2);
                    value = (uint16_t)v;
                } else {
                    uint64_t v = tv_take(&box, 1);
                    value = (uint16_t)((v & 0x80) << 8 | (v & 0x7F));
                }
                if (item != NULL && !box.bad) {
                    if (g->associations >= associations) return 0;
                    g->association[g->associations++] = value;
                }
            }
        }
        if (box.bad) return 0;
    }
    return !c.bad;
}

/* iloc: each item's extents as file ranges (construction method 0, the file; 1, the meta box's idat, whose body
 * lies at `idat_at` with `idat_length` bytes). An item elsewhere stays unlocated. */
static int tv_read_locations(struct tv_heif_grid *g, struct tv_cursor c, uint64_t idat_at, uint64_t idat_length,
                             int have_idat, uint64_t file_length) {
    unsigned version = (unsigned)tv_take(&c, 1);
    tv_take(&c, 3);
    unsigned sizes = (unsigned)tv_take(&c, 1), more = (unsigned)tv_take(&c, 1);
    unsigned offset_size = sizes >> 4, length_size = sizes & 15, base_size = more >> 4;
    unsigned index_size = version >= 1 ? (more & 15) : 0;
    if (version > 2) return 0;
#define TV_VALID_SIZE(s) ((s) == 0 || (s) == 4 || (s) == 8)
    if (!TV_VALID_SIZE(offset_size) || !TV_VALID_SIZE(length_size) || !TV_VALID_SIZE(base_size) ||
        !TV_VALID_SIZE(index_size) || length_size == 0) {
        return 0;
    }
    uint64_t count = tv_take(&c, version < 2 ? 2 : 4);
    unsigned extent_bytes = offset_size + length_size + index_size;
    g->extent = calloc(c.n / extent_bytes + 1, sizeof *g->extent);
    if (c.bad || g->extent == NULL) return 0;
    for (uint64_t i = 0; i < count && !c.bad; i++) {
        uint32_t id = (uint32_t)tv_take(&c, version < 2 ? 2 : 4);
        unsigned method = version >= 1 ? (unsigned)tv_take(&c, 2) & 15 : 0;
        uint64_t reference = tv_take(&c, 2);
        uint64_t base = tv_take(&c, base_size);
        uint64_t extents = tv_take(&c, 2);
        struct tv_heif_item *item = tv_item(g, id);
        if (item != NULL && item->located) return 0; /* located twice */
        int readable = item != NULL && reference == 0 && (method == 0 || (method == 1 && have_idat));
        uint32_t first = g->extents;
        for (uint64_t e = 0; e < extents && !c.bad; e++) {
            tv_take(&c, index_size);
            uint64_t offset = tv_take(&c, offset_size), length = tv_take(&c, length_size);
            if (c.bad || !readable) continue;
            uint64_t start = base + offset, limit = method == 0 ? file_length : idat_length;
            if (start < base || length == 0 || start > limit || length > limit - start) {
                readable = 0;
                continue;
            }
            g->extent[g->extents++] = (struct tv_heif_extent){.offset = (method == 1 ? idat_at : 0) + start,
                                                              .length = length};
        }
        if (readable && !c.bad) {
            item->located = 1;
            item->first_extent = first;
            item->extents = (uint32_t)(extents);
        } else {
            g->extents = first;
        }
    }
    return !c.bad;
}

static uint64_t tv_item_bytes(const struct tv_heif_grid *g, const struct tv_heif_item *item) {
    uint64_t total = 0;
    for (uint32_t e = 0; e < item->extents; e++) total += g->extent[item->first_extent + e].length;
    return total;
}

/* The first property of `type` associated with `item`, or NULL. */
static const struct tv_heif_property *tv_item_property(const struct tv_heif_grid *g, const struct tv_heif_item *item,
                                                       uint32_t type) {
    for (uint32_t a = 0; a < item->properties; a++) {
        const struct tv_heif_property *p = tv_property(g, g->association[item->first_property + a]);
        if (p != NULL && p->type == type) return p;
    }
    return NULL;
}

/* A property box's body (after its header; boxes here are at most 2 MiB, so their size fits 4 bytes). */
static struct tv_cursor tv_property_body(const struct tv_heif_property *p) {
    struct tv_cursor c = {.p = p->box, .n = p->size}, body;
    uint32_t type;
    if (!tv_next_box(&c, &type, &body, NULL, NULL)) return (struct tv_cursor){.bad = 1};
    return body;
}

/* The Exif orientation (1...8) that shows the stored rows as libheif's irot and imir, in their order, would: each
 * step's 2x2 matrix on (x right, y down), composed; 0 for a clean aperture (clap) or anything else not read here. */
static int tv_grid_orientation(const struct tv_heif_grid *g, const struct tv_heif_item *item) {
    int m[4] = {1, 0, 0, 1}; /* x' = m0 x + m1 y, y' = m2 x + m3 y */
    for (uint32_t a = 0; a < item->properties; a++) {
        const struct tv_heif_property *p = tv_property(g, g->association[item->first_property + a]);
        if (p == NULL) return 0;
        int step[4];
        struct tv_cursor body = tv_property_body(p);
        if (p->type == TV_FOURCC('i', 'r', 'o', 't')) {
            unsigned turns = (unsigned)tv_take(&body, 1) & 3; /* anticlockwise */
            static const int anticlockwise[4][4] = {{1, 0, 0, 1}, {0, 1, -1, 0}, {-1, 0, 0, -1}, {0, -1, 1, 0}};
            memcpy(step, anticlockwise[turns], sizeof step);
        } else if (p->type == TV_FOURCC('i', 'm', 'i', 'r')) {
            unsigned axis = (unsigned)tv_take(&body, 1) & 1; /* 1: left and right exchanged; 0: top and bottom */
            int flip[4] = {axis ? -1 : 1, 0, 0, axis ? 1 : -1};
            memcpy(step, flip, sizeof step);
        } else if (p->type == TV_FOURCC('c', 'l', 'a', 'p')) {
            return 0;
        } else {
            continue;
        }
        if (body.bad) return 0;
        int next[4] = {step[0] * m[0] + step[1] * m[2], step[0] * m[1] + step[1] * m[3],
                       step[2] * m[0] + step[3] * m[2], step[2] * m[1] + step[3] * m[3]};
        memcpy(m, next, sizeof m);
    }
    static const int exif[8][4] = {{1, 0, 0, 1},  {-1, 0, 0, 1}, {-1, 0, 0, -1}, {1, 0, 0, -1},
                                   {0, 1, 1, 0},  {0, -1, 1, 0}, {0, -1, -1, 0}, {0, 1, -1, 0}};
    for (int o = 0; o < 8; o++) {
        if (memcmp(exif[o], m, sizeof m) == 0) return o + 1;
    }
    return 0;
}

struct tv_heif_grid *tv_heif_grid_read(const struct tv_image_decoder *d, uint64_t meta_at, uint64_t meta_length) {
    if (meta_length < 12 || meta_length > (4u << 20)) return NULL;
    struct tv_heif_grid *g = calloc(1, sizeof *g);
    if (g == NULL) return NULL;
    g->meta = malloc((size_t)meta_length);
    if (g->meta == NULL || tv_input_read(d, meta_at, g->meta, (size_t)meta_length) != (long long)meta_length) {
        goto refuse;
    }
    /* The meta box's children, after its FullBox header. */
    struct tv_cursor c = {.p = g->meta + 4, .n = (size_t)meta_length - 4};
    struct tv_cursor pitm = {0}, iinf = {0}, iloc = {0}, iref = {0}, iprp = {0}, idat = {0}, box;
    int have = 0;
    uint32_t type;
    while (tv_next_box(&c, &type, &box, NULL, NULL)) {
        struct tv_cursor *slot = NULL;
        int bit = 0;
        switch (type) {
        case TV_FOURCC('p', 'i', 't', 'm'): slot = &pitm, bit = 1; break;
        case TV_FOURCC('i', 'i', 'n', 'f'): slot = &iinf, bit = 2; break;
        case TV_FOURCC('i', 'l', 'o', 'c'): slot = &iloc, bit = 4; break;
        case TV_FOURCC('i', 'r', 'e', 'f'): slot = &iref, bit = 8; break;
        case TV_FOURCC('i', 'p', 'r', 'p'): slot = &iprp, bit = 16; break;
        case TV_FOURCC('i', 'd', 'a', 't'): slot = &idat, bit = 32; break;
        default: continue;
        }
        if (have & bit) goto refuse; /* twice */
        have |= bit;
        *slot = box;
    }
    if (c.bad || (have & 31) != 31) goto refuse;

    unsigned version = (unsigned)tv_take(&pitm, 1);
    tv_take(&pitm, 3);
    uint32_t primary_id = (uint32_t)tv_take(&pitm, version == 0 ? 2 : 4);
    if (pitm.bad || !tv_read_items(g, iinf)) goto refuse;
    const struct tv_heif_item *primary = tv_item(g, primary_id);
    if (primary == NULL || primary->type != TV_FOURCC('g', 'r', 'i', 'd')) goto refuse;

    /* iref: the grid's tiles ('dimg' from the primary item), in row order. */
    version = (unsigned)tv_take(&iref, 1);
    tv_take(&iref, 3);
    uint32_t tiles = 0;
    while (tv_next_box(&iref, &type, &box, NULL, NULL)) {
        uint32_t from = (uint32_t)tv_take(&box, version == 0 ? 2 : 4);
        uint64_t count = tv_take(&box, 2);
        if (type != TV_FOURCC('d', 'i', 'm', 'g') || from != primary_id) continue;
        if (g->tile != NULL || box.bad || count == 0 || count > box.n / (version == 0 ? 2 : 4)) goto refuse;
        g->tile = malloc(count * sizeof *g->tile);
        if (g->tile == NULL) goto refuse;
        for (uint64_t i = 0; i < count; i++) g->tile[i] = (uint32_t)tv_take(&box, version == 0 ? 2 : 4);
        tiles = (uint32_t)count;
    }
    if (iref.bad || g->tile == NULL) goto refuse;

    if (!tv_read_properties(g, iprp)) goto refuse;
    uint64_t idat_at = meta_at + (uint64_t)(idat.p - g->meta);
    if (!tv_read_locations(g, iloc, idat_at, idat.n, (have & 32) != 0, d->length)) goto refuse;
    primary = tv_item(g, primary_id);
    if (!primary->located || !primary->has_properties) goto refuse;

    /* The grid descriptor: version 0, flags (1: 32-bit sizes), rows - 1, columns - 1, output width and height. */
    uint8_t descriptor[12] = {0};
    uint64_t descriptor_length = tv_item_bytes(g, primary);
    if (descriptor_length < 8 || descriptor_length > sizeof descriptor) goto refuse;
    size_t at = 0;
    for (uint32_t e = 0; e < primary->extents; e++) {
        const struct tv_heif_extent *x = &g->extent[primary->first_extent + e];
        if (tv_input_read(d, x->offset, descriptor + at, (size_t)x->length) != (long long)x->length) goto refuse;
        at += (size_t)x->length;
    }
    struct tv_cursor grid = {.p = descriptor, .n = at};
    unsigned grid_version = (unsigned)tv_take(&grid, 1), grid_flags = (unsigned)tv_take(&grid, 1);
    struct tv_heif_grid_layout *l = &g->layout;
    l->rows = (uint32_t)tv_take(&grid, 1) + 1;
    l->columns = (uint32_t)tv_take(&grid, 1) + 1;
    l->width = (uint32_t)tv_take(&grid, grid_flags & 1 ? 4 : 2);
    l->height = (uint32_t)tv_take(&grid, grid_flags & 1 ? 4 : 2);
    if (grid.bad || grid_version != 0 || l->rows * l->columns != tiles || l->width == 0 || l->height == 0) {
        goto refuse;
    }
    l->orientation = tv_grid_orientation(g, primary);
    if (l->orientation == 0) goto refuse;

    /* The tiles: one coded type, one size (ispe), no transformation of their own, located, at most 127 properties
     * (one-byte indexes in the tile's file). */
    for (uint32_t t = 0; t < tiles; t++) {
        const struct tv_heif_item *tile = tv_item(g, g->tile[t]);
        if (tile == NULL || !tile->located || !tile->has_properties || tile->properties > 127) goto refuse;
        if (tile->type != TV_FOURCC('h', 'v', 'c', '1') && tile->type != TV_FOURCC('a', 'v', '0', '1')) goto refuse;
        if (t > 0 && tile->type != l->item_type) goto refuse;
        l->item_type = tile->type;
        if (tv_item_property(g, tile, TV_FOURCC('i', 'r', 'o', 't')) != NULL ||
            tv_item_property(g, tile, TV_FOURCC('i', 'm', 'i', 'r')) != NULL ||
            tv_item_property(g, tile, TV_FOURCC('c', 'l', 'a', 'p')) != NULL) {
            goto refuse;
        }
        const struct tv_heif_property *ispe = tv_item_property(g, tile, TV_FOURCC('i', 's', 'p', 'e'));
        if (ispe == NULL) goto refuse;
        struct tv_cursor body = tv_property_body(ispe);
        tv_take(&body, 4);
        uint32_t width = (uint32_t)tv_take(&body, 4), height = (uint32_t)tv_take(&body, 4);
        if (body.bad || width == 0 || height == 0 || width > 8192 || height > 8192) goto refuse;
        if (t > 0 && (width != l->tile_width || height != l->tile_height)) goto refuse;
        l->tile_width = width;
        l->tile_height = height;
        uint64_t coded = tv_item_bytes(g, tile);
        if (coded > (uint64_t)width * height * TV_HEIF_TILE_BYTES_PER_PIXEL + (1u << 20)) goto refuse;
        size_t file = TV_HEIF_TILE_FILE_OVERHEAD + (size_t)coded;
        for (uint32_t a = 0; a < tile->properties; a++) {
            const struct tv_heif_property *p = tv_property(g, g->association[tile->first_property + a]);
            if (p == NULL) goto refuse;
            file += p->size;
        }
        if (file > l->largest_tile_file) l->largest_tile_file = file;
    }
    /* The tiles cover the output size, and no row or column of them lies wholly outside it (libheif refuses that). */
    if ((uint64_t)l->columns * l->tile_width < l->width || (uint64_t)l->rows * l->tile_height < l->height ||
        (uint64_t)(l->columns - 1) * l->tile_width >= l->width ||
        (uint64_t)(l->rows - 1) * l->tile_height >= l->height) {
        goto refuse;
    }
    return g;
refuse:
    tv_heif_grid_free(g);
    return NULL;
}

static uint8_t *tv_put(uint8_t *p, uint64_t value, unsigned bytes) {
    for (unsigned i = 0; i < bytes; i++) p[i] = (uint8_t)(value >> (8 * (bytes - 1 - i)));
    return p + bytes;
}

static uint8_t *tv_put_box(uint8_t *p, size_t size, const char *type) {
    p = tv_put(p, size, 4);
    memcpy(p, type, 4);
    return p + 4;
}

tv_status tv_heif_grid_tile_file(const struct tv_heif_grid *g, const struct tv_image_decoder *d, uint32_t index,
                                 uint8_t **out, size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    const struct tv_heif_item *tile = tv_item(g, g->tile[index]);
    size_t properties = 0;
    for (uint32_t a = 0; a < tile->properties; a++) {
        properties += tv_property(g, g->association[tile->first_property + a])->size;
    }
    uint64_t coded = tv_item_bytes(g, tile);
    size_t ipco = 8 + properties, ipma = 12 + 4 + 2 + 1 + tile->properties, iprp = 8 + ipco + ipma;
    size_t hdlr = 33, pitm = 14, infe = 21, iinf = 14 + infe, iloc = 30;
    size_t meta = 12 + hdlr + pitm + iinf + iloc + iprp, ftyp = 24;
    size_t length = ftyp + meta + 8 + (size_t)coded;
    uint8_t *file = malloc(length);
    if (file == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory for a tile of the grid");
    int avif = g->layout.item_type == TV_FOURCC('a', 'v', '0', '1');
    uint8_t *p = tv_put_box(file, ftyp, "ftyp");
    memcpy(p, avif ? "avif" : "heic", 4);
    p = tv_put(p + 4, 0, 4);
    memcpy(p, "mif1", 4);
    memcpy(p + 4, avif ? "avif" : "heic", 4);
    p += 8;
    p = tv_put(tv_put_box(p, meta, "meta"), 0, 4);
    p = tv_put(tv_put_box(p, hdlr, "hdlr"), 0, 4);
    p = tv_put(p, 0, 4);
    memcpy(p, "pict", 4);
    p = tv_put(p + 4, 0, 12);
    *p++ = 0;
    p = tv_put(tv_put(tv_put_box(p, pitm, "pitm"), 0, 4), 1, 2);
    p = tv_put(tv_put(tv_put_box(p, iinf, "iinf"), 0, 4), 1, 2);
    p = tv_put(tv_put(tv_put(tv_put_box(p, infe, "infe"), 2u << 24, 4), 1, 2), 0, 2);
    p = tv_put(p, g->layout.item_type, 4);
    *p++ = 0;
    p = tv_put(tv_put_box(p, iloc, "iloc"), 0, 4);
    *p++ = 0x44; /* 4-byte offsets and lengths */
    *p++ = 0x00; /* no base offset */
    p = tv_put(tv_put(tv_put(tv_put(p, 1, 2), 1, 2), 0, 2), 1, 2);
    p = tv_put(tv_put(p, ftyp + meta + 8, 4), coded, 4);
    p = tv_put_box(tv_put_box(p, iprp, "iprp"), ipco, "ipco");
    for (uint32_t a = 0; a < tile->properties; a++) {
        const struct tv_heif_property *property = tv_property(g, g->association[tile->first_property + a]);
        memcpy(p, property->box, property->size);
        p += property->size;
    }
    p = tv_put(tv_put(tv_put_box(p, ipma, "ipma"), 0, 4), 1, 4);
    p = tv_put(tv_put(p, 1, 2), tile->properties, 1);
    for (uint32_t a = 0; a < tile->properties; a++) {
        /* The same essential flag; the index of the copy, in order. */
        uint16_t value = g->association[tile->first_property + a];
        *p++ = (uint8_t)((value >> 8 & 0x80) | (a + 1));
    }
    p = tv_put_box(p, 8 + (size_t)coded, "mdat");
    for (uint32_t e = 0; e < tile->extents; e++) {
        const struct tv_heif_extent *x = &g->extent[tile->first_extent + e];
        long long got = tv_input_read(d, x->offset, p, (size_t)x->length);
        if (got != (long long)x->length) {
            free(file);
            return tv_fail(err, got < 0 ? TV_ERR_IO : TV_ERR_TRUNCATED,
                           got < 0 ? "a tile's data cannot be read" : "a tile's data ends before its length");
        }
        p += x->length;
    }
    *out = file;
    *out_length = length;
    return TV_OK;
}
