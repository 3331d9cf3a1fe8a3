#include <gif_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pxview_codec_support.h"

/// GIF through giflib 5.2's record API, composited here as browsers do:
/// the canvas starts transparent; each frame's Graphics Control Extension
/// gives its delay (centiseconds), transparent index and disposal: 0/1 keep
/// the frame, 2 clears its rectangle to transparent (not the background
/// colour, which browsers ignore too), 3 restores what was under it. Local
/// colour tables win over the global one, interlaced rows are put back in
/// order, and frames are clipped to the logical screen. Pixels are read a
/// row at a time into a row buffer: no full-frame raster is ever allocated,
/// so memory is the canvas (checked by the caller) plus one saved copy for
/// disposal 3.
typedef struct gif_decoder {
    GifFileType *gif;
    const unsigned char *data;
    size_t size;
    size_t offset;
    int ran_out;
    unsigned width, height;
    unsigned char *canvas;    ///< width x height RGBA, the composited picture so far
    unsigned char *saved;     ///< the canvas before the last frame, for its disposal 3
    unsigned char *row;       ///< one row of colour indices
    size_t row_capacity;
    /// The last frame drawn: its rectangle (clipped) and disposal, applied before the next.
    unsigned last_left, last_top, last_width, last_height;
    int last_disposal;
    int frames_drawn;
} gif_decoder;

static int read_bytes(GifFileType *gif, GifByteType *out, int length) {
    gif_decoder *decoder = (gif_decoder *)gif->UserData;
    size_t wanted = length < 0 ? 0 : (size_t)length;
    size_t left = decoder->size - decoder->offset;
    size_t count = wanted < left ? wanted : left;
    memcpy(out, decoder->data + decoder->offset, count);
    decoder->offset += count;
    if (count < wanted) decoder->ran_out = 1;
    return (int)count;
}

static pxview_codec_status gif_failure(gif_decoder *decoder, int code, pxview_codec_info *info) {
    pxview_codec_message(info, GifErrorString(code));
    if (decoder->ran_out || code == D_GIF_ERR_READ_FAILED) return PXVIEW_CODEC_TRUNCATED;
    if (code == D_GIF_ERR_NOT_ENOUGH_MEM) return PXVIEW_CODEC_NO_MEMORY;
    return PXVIEW_CODEC_CORRUPT;
}

void pxview_gif_close(void *handle) {
    gif_decoder *decoder = handle;
    if (!decoder) return;
    if (decoder->gif) DGifCloseFile(decoder->gif, NULL);
    free(decoder->canvas);
    free(decoder->saved);
    free(decoder->row);
    free(decoder);
}

pxview_codec_status pxview_gif_open(const unsigned char *data, size_t size, pxview_codec_info *info, void **out) {
    pxview_codec_clear(info);
    *out = NULL;
    gif_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return PXVIEW_CODEC_NO_MEMORY;
    decoder->data = data;
    decoder->size = size;
    int error = 0;
    decoder->gif = DGifOpen(decoder, read_bytes, &error);
    if (!decoder->gif) {
        pxview_codec_status status = gif_failure(decoder, error, info);
        pxview_gif_close(decoder);
        return status;
    }
    decoder->width = (unsigned)(decoder->gif->SWidth > 0 ? decoder->gif->SWidth : 0);
    decoder->height = (unsigned)(decoder->gif->SHeight > 0 ? decoder->gif->SHeight : 0);
    info->width = decoder->width;
    info->height = decoder->height;
    info->frame_count = 0;  // the Swift side counts them by walking the blocks
    info->loop_count = 0;
    info->reduces = 1;
    *out = decoder;
    return PXVIEW_CODEC_OK;
}

/// The row of the frame that the `index`th row read holds: interlaced GIFs
/// store rows 0, 8, 16…, then 4, 12…, then 2, 6…, then 1, 3….
static unsigned interlaced_row(unsigned index, unsigned height) {
    static const unsigned start[4] = {0, 4, 2, 1};
    static const unsigned step[4] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        unsigned rows = height > start[pass] ? (height - start[pass] + step[pass] - 1) / step[pass] : 0;
        if (index < rows) return start[pass] + index * step[pass];
        index -= rows;
    }
    return height;  // not reached for index < height
}

/// Rows of the canvas in, rows reduced by `factor` out: each output pixel the
/// alpha-weighted average of its factor x factor block, as the PNG decoder
/// reduces (CShims/pxview_png.c), so a still GIF shown smaller never has its
/// whole canvas in memory. GIF pixels are opaque or transparent, so a block
/// sums its opaque pixels' colours (times 255, their alpha) and counts them.
typedef struct reducer {
    unsigned factor, width, out_width, out_height;
    unsigned rows_in, out_row;
    uint64_t *sums;  ///< per output column: R*255, G*255, B*255, 255 per opaque pixel, pixels
    unsigned char *out;
} reducer;

