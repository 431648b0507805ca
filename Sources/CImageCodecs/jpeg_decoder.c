/* JPEG decoding through libjpeg-turbo's libjpeg API: header, scaled start, column crop,
 * row skipping, row reading and finishing, each behind its own setjmp. */

#include <stddef.h>
#include <stdio.h>

#include <errno.h>
#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

struct tv_jpeg_error_manager {
    struct jpeg_error_mgr pub; /* must be first: libjpeg casts cinfo->err to this */
    jmp_buf jump;
    struct tv_jpeg_decoder *decoder;
};

/* The decoder's scan count (TV_JPEG_MAX_PASSES: an encoder's scripts go over the blocks about 6 times, jpegtran's
 * ten scans, but a 192 KB file of 2,647 valid scans that hold nothing but end-of-band runs made a 16 MP decode take
 * 10 s, and the spec lets scans repeat without end in a lenient decode). */
struct tv_jpeg_progress {
    struct jpeg_progress_mgr pub; /* first: libjpeg calls the monitor through cinfo->progress */
    struct tv_jpeg_scan_count count;
    struct tv_jpeg_decoder *decoder;
};

/* An APP1 or APP2 segment kept while the header is read (`tv_jpeg_app_marker`). */
struct tv_jpeg_piece {
    struct tv_jpeg_piece *next;
    int marker;
    size_t length;
    uint8_t data[];
};

struct tv_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct tv_jpeg_error_manager jerr;
    struct tv_jpeg_progress progress;
    FILE *file;
    int strict;
    int created;
    int started;
    int finished;
    int broken;
    int cmyk;            /* output is JCS_CMYK, converted to RGBA row by row */
    uint32_t rows_done;  /* rows finished by the read call in progress (read after a longjmp) */
    int skipped_to_end;  /* the rest of the image was skipped: nothing more is decoded */
    uint8_t *scratch_row; /* destination of rows decoded only to be dropped */
    tv_status failure;   /* set just before a longjmp */
    int failure_from_warning;
    char failure_message[TV_MESSAGE_LEN];
    struct tv_warning_log warnings;
    uint8_t *exif;
    size_t exif_length;
    uint8_t *icc;                       /* the APP2 profile, joined */
    size_t icc_length;
    const char *icc_problem;            /* why the APP2 markers were not taken */
    struct tv_jpeg_piece *pieces;       /* the APP1 and APP2 segments kept while the header is read, in order */
    size_t icc_piece_bytes;             /* of the ICC_PROFILE pieces kept */
    int icc_too_large;                  /* an ICC_PROFILE piece was left out: the profile is over TV_ICC_MAX_BYTES */
    const tv_color_transform *color;    /* applied to rows read; NULL: none */
    const uint8_t *data;                /* memory input (the caller's), or NULL */
    size_t length;
    int fd;                             /* the file's descriptor, read with pread by a decode in parts (-1: none) */
    uint8_t *file_bytes;                /* room for the whole file, for a decode in parts (while one is planned) */
    uint8_t *parts_rows;                /* the 1/8 scale decoded by parts: rows are copied from here (RGBA) */
    uint32_t parts_row, parts_crop_x, parts_crop_width;
};

/* Sorts a fatal libjpeg error into a status and a message a person can act on. */
static void tv_jpeg_classify(struct tv_jpeg_decoder *d, j_common_ptr cinfo, const char *text) {
    int code = cinfo->err->msg_code;
    int parameter = cinfo->err->msg_parm.i[0];
    d->failure_from_warning = 0;
    switch (code) {
    case JERR_BAD_PRECISION:
        d->failure = TV_ERR_UNSUPPORTED;
        snprintf(d->failure_message, TV_MESSAGE_LEN, "%d-bit JPEG is not supported (only 8-bit samples are)",
                 parameter);
        return;
    case JERR_SOF_UNSUPPORTED:
        d->failure = TV_ERR_UNSUPPORTED;
        if (parameter == 0xC3 || parameter == 0xC7 || parameter == 0xCB || parameter == 0xCF) {
            snprintf(d->failure_message, TV_MESSAGE_LEN, "lossless JPEG (SOF%d) is not supported", parameter - 0xC0);
        } else if (parameter == 0xC5 || parameter == 0xC6 || parameter == 0xCD || parameter == 0xCE) {
            snprintf(d->failure_message, TV_MESSAGE_LEN, "hierarchical JPEG (SOF%d) is not supported",
                     parameter - 0xC0);
        } else {
            snprintf(d->failure_message, TV_MESSAGE_LEN, "JPEG process SOF%d is not supported", parameter - 0xC0);
        }
        return;
    default:
        d->failure = tv_jpeg_status_of(code, TV_ERR_CORRUPT);
        break;
    }
    tv_copy_message(d->failure_message, text);
}

