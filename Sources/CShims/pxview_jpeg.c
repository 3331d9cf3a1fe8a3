#include "pxview_jpeg.h"

#include "pxview_colour.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

/// Progressive scans read at most, as TurboJPEG's TJFLAG_LIMITSCANS: a
/// crafted file of thousands of tiny scans otherwise decodes for minutes.
static const int scan_limit = 500;

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    pxview_jpeg_result *result;
    struct jpeg_progress_mgr progress;
    int too_many_scans;
} error_manager;

static void on_progress(j_common_ptr cinfo) {
    error_manager *errors = (error_manager *)cinfo->err;
    if (!cinfo->is_decompressor || ((j_decompress_ptr)cinfo)->input_scan_number <= scan_limit) return;
    errors->too_many_scans = 1;
    snprintf(errors->result->message, sizeof errors->result->message,
             "Progressive JPEG image has more than %d scans", scan_limit);
    longjmp(errors->escape, 1);
}

/// Rows of the output shared between the decoding thread and a converting
/// one: bands are claimed under `lock` once decoded.
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    unsigned char *out;
    size_t stride;
    size_t width;
    size_t height;
    size_t decoded;
    size_t claimed;
    int finished;
    void *colour;
} converter;

/// Rows per band: 32 rows of a 2736-pixel-wide frame are 350 KB, still in
/// the cache the decoder wrote them through.
static const size_t band_rows = 32;

/// Claims the next band, waiting for the decoder unless `wait` is 0; 0 when
/// there is none (all claimed, or the decode ended).
static int claim(converter *c, int wait, size_t *first, size_t *count) {
    pthread_mutex_lock(&c->lock);
    while (wait && !c->finished && c->decoded - c->claimed < band_rows) pthread_cond_wait(&c->changed, &c->lock);
    size_t end = c->decoded <= c->claimed               ? c->claimed
                 : c->decoded - c->claimed < band_rows ? c->decoded
                                                       : c->claimed + band_rows;
    int found = end > c->claimed;
    *first = c->claimed;
    *count = end - c->claimed;
    c->claimed = end;
    pthread_mutex_unlock(&c->lock);
    return found;
}

static void convert_bands(converter *c, int wait) {
    size_t first, count;
    while (claim(c, wait, &first, &count)) pxview_colour_apply(c->colour, c->out + first * c->stride, count * c->width);
}

static void *converting_thread(void *context) {
    convert_bands(context, 1);
    return NULL;
}

/// After an error (or for a CMYK image): no band is handed out any more (`claimed` read under
/// the lock, where the converting thread changes it).
static void abandon(converter *c) {
    pthread_mutex_lock(&c->lock);
    c->decoded = c->claimed;
    c->finished = 1;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
}

/// The decoder's output, once libjpeg has sized it: no band is claimed before.
static void begin_rows(converter *c, unsigned char *out, size_t stride, size_t width, size_t height) {
    pthread_mutex_lock(&c->lock);
    c->out = out;
    c->stride = stride;
    c->width = width;
    c->height = height;
    pthread_mutex_unlock(&c->lock);
}

static void publish(converter *c, size_t decoded, int finished) {
    pthread_mutex_lock(&c->lock);
    c->decoded = decoded;
    c->finished = finished;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
}

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
    if (((error_manager *)cinfo->err)->too_many_scans) return PXVIEW_JPEG_CORRUPT;
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

/// The libjpeg calls, with errors caught: the only function here that
/// calls setjmp, and it changes no local after it (what it changes it
/// reaches through its arguments), so a longjmp leaves nothing
/// indeterminate; threads are started and joined by `run`. With `out`,
/// decodes every row, each band handed on through `shared` when the
/// image is not CMYK.
static pxview_jpeg_status guarded(struct jpeg_decompress_struct *cinfo, error_manager *errors,
                                  const unsigned char *data, size_t size, unsigned scale_num, unsigned scale_denom,
                                  unsigned char *out, converter *shared, pxview_jpeg_result *result) {
    if (setjmp(errors->escape)) {
        pxview_jpeg_status status = classify(cinfo);
        jpeg_destroy_decompress(cinfo);
        return status;
    }
    jpeg_create_decompress(cinfo);
    cinfo->progress = &errors->progress;
    start(cinfo, data, size, scale_num, scale_denom, result);
    if (out != NULL) {
        jpeg_start_decompress(cinfo);
        size_t stride = (size_t)cinfo->output_width * 4;
        if (shared != NULL && !result->cmyk) begin_rows(shared, out, stride, cinfo->output_width, cinfo->output_height);
        while (cinfo->output_scanline < cinfo->output_height) {
            JSAMPROW rows[8];
            int asked = 0;
            for (; asked < 8 && cinfo->output_scanline + asked < cinfo->output_height; asked++)
                rows[asked] = out + (size_t)(cinfo->output_scanline + asked) * stride;
            jpeg_read_scanlines(cinfo, rows, (JDIMENSION)asked);
            // `decoded` is written by this thread only: read without the lock.
            if (shared != NULL && !result->cmyk && cinfo->output_scanline - shared->decoded >= band_rows)
                publish(shared, cinfo->output_scanline, 0);
        }
        jpeg_finish_decompress(cinfo);
    }
    jpeg_destroy_decompress(cinfo);
    return PXVIEW_JPEG_OK;
}

/// Runs the header (and, with `out`, the whole decode, converting with
/// `colour` when it is not NULL: a second thread converts the bands
/// libjpeg finishes, this one what is left at the end).
static pxview_jpeg_status run(const unsigned char *data, size_t size, unsigned scale_num, unsigned scale_denom,
                              unsigned char *out, void *colour, pxview_jpeg_result *result) {
    memset(result, 0, sizeof *result);
    struct jpeg_decompress_struct cinfo;
    error_manager errors;
    memset(&errors, 0, sizeof errors);
    cinfo.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = on_error;
    errors.base.emit_message = on_message;
    errors.result = result;
    errors.progress.progress_monitor = on_progress;
    converter shared = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER, .colour = colour};
    int converting = out != NULL && colour != NULL;
    pthread_t helper;
    // The helper waits until the first band is decoded (or the decode ends).
    int helping = converting && pthread_create(&helper, NULL, converting_thread, &shared) == 0;
    pxview_jpeg_status status = guarded(&cinfo, &errors, data, size, scale_num, scale_denom, out,
                                        converting ? &shared : NULL, result);
    if (status == PXVIEW_JPEG_OK && converting && !result->cmyk) {
        publish(&shared, shared.height, 1);
        convert_bands(&shared, 0);
    } else {
        abandon(&shared);
    }
    if (helping) pthread_join(helper, NULL);
    pthread_mutex_destroy(&shared.lock);
    pthread_cond_destroy(&shared.changed);
    return status;
}

pxview_jpeg_status pxview_jpeg_header(const unsigned char *data, size_t size, unsigned scale_num, unsigned scale_denom,
                                      pxview_jpeg_result *result) {
    return run(data, size, scale_num, scale_denom, NULL, NULL, result);
}

pxview_jpeg_status pxview_jpeg_decode_into(const unsigned char *data, size_t size, unsigned scale_num,
                                           unsigned scale_denom, unsigned char *out, pxview_jpeg_result *result) {
    return run(data, size, scale_num, scale_denom, out, NULL, result);
}

pxview_jpeg_status pxview_jpeg_decode_converting(const unsigned char *data, size_t size, unsigned scale_num,
                                                 unsigned scale_denom, unsigned char *out, void *colour,
                                                 pxview_jpeg_result *result) {
    return run(data, size, scale_num, scale_denom, out, colour, result);
}