static void reducer_flush(reducer *r) {
    if (r->rows_in == 0 || r->out_row >= r->out_height) return;
    unsigned char *dst = r->out + (size_t)r->out_row * r->out_width * 4;
    for (unsigned x = 0; x < r->out_width; x++, dst += 4) {
        uint64_t *sum = r->sums + (size_t)x * 5;
        if (sum[3] == 0 || sum[4] == 0) {
            memset(dst, 0, 4);
        } else {
            dst[0] = (unsigned char)((sum[0] + sum[3] / 2) / sum[3]);
            dst[1] = (unsigned char)((sum[1] + sum[3] / 2) / sum[3]);
            dst[2] = (unsigned char)((sum[2] + sum[3] / 2) / sum[3]);
            dst[3] = (unsigned char)((sum[3] + sum[4] / 2) / sum[4]);
        }
    }
    memset(r->sums, 0, (size_t)r->out_width * 5 * sizeof *r->sums);
    r->rows_in = 0;
    r->out_row++;
}

/// Adds one canvas row: `count` transparent pixels before the frame's
/// `indices` (drawn through `map`, `transparent` left out), the rest
/// transparent too. A block's columns are walked together: no division per pixel.
static void reducer_add(reducer *r, unsigned before, const GifByteType *indices, unsigned count, int transparent,
                        const ColorMapObject *map) {
    unsigned x = 0;
    for (unsigned column = 0; column < r->out_width; column++) {
        uint64_t *sum = r->sums + (size_t)column * 5;
        unsigned end = x + r->factor < r->width ? x + r->factor : r->width;
        sum[4] += end - x;
        for (; x < end; x++) {
            if (x < before || x >= before + count) continue;
            int pixel = indices[x - before];
            if (pixel == transparent || pixel >= map->ColorCount) continue;
            GifColorType color = map->Colors[pixel];
            sum[0] += color.Red * 255u;
            sum[1] += color.Green * 255u;
            sum[2] += color.Blue * 255u;
            sum[3] += 255u;
        }
    }
    if (++r->rows_in == r->factor) reducer_flush(r);
}

/// The same for a row of the whole canvas (RGBA): interlaced frames.
static void reducer_add_rgba(reducer *r, const unsigned char *row) {
    unsigned x = 0;
    for (unsigned column = 0; column < r->out_width; column++) {
        uint64_t *sum = r->sums + (size_t)column * 5;
        unsigned end = x + r->factor < r->width ? x + r->factor : r->width;
        sum[4] += end - x;
        for (; x < end; x++) {
            const unsigned char *pixel = row + (size_t)x * 4;
            if (pixel[3] == 0) continue;
            sum[0] += pixel[0] * 255u;
            sum[1] += pixel[1] * 255u;
            sum[2] += pixel[2] * 255u;
            sum[3] += 255u;
        }
    }
    if (++r->rows_in == r->factor) reducer_flush(r);
}

static void clear_rect(gif_decoder *d, unsigned left, unsigned top, unsigned width, unsigned height) {
    for (unsigned y = top; y < top + height; y++) memset(d->canvas + ((size_t)y * d->width + left) * 4, 0, (size_t)width * 4);
}

/// The frame's colours as RGBA words by index: the transparent index, and
/// indices past the table (drawn as transparent, as Firefox does), are 0,
/// which no colour is (its alpha is 255).
static void palette_words(const ColorMapObject *map, int transparent, uint32_t words[256]) {
    for (int index = 0; index < 256; index++) {
        words[index] = 0;
        if (index == transparent || index >= map->ColorCount) continue;
        GifColorType color = map->Colors[index];
        const unsigned char rgba[4] = {color.Red, color.Green, color.Blue, 255};
        memcpy(&words[index], rgba, 4);
    }
}

/// Draws row `index` of the frame (its colour indices in `row`) into `dst`,
/// the canvas row at its left edge, clipped to `room` pixels: a word per
/// pixel from the frame's table. Over earlier frames (`over`) transparent
/// pixels keep what is there; on a cleared canvas they are written, as 0,
/// so the canvas needs no clearing first. Measured with callgrind on a
/// 1920x1280 GIF: the frame took 49 million instructions drawn channel by
/// channel, 9 million with the table.
static void draw_row(const GifByteType *row, unsigned width, unsigned room, const uint32_t words[256], int over,
                     unsigned char *dst) {
    unsigned count = width < room ? width : room;
    if (over) {
        for (unsigned x = 0; x < count; x++) {
            uint32_t word = words[row[x]];
            if (word) memcpy(dst + 4 * (size_t)x, &word, 4);
        }
        return;
    }
    for (unsigned x = 0; x < count; x++) memcpy(dst + 4 * (size_t)x, &words[row[x]], 4);
}