tv_status tv_jpeg_status_of(int msg_code, tv_status otherwise) {
    switch (msg_code) {
    case JERR_ARITH_NOTIMPL:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
        return TV_ERR_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE:
        return TV_ERR_NOMEM;
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return TV_ERR_LIMIT;
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
        return TV_ERR_TRUNCATED;
    case JERR_FILE_READ:
        return TV_ERR_IO;
    default:
        return otherwise;
    }
}

/* Replaces libjpeg's error_exit, which would call exit(). */
static void tv_jpeg_error_exit(j_common_ptr cinfo) {
    struct tv_jpeg_error_manager *manager = (struct tv_jpeg_error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    tv_jpeg_classify(manager->decoder, cinfo, text);
    longjmp(manager->jump, 1);
}

/* Replaces emit_message: level -1 is a warning about corrupt data (counted, kept, and fatal
 * in strict mode); levels 0 and up are trace messages (ignored). */
static void tv_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    struct tv_jpeg_error_manager *manager = (struct tv_jpeg_error_manager *)cinfo->err;
    struct tv_jpeg_decoder *d = manager->decoder;
    char text[JMSG_LENGTH_MAX];
    cinfo->err->num_warnings++;
    (*cinfo->err->format_message)(cinfo, text);
    tv_warning_log_add(&d->warnings, text);
    if (d->strict) {
        d->failure = cinfo->err->msg_code == JWRN_JPEG_EOF ? TV_ERR_TRUNCATED : TV_ERR_CORRUPT;
        d->failure_from_warning = 1;
        tv_copy_message(d->failure_message, text);
        longjmp(manager->jump, 1);
    }
}

static void tv_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

int tv_jpeg_scans_past_limit(struct jpeg_decompress_struct *cinfo, struct tv_jpeg_scan_count *count, char *message,
                             size_t size) {
    if (cinfo->input_scan_number == count->scan) return 0;
    count->scan = cinfo->input_scan_number;
    uint64_t blocks = 0;
    for (int c = 0; c < cinfo->num_components; c++) {
        blocks += (uint64_t)cinfo->comp_info[c].width_in_blocks * cinfo->comp_info[c].height_in_blocks;
    }
    for (int c = 0; c < cinfo->comps_in_scan; c++) {
        count->visits += (uint64_t)cinfo->cur_comp_info[c]->width_in_blocks * cinfo->cur_comp_info[c]->height_in_blocks;
    }
    if (count->visits <= TV_JPEG_MAX_PASSES * blocks) return 0;
    snprintf(message, size,
             "a progressive JPEG whose scans go over its blocks more than %d times (at scan %d): far more work than "
             "an encoder asks for",
             TV_JPEG_MAX_PASSES, cinfo->input_scan_number);
    return 1;
}

/* Stops a decode whose scans go over the image's blocks more than TV_JPEG_MAX_PASSES times together. */
static void tv_jpeg_progress_monitor(j_common_ptr common) {
    struct tv_jpeg_progress *progress = (struct tv_jpeg_progress *)common->progress;
    struct tv_jpeg_decoder *d = progress->decoder;
    if (!tv_jpeg_scans_past_limit((j_decompress_ptr)common, &progress->count, d->failure_message,
                                  sizeof d->failure_message)) {
        return;
    }
    d->failure = TV_ERR_UNSUPPORTED;
    d->failure_from_warning = 0;
    longjmp(d->jerr.jump, 1);
}

/* The error path after a longjmp: the handle is unusable from now on. */
static tv_status tv_jpeg_failed(struct tv_jpeg_decoder *d, tv_error *err) {
    d->broken = 1;
    if (err != NULL) {
        tv_copy_message(err->message, d->failure_message);
        err->from_warning = d->failure_from_warning;
    }
    return d->failure;
}

