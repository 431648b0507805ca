/* JPEG encoding through libjpeg-turbo's libjpeg API into a memory buffer, behind one setjmp. */

#include <stddef.h>
#include <stdio.h>

#include <jerror.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "shim_internal.h"

/* Rows handed to jpeg_write_scanlines per call. */
#define TV_JPEG_ENCODE_BATCH 16

struct tv_jpeg_encoder_error_manager {
    struct jpeg_error_mgr pub; /* must be first: libjpeg casts cinfo->err to this */
    jmp_buf jump;
    struct tv_jpeg_encoder *encoder;
};

struct tv_jpeg_encoder {
    struct jpeg_compress_struct cinfo;
    struct tv_jpeg_encoder_error_manager jerr;
    int created;
    /* jpeg_mem_dest's buffer: libjpeg-turbo allocates it with malloc and replaces it (freeing
     * the old one) as it grows; it stays ours, also after an error. */
    unsigned char *buffer;
    unsigned long length;
    tv_status failure;   /* set just before a longjmp */
    char failure_message[TV_MESSAGE_LEN];
};

/* Replaces libjpeg's error_exit, which would call exit(). */
static void tv_jpeg_encoder_error_exit(j_common_ptr cinfo) {
    struct tv_jpeg_encoder_error_manager *manager = (struct tv_jpeg_encoder_error_manager *)cinfo->err;
    struct tv_jpeg_encoder *e = manager->encoder;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    e->failure = tv_jpeg_status_of(cinfo->err->msg_code, TV_ERR_ARG);
    tv_copy_message(e->failure_message, text);
    longjmp(manager->jump, 1);
}

/* Warnings and trace messages of the compressor are not shown. */
static void tv_jpeg_encoder_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void tv_jpeg_encoder_release(struct tv_jpeg_encoder *e) {
    if (e->created) jpeg_destroy_compress(&e->cinfo);
    free(e->buffer);
    free(e);
}

tv_status tv_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride, int quality,
                         int grayscale, uint8_t **out, size_t *out_length, tv_error *err) {
    *out = NULL;
    *out_length = 0;
    if (width == 0 || height == 0) return tv_fail(err, TV_ERR_ARG, "a JPEG cannot be empty");
    if (stride < (size_t)width * 4) return tv_fail(err, TV_ERR_ARG, "the row stride is shorter than a row");
    if (quality < 1 || quality > 100) return tv_fail(err, TV_ERR_ARG, "the quality must be 1 ... 100");
    /* On the heap: the encoder changes after setjmp and is read after a longjmp. */
    struct tv_jpeg_encoder *e = calloc(1, sizeof *e);
    if (e == NULL) return tv_fail(err, TV_ERR_NOMEM, "out of memory");
    e->cinfo.err = jpeg_std_error(&e->jerr.pub);
    e->jerr.pub.error_exit = tv_jpeg_encoder_error_exit;
    e->jerr.pub.output_message = tv_jpeg_encoder_output_message;
    e->jerr.encoder = e;
    if (setjmp(e->jerr.jump)) {
        tv_status status = tv_fail(err, e->failure, e->failure_message);
        tv_jpeg_encoder_release(e);
        return status;
    }
    jpeg_create_compress(&e->cinfo);
    e->created = 1;
    jpeg_mem_dest(&e->cinfo, &e->buffer, &e->length);
    e->cinfo.image_width = width;
    e->cinfo.image_height = height;
    e->cinfo.input_components = 4;
    e->cinfo.in_color_space = JCS_EXT_RGBA; /* the alpha byte is skipped, not composited */
    jpeg_set_defaults(&e->cinfo);           /* YCbCr 4:2:0, ISLOW DCT, standard Huffman tables */
    if (grayscale) jpeg_set_colorspace(&e->cinfo, JCS_GRAYSCALE);
    jpeg_set_quality(&e->cinfo, quality, TRUE);
    jpeg_start_compress(&e->cinfo, TRUE);   /* refuses sides over 65500 (JERR_IMAGE_TOO_BIG) */
    JSAMPROW rows[TV_JPEG_ENCODE_BATCH];
    while (e->cinfo.next_scanline < height) {
        JDIMENSION first = e->cinfo.next_scanline;
        JDIMENSION count = height - first < TV_JPEG_ENCODE_BATCH ? height - first : TV_JPEG_ENCODE_BATCH;
        for (JDIMENSION i = 0; i < count; i++) {
            rows[i] = (JSAMPROW)(rgba + (size_t)(first + i) * stride); /* libjpeg only reads them */
        }
        jpeg_write_scanlines(&e->cinfo, rows, count);
    }
    jpeg_finish_compress(&e->cinfo);
    *out = e->buffer;
    *out_length = (size_t)e->length;
    e->buffer = NULL;
    tv_jpeg_encoder_release(e);
    return TV_OK;
}