/// The first frame, reduced by `factor` as it is read (not interlaced): a
/// row of the canvas at a time through the reducer. Rows the frame does not
/// cover are transparent.
static pxview_codec_status reduced_frame(gif_decoder *d, reducer *r, const GifImageDesc *desc, int transparent,
                                         const ColorMapObject *map, pxview_codec_info *info) {
    unsigned frame_width = desc->Width > 0 ? (unsigned)desc->Width : 0;
    unsigned frame_height = desc->Height > 0 ? (unsigned)desc->Height : 0;
    unsigned left = desc->Left > 0 ? (unsigned)desc->Left : 0;
    unsigned top = desc->Top > 0 ? (unsigned)desc->Top : 0;
    unsigned shown = left < d->width ? (frame_width < d->width - left ? frame_width : d->width - left) : 0;
    unsigned y = 0;
    for (; y < top && y < d->height; y++) reducer_add(r, 0, NULL, 0, transparent, map);
    for (unsigned index = 0; index < frame_height; index++) {
        if (DGifGetLine(d->gif, d->row, (int)frame_width) == GIF_ERROR) return gif_failure(d, d->gif->Error, info);
        if (top + index >= d->height) continue;
        reducer_add(r, left, d->row, shown, transparent, map);
        y = top + index + 1;
    }
    for (; y < d->height; y++) reducer_add(r, 0, NULL, 0, transparent, map);
    reducer_flush(r);
    return PXVIEW_CODEC_OK;
}