static tv_status tv_jpeg_check(const struct tv_jpeg_decoder *d, tv_error *err) {
    return d == NULL ? tv_fail(err, TV_ERR_ARG, "no decoder") : tv_decoder_usable(d->broken, d->finished, err);
}

static tv_jpeg_color tv_jpeg_color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return TV_JPEG_COLOR_GRAY;
    case JCS_RGB: return TV_JPEG_COLOR_RGB;
    case JCS_YCbCr: return TV_JPEG_COLOR_YCBCR;
    case JCS_CMYK: return TV_JPEG_COLOR_CMYK;
    case JCS_YCCK: return TV_JPEG_COLOR_YCCK;
    default: return TV_JPEG_COLOR_UNKNOWN;
    }
}

/* Keeps a copy of the TIFF payload of the first APP1 segment that starts with "Exif\0\0". */
static const uint8_t tv_exif_signature[6] = {'E', 'x', 'i', 'f', 0, 0};
static const uint8_t tv_icc_signature[12] = {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0};

/* The next byte of the segment being read: the sources here never suspend (at the end of the data they give a fake
 * EOI, with a warning, which a strict decode stops at). */
static uint8_t tv_jpeg_next_byte(j_decompress_ptr cinfo) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (src->bytes_in_buffer == 0) (*src->fill_input_buffer)(cinfo);
    src->bytes_in_buffer--;
    return *src->next_input_byte++;
}

/* Reads an APP1 or APP2 segment and keeps it only when it is used: the first APP1 "Exif", and APP2 "ICC_PROFILE"
 * pieces while they hold at most TV_ICC_MAX_BYTES together; every other one is skipped. (libjpeg's
 * jpeg_save_markers keeps every segment of a kind: a 64 MB file of APP1 segments held 64 MB per decode.) */
static boolean tv_jpeg_app_marker(j_decompress_ptr cinfo) {
    struct tv_jpeg_decoder *d = ((struct tv_jpeg_error_manager *)cinfo->err)->decoder;
    const int marker = cinfo->unread_marker;
    size_t length = (size_t)tv_jpeg_next_byte(cinfo) << 8;
    length |= tv_jpeg_next_byte(cinfo);
    length = length >= 2 ? length - 2 : 0;
    uint8_t head[14];
    const size_t have = length < sizeof head ? length : sizeof head;
    for (size_t i = 0; i < have; i++) head[i] = tv_jpeg_next_byte(cinfo);
    int keep = 0;
    if (marker == JPEG_APP0 + 1) {
        keep = have >= 6 && memcmp(head, tv_exif_signature, 6) == 0;
        for (struct tv_jpeg_piece *p = d->pieces; p != NULL && keep; p = p->next) keep = p->marker != marker;
    } else if (have == 14 && memcmp(head, tv_icc_signature, 12) == 0) {
        keep = d->icc_piece_bytes + (length - 14) <= TV_ICC_MAX_BYTES;
        d->icc_too_large |= !keep;
    }
    struct tv_jpeg_piece *piece = keep ? malloc(sizeof *piece + length) : NULL;
    if (piece == NULL) {
        if (length > have) (*cinfo->src->skip_input_data)(cinfo, (long)(length - have));
        return TRUE;
    }
    piece->next = NULL;
    piece->marker = marker;
    piece->length = length;
    memcpy(piece->data, head, have);
    /* Listed first: the end of the data may jump out of the reads below, and tv_jpeg_close frees the list. */
    struct tv_jpeg_piece **end = &d->pieces;
    while (*end != NULL) end = &(*end)->next;
    *end = piece;
    if (marker == JPEG_APP0 + 2) d->icc_piece_bytes += length - 14;
    for (size_t at = have; at < length;) {
        struct jpeg_source_mgr *src = cinfo->src;
        if (src->bytes_in_buffer == 0) (*src->fill_input_buffer)(cinfo);
        size_t n = src->bytes_in_buffer < length - at ? src->bytes_in_buffer : length - at;
        memcpy(piece->data + at, src->next_input_byte, n);
        src->next_input_byte += n;
        src->bytes_in_buffer -= n;
        at += n;
    }
    return TRUE;
}

static void tv_jpeg_free_pieces(struct tv_jpeg_decoder *d) {
    while (d->pieces != NULL) {
        struct tv_jpeg_piece *next = d->pieces->next;
        free(d->pieces);
        d->pieces = next;
    }
}

