#include "pxview_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    pxview_jpeg_result *result;
} error_manager;

static void on_error(j_common_ptr cinfo) {
    error_manager *errors = (error_manager *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    errors->base.format_message(cinfo, text);
    snprintf(errors->result->message, sizeof errors->result->message, "%s", text);
    longjmp(errors->escape, 1);
}

/// Level -1 is a warning (corrupt data recovered from); trace messages are ignored.
static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    error_manager *errors = (error_manager *)cinfo->err;
    if (errors->result->warnings++ == 0) {
        char text[JMSG_LENGTH_MAX];
        errors->base.format_message(cinfo, text);
        snprintf(errors->result->message, sizeof errors->result->message, "%s", text);
    }
}

static pxview_jpeg_status classify(struct jpeg_decompress_struct *cinfo) {
    int code = cinfo->err->msg_code;
    if (code == JERR_OUT_OF_MEMORY) return PXVIEW_JPEG_NO_MEMORY;
    if (code == JERR_BAD_PRECISION || code == JERR_NOT_COMPILED || code == JERR_NO_ARITH_TABLE) {
        return PXVIEW_JPEG_UNSUPPORTED;
    }
    return PXVIEW_JPEG_CORRUPT;
}

/// Header, scale and output colour space; the caller has set up errors.
static void start(struct jpeg_decompress_struct *cinfo, const unsigned char *data, size_t size, unsigned scale_num,
                  unsigned scale_denom, pxview_jpeg_result *result) {
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    result->width = cinfo->image_width;
    result->height = cinfo->image_height;
    cinfo->scale_num = scale_num == 0 ? 1 : scale_num;
    cinfo->scale_denom = scale_denom == 0 ? 1 : scale_denom;
    result->cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = result->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(cinfo);
    result->output_width = cinfo->output_width;
    result->output_height = cinfo->output_height;
}

/// Runs the header (and, with `out`, the whole decode) with errors caught.
static pxview_jpeg_status run(const unsigned char *data, size_t size, unsigned scale_num, unsigned scale_denom,
                              unsigned char *out, pxview_jpeg_result *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct cinfo;
    error_manager errors;
    cinfo.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = on_error;
    errors.base.emit_message = on_message;
    errors.result = result;
    if (setjmp(errors.escape)) {
        pxview_jpeg_status status = classify(&cinfo);
        jpeg_destroy_decompress(&cinfo);
        return status;
    }
    jpeg_create_decompress(&cinfo);
    start(&cinfo, data, size, scale_num, scale_denom, result);
    if (out != NULL) {
        jpeg_start_decompress(&cinfo);
        size_t stride = (size_t)cinfo.output_width * 4;
        while (cinfo.output_scanline < cinfo.output_height) {
            JSAMPROW row = out + (size_t)cinfo.output_scanline * stride;
            jpeg_read_scanlines(&cinfo, &row, 1);
        }
        jpeg_finish_decompress(&cinfo);
    }
    jpeg_destroy_decompress(&cinfo);
    return PXVIEW_JPEG_OK;
}

pxview_jpeg_status pxview_jpeg_header(const unsigned char *data, size_t size, unsigned scale_num, unsigned scale_denom,
                                      pxview_jpeg_result *result) {
    return run(data, size, scale_num, scale_denom, NULL, result);
}

pxview_jpeg_status pxview_jpeg_decode_into(const unsigned char *data, size_t size, unsigned scale_num,
                                           unsigned scale_denom, unsigned char *out, pxview_jpeg_result *result) {
    return run(data, size, scale_num, scale_denom, out, result);
}