pxview_codec_status pxview_gif_frame(void *handle, unsigned char *out, unsigned out_width, unsigned out_height,
                                     unsigned *delay_ms, pxview_codec_info *info) {
    gif_decoder *d = handle;
    // A smaller size: the first and final frame reduced by a whole factor.
    unsigned factor = 1;
    if (out_width != d->width || out_height != d->height) {
        if (d->frames_drawn != 0 || !info->final_frame) return PXVIEW_CODEC_UNSUPPORTED;
        factor = 0;
        for (unsigned f = 2; f <= d->width && f <= d->height; f++) {
            unsigned w = (d->width + f - 1) / f;
            if (w == out_width && (d->height + f - 1) / f == out_height) {
                factor = f;
                break;
            }
            if (w < out_width) break;
        }
        if (factor == 0) return PXVIEW_CODEC_UNSUPPORTED;
    }
    size_t canvas_bytes = (size_t)d->width * d->height * 4;
    // The first frame, and the only one wanted (a still, a grid tile): drawn
    // straight into `out`, without a canvas of its own and the copy out of
    // it (10 MB of pages touched twice for a 1920x1280 GIF).
    int direct = !d->canvas && d->frames_drawn == 0 && info->final_frame && factor == 1;
    if (!direct && !d->canvas && factor == 1) {
        d->canvas = calloc(canvas_bytes ? canvas_bytes : 1, 1);
        if (!d->canvas) return PXVIEW_CODEC_NO_MEMORY;
    }
    unsigned char *canvas = direct ? out : d->canvas;  // NULL while a reduced frame needs none
    GraphicsControlBlock control = {.DisposalMode = DISPOSAL_UNSPECIFIED, .DelayTime = 0, .TransparentColor = NO_TRANSPARENT_COLOR};
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(d->gif, &type) == GIF_ERROR) return gif_failure(d, d->gif->Error, info);
        if (type == TERMINATE_RECORD_TYPE) return PXVIEW_CODEC_END;
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(d->gif, &code, &block) == GIF_ERROR) return gif_failure(d, d->gif->Error, info);
            if (code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) DGifExtensionToGCB(block[0], block + 1, &control);
            while (block) {
                if (DGifGetExtensionNext(d->gif, &block) == GIF_ERROR) return gif_failure(d, d->gif->Error, info);
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(d->gif) == GIF_ERROR) return gif_failure(d, d->gif->Error, info);
        GifImageDesc *desc = &d->gif->Image;
        ColorMapObject *map = desc->ColorMap ? desc->ColorMap : d->gif->SColorMap;
        if (!map) {
            pxview_codec_message(info, "a frame has no colour table");
            return PXVIEW_CODEC_CORRUPT;
        }
        // The previous frame's disposal, before this one is drawn.
        if (d->frames_drawn > 0) {
            if (d->last_disposal == DISPOSE_BACKGROUND) {
                clear_rect(d, d->last_left, d->last_top, d->last_width, d->last_height);
            } else if (d->last_disposal == DISPOSE_PREVIOUS && d->saved) {
                memcpy(d->canvas, d->saved, canvas_bytes);
            }
        }
        if (control.DisposalMode == DISPOSE_PREVIOUS && canvas && !direct) {
            if (!d->saved) d->saved = malloc(canvas_bytes ? canvas_bytes : 1);
            if (!d->saved) return PXVIEW_CODEC_NO_MEMORY;
            memcpy(d->saved, d->canvas, canvas_bytes);
        }
        unsigned frame_width = desc->Width > 0 ? (unsigned)desc->Width : 0;
        unsigned frame_height = desc->Height > 0 ? (unsigned)desc->Height : 0;
        unsigned left = desc->Left > 0 ? (unsigned)desc->Left : 0;
        unsigned top = desc->Top > 0 ? (unsigned)desc->Top : 0;
        if (frame_width > d->row_capacity) {
            free(d->row);
            d->row = malloc(frame_width);
            if (!d->row) {
                d->row_capacity = 0;
                return PXVIEW_CODEC_NO_MEMORY;
            }
            d->row_capacity = frame_width;
        }
        int transparent = control.TransparentColor;
        uint32_t words[256];
        palette_words(map, transparent, words);
        // A first frame drawn straight into `out` writes every pixel it
        // covers; only a frame smaller than the screen needs `out` cleared
        // first (clearing 10 MB of a 1920x1280 GIF's screen it wholly
        // covers cost as much as drawing it).
        int fresh = direct && left == 0 && top == 0 && frame_width >= d->width && frame_height >= d->height;
        if (direct && !fresh) memset(out, 0, canvas_bytes);
        reducer r = {factor, d->width, out_width, out_height, 0, 0, NULL, out};
        if (factor > 1) {
            r.sums = calloc((size_t)out_width * 5, sizeof *r.sums);
            if (!r.sums) return PXVIEW_CODEC_NO_MEMORY;
            if (!desc->Interlace) {
                pxview_codec_status status = reduced_frame(d, &r, desc, transparent, map, info);
                free(r.sums);
                if (status == PXVIEW_CODEC_OK) d->frames_drawn++;
                *delay_ms = (unsigned)(control.DelayTime > 0 ? control.DelayTime : 0) * 10;
                return status;
            }
            // Interlaced rows come out of order: the whole canvas first.
            if (!d->canvas) d->canvas = calloc(canvas_bytes ? canvas_bytes : 1, 1);
            if (!d->canvas) {
                free(r.sums);
                return PXVIEW_CODEC_NO_MEMORY;
            }
            canvas = d->canvas;
        }
        for (unsigned index = 0; index < frame_height; index++) {
            if (DGifGetLine(d->gif, d->row, (int)frame_width) == GIF_ERROR) {
                free(r.sums);
                return gif_failure(d, d->gif->Error, info);
            }
            unsigned y = top + (desc->Interlace ? interlaced_row(index, frame_height) : index);
            if (y >= d->height || left >= d->width) continue;
            draw_row(d->row, frame_width, d->width - left, words, !fresh, canvas + ((size_t)y * d->width + left) * 4);
        }
        if (factor > 1) {
            // Interlaced: the rows came out of order; reduced once all are in.
            for (unsigned y = 0; y < d->height; y++) reducer_add_rgba(&r, d->canvas + (size_t)y * d->width * 4);
            reducer_flush(&r);
            free(r.sums);
            d->frames_drawn++;
            *delay_ms = (unsigned)(control.DelayTime > 0 ? control.DelayTime : 0) * 10;
            return PXVIEW_CODEC_OK;
        }
        d->last_left = left < d->width ? left : d->width;
        d->last_top = top < d->height ? top : d->height;
        d->last_width = (left + frame_width > d->width ? d->width : left + frame_width) - d->last_left;
        d->last_height = (top + frame_height > d->height ? d->height : top + frame_height) - d->last_top;
        d->last_disposal = control.DisposalMode;
        d->frames_drawn++;
        if (!direct) memcpy(out, d->canvas, canvas_bytes);
        *delay_ms = (unsigned)(control.DelayTime > 0 ? control.DelayTime : 0) * 10;
        return PXVIEW_CODEC_OK;
    }
}