static void tv_jpeg_keep_exif(struct tv_jpeg_decoder *d) {
    for (struct tv_jpeg_piece *m = d->pieces; m != NULL; m = m->next) {
        if (m->marker != JPEG_APP0 + 1) continue;
        size_t length = m->length - 6;
        d->exif = malloc(length > 0 ? length : 1);
        if (d->exif != NULL) {
            memcpy(d->exif, m->data + 6, length);
            d->exif_length = length;
        }
        return;
    }
}

/* Joins the APP2 "ICC_PROFILE\0" markers (sequence number, count, then a piece of the profile each) in their
 * sequence. A profile over TV_ICC_MAX_BYTES is refused (its pieces past the limit were not kept). */
static void tv_jpeg_keep_icc(struct tv_jpeg_decoder *d) {
    if (d->icc_too_large) {
        d->icc_problem = "its ICC profile is larger than the 4 MiB accepted";
        return;
    }
    struct tv_jpeg_piece *pieces[256] = {0};
    int count = 0, seen = 0;
    size_t total = 0;
    for (struct tv_jpeg_piece *m = d->pieces; m != NULL; m = m->next) {
        if (m->marker != JPEG_APP0 + 2) continue;
        int sequence = m->data[12], of = m->data[13];
        if (of == 0 || sequence == 0 || sequence > of || (count != 0 && of != count)) {
            d->icc_problem = "its APP2 ICC_PROFILE markers are numbered inconsistently";
            return;
        }
        if (pieces[sequence] != NULL) {
            d->icc_problem = "two of its APP2 ICC_PROFILE markers have the same number";
            return;
        }
        count = of;
        pieces[sequence] = m;
        seen++;
        total += m->length - 14;
    }
    if (seen == 0) return;
    if (seen != count) {
        d->icc_problem = "some of its APP2 ICC_PROFILE markers are missing";
        return;
    }
    d->icc = malloc(total > 0 ? total : 1);
    if (d->icc == NULL) {
        d->icc_problem = "out of memory for its ICC profile";
        return;
    }
    size_t at = 0;
    for (int i = 1; i <= count; i++) {
        memcpy(d->icc + at, pieces[i]->data + 14, pieces[i]->length - 14);
        at += pieces[i]->length - 14;
    }
    d->icc_length = total;
}

const uint8_t *tv_jpeg_icc(const tv_jpeg_decoder *d, size_t *length, const char **problem) {
    *length = d != NULL ? d->icc_length : 0;
    *problem = d != NULL ? d->icc_problem : NULL;
    return d != NULL ? d->icc : NULL;
}

void tv_jpeg_set_color(tv_jpeg_decoder *d, const tv_color_transform *transform) {
    if (d != NULL && !d->started) d->color = transform;
}

static tv_status tv_jpeg_open(const uint8_t *data, size_t length, FILE *file, int strict,
                              tv_jpeg_decoder **decoder, tv_jpeg_header *header, tv_error *err) {
    *decoder = NULL;
    struct tv_jpeg_decoder *d = calloc(1, sizeof *d);
    if (d == NULL) {
        if (file != NULL) fclose(file);
        return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    d->file = file;
    d->fd = file != NULL ? fileno(file) : -1;
    d->data = data;
    d->length = length;
    d->strict = strict;
    d->cinfo.err = jpeg_std_error(&d->jerr.pub);
    d->jerr.pub.error_exit = tv_jpeg_error_exit;
    d->jerr.pub.emit_message = tv_jpeg_emit_message;
    d->jerr.pub.output_message = tv_jpeg_output_message;
    d->jerr.decoder = d;
    if (setjmp(d->jerr.jump)) {
        tv_status status = tv_jpeg_failed(d, err);
        tv_jpeg_close(d);
        return status;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    d->progress.pub.progress_monitor = tv_jpeg_progress_monitor;
    d->progress.decoder = d;
    d->cinfo.progress = &d->progress.pub;
    if (file != NULL) {
        jpeg_stdio_src(&d->cinfo, file);
    } else {
        jpeg_mem_src(&d->cinfo, data, (unsigned long)length);
    }
    jpeg_set_marker_processor(&d->cinfo, JPEG_APP0 + 1, tv_jpeg_app_marker);
    jpeg_set_marker_processor(&d->cinfo, JPEG_APP0 + 2, tv_jpeg_app_marker);
    jpeg_read_header(&d->cinfo, TRUE);

    memset(header, 0, sizeof *header);
    header->width = d->cinfo.image_width;
    header->height = d->cinfo.image_height;
    header->components = d->cinfo.num_components;
    header->precision = d->cinfo.data_precision;
    header->color = tv_jpeg_color_of(d->cinfo.jpeg_color_space);
    header->progressive = d->cinfo.progressive_mode ? 1 : 0;
    header->arithmetic = d->cinfo.arith_code ? 1 : 0;
    for (int i = 0; i < d->cinfo.num_components && i < 4; i++) {
        header->h_sampling[i] = d->cinfo.comp_info[i].h_samp_factor;
        header->v_sampling[i] = d->cinfo.comp_info[i].v_samp_factor;
    }
    header->adobe = d->cinfo.saw_Adobe_marker ? 1 : 0;
    tv_jpeg_keep_exif(d);
    tv_jpeg_keep_icc(d);
    tv_jpeg_free_pieces(d);

    if (header->color == TV_JPEG_COLOR_UNKNOWN) {
        char text[TV_MESSAGE_LEN];
        snprintf(text, sizeof text, "JPEG with %d components in an unknown colour space is not supported",
                 d->cinfo.num_components);
        tv_jpeg_close(d);
        return tv_fail(err, TV_ERR_UNSUPPORTED, text);
    }
    d->cmyk = header->color == TV_JPEG_COLOR_CMYK || header->color == TV_JPEG_COLOR_YCCK;
    *decoder = d;
    return TV_OK;
}

tv_status tv_jpeg_open_memory(const uint8_t *data, size_t length, int strict, tv_jpeg_decoder **decoder,
                              tv_jpeg_header *header, tv_error *err) {
    *decoder = NULL;
    if (data == NULL || length == 0) return tv_fail(err, TV_ERR_TRUNCATED, "the data is empty");
    return tv_jpeg_open(data, length, NULL, strict, decoder, header, err);
}

tv_status tv_jpeg_open_file(const char *path, int strict, tv_jpeg_decoder **decoder, tv_jpeg_header *header,
                            tv_error *err) {
    *decoder = NULL;
    FILE *file = tv_fopen_regular(path, err);
    if (file == NULL) return TV_ERR_IO;
    return tv_jpeg_open(NULL, 0, file, strict, decoder, header, err);
}

tv_status tv_jpeg_open_descriptor(int fd, int strict, tv_jpeg_decoder **decoder, tv_jpeg_header *header,
                                  tv_error *err) {
    *decoder = NULL;
    FILE *file = tv_fopen_descriptor(fd, err);
    if (file == NULL) return TV_ERR_IO;
    tv_status status = tv_jpeg_open(NULL, 0, file, strict, decoder, header, err);
    /* The stream reads a duplicate of its own; the caller keeps `fd` open while the decoder lives. */
    if (status == TV_OK) (*decoder)->fd = fd;
    return status;
}

const uint8_t *tv_jpeg_exif(const tv_jpeg_decoder *d, size_t *length) {
    *length = d != NULL ? d->exif_length : 0;
    return d != NULL ? d->exif : NULL;
}

/* The decompression settings every decode uses, and the output size they give. */
static void tv_jpeg_settings(struct tv_jpeg_decoder *d, unsigned scale_num) {
    d->cinfo.scale_num = scale_num;
    d->cinfo.scale_denom = 8;
    d->cinfo.dct_method = JDCT_ISLOW;
    d->cinfo.do_fancy_upsampling = TRUE;
    d->cinfo.out_color_space = d->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(&d->cinfo);
}

tv_jpeg_parts *tv_jpeg_parts_plan(tv_jpeg_decoder *d, int parts, size_t min_part_bytes, size_t max_bytes,
                                  int keep_index) {
    if (d == NULL || d->broken || d->started || d->finished || d->cmyk || parts < 2 || d->parts_rows != NULL) {
        return NULL;
    }
    struct jpeg_decompress_struct *c = &d->cinfo;
    int gray = c->jpeg_color_space == JCS_GRAYSCALE && c->num_components == 1;
    int ycc = c->jpeg_color_space == JCS_YCbCr && c->num_components == 3;
    if ((!gray && !ycc) || c->progressive_mode || c->arith_code || c->data_precision != 8) return NULL;
    if (setjmp(d->jerr.jump)) return NULL;
    tv_jpeg_settings(d, 1);
    struct tv_eighth_facts facts;
    memset(&facts, 0, sizeof facts);
    facts.gray = gray;
    facts.chroma_2x2 = ycc && c->comp_info[1].DCT_scaled_size == 2;
    for (int i = 0; i < c->num_components; i++) {
        /* libjpeg's own choice of transform sizes: 1x1 for luma, the same for both chroma components. */
        int expected = i == 0 ? 1 : facts.chroma_2x2 ? 2 : 1;
        JQUANT_TBL *table = c->quant_tbl_ptrs[c->comp_info[i].quant_tbl_no & 3];
        if (c->comp_info[i].DCT_scaled_size != expected || table == NULL) return NULL;
        for (int k = 0; k < 64; k++) facts.quant[i][k] = (int16_t)table->quantval[k];
    }
    facts.out_width = c->output_width;
    facts.out_height = c->output_height;
    facts.max_bytes = max_bytes;
    facts.keep_index = keep_index;
    if (d->data != NULL) {
        facts.data = d->data;
        facts.length = d->length;
        facts.fd = -1;
    } else {
        /* Room for the whole file: the plan reads the header, each part its share. */
        long long size = tv_stream_length(d->file);
        if (d->fd < 0 || size <= 0 || size > (64ll << 20) || (unsigned long long)size > max_bytes) return NULL;
        d->file_bytes = malloc((size_t)size);
        if (d->file_bytes == NULL) return NULL;
        facts.data = d->file_bytes;
        facts.length = (size_t)size;
        facts.fd = d->fd;
        facts.held_bytes = facts.length;
    }
    struct tv_eighth *plan = tv_eighth_plan(&facts, parts, min_part_bytes);
    if (plan == NULL) {
        free(d->file_bytes);
        d->file_bytes = NULL;
    }
    return plan;
}

int tv_jpeg_parts_count(const tv_jpeg_parts *plan) { return tv_eighth_part_count(plan); }

void tv_jpeg_parts_run(tv_jpeg_parts *plan, int part) { tv_eighth_run(plan, part); }

int tv_jpeg_parts_join(tv_jpeg_parts *plan) { return tv_eighth_join(plan); }

void tv_jpeg_parts_rows(tv_jpeg_parts *plan, int band) { tv_eighth_rows(plan, band); }

int tv_jpeg_parts_index(const tv_jpeg_parts *plan, uint8_t **out, size_t *length) {
    return tv_eighth_index(plan, out, length);
}

int tv_jpeg_parts_finish(tv_jpeg_decoder *d, tv_jpeg_parts *plan) {
    int joined;
    uint8_t *rows = tv_eighth_take(plan, &joined);
    free(d->file_bytes);
    d->file_bytes = NULL;
    if (rows == NULL) return 0;
    d->parts_rows = rows;
    d->parts_row = 0;
    return joined;
}

tv_status tv_jpeg_start(tv_jpeg_decoder *d, unsigned scale_num, uint32_t crop_x, uint32_t crop_width,
                        tv_jpeg_window *window, tv_error *err) {
    tv_status status = tv_jpeg_check(d, err);
    if (status != TV_OK) return status;
    if (d->started) return tv_fail(err, TV_ERR_STATE, "decompression has already started");
    if (scale_num < 1 || scale_num > 16) return tv_fail(err, TV_ERR_ARG, "the scale must be 1/8 ... 16/8");
    if (setjmp(d->jerr.jump)) return tv_jpeg_failed(d, err);

    tv_jpeg_settings(d, scale_num);
    uint32_t scaled_width = d->cinfo.output_width;
    if (crop_width > 0 && (crop_x >= scaled_width || crop_width > scaled_width - crop_x)) {
        return tv_fail(err, TV_ERR_ARG, "the column crop lies outside the scaled image");
    }
    if (d->parts_rows != NULL && scale_num != 1) {
        free(d->parts_rows);
        d->parts_rows = NULL;
    }
    if (d->parts_rows != NULL) {
        /* Decoded in parts already: rows are copied, any columns. libjpeg still starts, so that what it checks
         * before reading the scan (its Huffman tables' symbols among them) fails as it would. */
        jpeg_start_decompress(&d->cinfo);
        d->started = 1;
        window->scaled_width = scaled_width;
        window->scaled_height = d->cinfo.output_height;
        d->parts_crop_x = crop_width > 0 ? crop_x : 0;
        d->parts_crop_width = crop_width > 0 ? crop_width : scaled_width;
        window->crop_x = d->parts_crop_x;
        window->crop_width = d->parts_crop_width;
        return TV_OK;
    }
    jpeg_start_decompress(&d->cinfo);
    d->started = 1;
    window->scaled_width = scaled_width;
    window->scaled_height = d->cinfo.output_height;
    window->crop_x = 0;
    window->crop_width = scaled_width;
    if (crop_width > 0 && crop_width < scaled_width) {
        JDIMENSION x = crop_x;
        JDIMENSION width = crop_width;
        jpeg_crop_scanline(&d->cinfo, &x, &width);
        window->crop_x = x;
        window->crop_width = width;
    }
    return TV_OK;
}

/* Output rows per iMCU row: libjpeg's own unit for skipping. */
static uint32_t tv_jpeg_imcu_rows(const struct tv_jpeg_decoder *d) {
#if JPEG_LIB_VERSION >= 70
    return (uint32_t)(d->cinfo.max_v_samp_factor * d->cinfo.min_DCT_v_scaled_size);
#else
    return (uint32_t)(d->cinfo.max_v_samp_factor * d->cinfo.min_DCT_scaled_size);
#endif
}

/* Decodes `rows` rows into the scratch row and drops them. */
static void tv_jpeg_discard_rows(struct tv_jpeg_decoder *d, uint32_t rows) {
    for (uint32_t i = 0; i < rows; i++) {
        JSAMPROW row = d->scratch_row;
        if (jpeg_read_scanlines(&d->cinfo, &row, 1) == 0) return;
    }
}

/* jpeg_skip_scanlines() in libjpeg-turbo before 3.1 returns wrong rows after a skip that
 * begins inside an iMCU row following an earlier skip (upstream issue #915: stale rows and
 * rows_to_go). So libjpeg is only asked to skip whole iMCU rows from an iMCU boundary; the
 * rows before the first boundary and after the last are decoded and dropped (at most one
 * iMCU row, 8 to 32 rows, at each end). Skipping to the bottom decodes nothing: the
 * decoder then only aborts. */
tv_status tv_jpeg_skip_rows(tv_jpeg_decoder *d, uint32_t rows, uint32_t *skipped, tv_error *err) {
    *skipped = 0;
    tv_status status = tv_jpeg_check(d, err);
    if (status != TV_OK) return status;
    if (!d->started) return tv_fail(err, TV_ERR_STATE, "decompression has not started");
    if (d->skipped_to_end || rows == 0) return TV_OK;
    if (d->parts_rows != NULL) {
        uint32_t left = d->cinfo.output_height - d->parts_row;
        *skipped = rows < left ? rows : left;
        d->parts_row += *skipped;
        return TV_OK;
    }
    uint32_t remaining = d->cinfo.output_height - d->cinfo.output_scanline;
    if (rows >= remaining) {
        d->skipped_to_end = 1;
        *skipped = remaining;
        return TV_OK;
    }
    if (d->scratch_row == NULL) {
        d->scratch_row = malloc((size_t)d->cinfo.output_width * 4);
        if (d->scratch_row == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    }
    if (setjmp(d->jerr.jump)) return tv_jpeg_failed(d, err);
    JDIMENSION start = d->cinfo.output_scanline;
    uint32_t unit = tv_jpeg_imcu_rows(d);
    uint32_t lead = unit > 0 ? (unit - start % unit) % unit : 0;
    if (lead > rows) lead = rows;
    tv_jpeg_discard_rows(d, lead);
    uint32_t whole = unit > 0 ? (rows - lead) / unit * unit : 0;
    if (whole > 0) jpeg_skip_scanlines(&d->cinfo, whole);
    JDIMENSION target = start + rows;
    if (d->cinfo.output_scanline < target) tv_jpeg_discard_rows(d, target - d->cinfo.output_scanline);
    *skipped = d->cinfo.output_scanline - start;
    return TV_OK;
}

/* djpeg's rule (cmyk.h): R = (JSAMPLE)(C * K / 255.0 + 0.5), likewise G with M and B with Y;
 * in integers that is (C * K + 127) / 255. */
static void tv_cmyk_to_rgba(uint8_t *pixel, JDIMENSION width) {
    for (JDIMENSION i = 0; i < width; i++, pixel += 4) {
        unsigned k = pixel[3];
        pixel[0] = (uint8_t)((pixel[0] * k + 127) / 255);
        pixel[1] = (uint8_t)((pixel[1] * k + 127) / 255);
        pixel[2] = (uint8_t)((pixel[2] * k + 127) / 255);
        pixel[3] = 0xFF;
    }
}

tv_status tv_jpeg_read_rows(tv_jpeg_decoder *d, uint8_t *dst, size_t stride, uint32_t rows, uint32_t *done,
                            tv_error *err) {
    *done = 0;
    tv_status status = tv_jpeg_check(d, err);
    if (status != TV_OK) return status;
    if (!d->started) return tv_fail(err, TV_ERR_STATE, "decompression has not started");
    d->rows_done = 0;
    if (d->parts_rows != NULL) {
        const size_t width = d->cinfo.output_width;
        for (; d->rows_done < rows && d->parts_row < d->cinfo.output_height; d->rows_done++, d->parts_row++) {
            uint8_t *row = dst + (size_t)d->rows_done * stride;
            memcpy(row, d->parts_rows + ((size_t)d->parts_row * width + d->parts_crop_x) * 4,
                   (size_t)d->parts_crop_width * 4);
            if (d->color != NULL) tv_color_apply(d->color, row, stride, d->parts_crop_width, 1);
        }
        *done = d->rows_done;
        return TV_OK;
    }
    if (setjmp(d->jerr.jump)) {
        *done = d->rows_done;
        return tv_jpeg_failed(d, err);
    }
    enum { batch = 16 };
    JSAMPROW pointers[batch];
    while (!d->skipped_to_end && d->rows_done < rows && d->cinfo.output_scanline < d->cinfo.output_height) {
        uint32_t want = rows - d->rows_done;
        if (want > batch) want = batch;
        for (uint32_t i = 0; i < want; i++) pointers[i] = dst + (size_t)(d->rows_done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(&d->cinfo, pointers, want);
        if (got == 0) break;
        if (d->color != NULL) {
            tv_color_apply(d->color, pointers[0], stride, d->cinfo.output_width, got);
        } else if (d->cmyk) {
            for (JDIMENSION i = 0; i < got; i++) tv_cmyk_to_rgba(pointers[i], d->cinfo.output_width);
        }
        d->rows_done += got;
    }
    *done = d->rows_done;
    return TV_OK;
}

tv_status tv_jpeg_finish(tv_jpeg_decoder *d, tv_error *err) {
    tv_status status = tv_jpeg_check(d, err);
    if (status != TV_OK) return status;
    if (setjmp(d->jerr.jump)) return tv_jpeg_failed(d, err);
    d->finished = 1;
    if (!d->started || d->parts_rows != NULL || d->cinfo.output_scanline < d->cinfo.output_height) {
        /* Rows decoded by parts were checked to the EOI when they were made. */
        jpeg_abort_decompress(&d->cinfo);
        return TV_OK;
    }
    jpeg_finish_decompress(&d->cinfo);
    if (d->strict && d->cinfo.err->num_warnings > 0) {
        /* emit_message already stops a strict decoder at the first warning: this is a second guard. */
        d->broken = 1;
        tv_status failure = tv_fail(err, TV_ERR_CORRUPT, tv_warning_log_text(&d->warnings, 0));
        if (err != NULL) err->from_warning = 1;
        return failure;
    }
    return TV_OK;
}

const tv_warning_log *tv_jpeg_warnings(const tv_jpeg_decoder *d) { return d != NULL ? &d->warnings : NULL; }

void tv_jpeg_close(tv_jpeg_decoder *d) {
    if (d == NULL) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    if (d->file != NULL) fclose(d->file);
    tv_jpeg_free_pieces(d);
    free(d->exif);
    free(d->icc);
    free(d->scratch_row);
    free(d->file_bytes);
    free(d->parts_rows);
    free(d);
}
