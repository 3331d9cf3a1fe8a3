#ifndef PXVIEW_CODEC_H
#define PXVIEW_CODEC_H
#include <stddef.h>

/// One shape for the decoders of GIF, WebP, AVIF, HEIF and JPEG XL, so one
/// Swift driver (Decoding/FrameDecoder.swift) checks sizes, allocates frames
/// and maps errors for all of them:
///
///     pxview_X_open(data, size, &info, &decoder)   header: size, frames, loops
///     pxview_X_frame(decoder, out, w, h, &delay)   the next frame, RGBA8 into `out`
///     pxview_X_close(decoder)
///
/// `open` allocates no pixel memory (libraries whose setup does, WebP's
/// animation decoder, set it up on the first `frame`), so the caller refuses
/// a bomb from `info` before any is spent. `data` must outlive the decoder.
///
/// libgif and libwebp are linked (together they add ~0.3 ms to a start);
/// libavif, libheif and libjxl are loaded with dlopen on first use, as
/// libcurl is: linking the three (and their AV1, HEVC, Brotli and Highway
/// dependencies, 40 libraries) made every start of a test program ~10 ms
/// slower (100 runs: 1.27 s against 0.08 s without them).

typedef enum pxview_codec_status {
    PXVIEW_CODEC_OK = 0,
    PXVIEW_CODEC_END = 1,          ///< no more frames
    PXVIEW_CODEC_TRUNCATED = 2,    ///< the data stops before the image does
    PXVIEW_CODEC_CORRUPT = 3,      ///< the library refused the data (message says why)
    PXVIEW_CODEC_UNSUPPORTED = 4,  ///< valid data using a feature the library lacks
    PXVIEW_CODEC_NO_MEMORY = 5,
    PXVIEW_CODEC_NO_LIBRARY = 6    ///< the shared library could not be loaded (message says why)
} pxview_codec_status;

typedef struct pxview_codec_info {
    /// The size of every frame `frame` writes (at full scale).
    unsigned width;
    unsigned height;
    /// Frames in the file; 0 when the library cannot tell without decoding them.
    unsigned frame_count;
    /// How many times an animation plays in all; 0: for ever.
    unsigned loop_count;
    /// EXIF orientation (1-8) the caller still has to apply; 1 when the
    /// library applies the format's own (HEIF irot/imir, JPEG XL).
    int orientation;
    /// 1 when `frame` can write any smaller size, scaling while decoding (WebP stills).
    int scales;
    /// 1 when the first frame, if it is also the final one wanted, can be
    /// written reduced by a whole factor f, ceil(width/f) x ceil(height/f),
    /// each pixel the alpha-weighted average of its block (GIF stills).
    int reduces;
    /// A smaller picture the file holds (a HEIF thumbnail), 0x0 when none:
    /// `frame` decodes it instead when asked for exactly this size.
    unsigned preview_width;
    unsigned preview_height;
    /// Set by the caller before `frame`: no frame is wanted after this one,
    /// so the decoder need keep nothing for the next (GIF then composites
    /// straight into `out`, without a canvas of its own).
    int final_frame;
    /// The library's words for a failure, NUL-terminated ("" when none).
    char message[200];
    /// The colour profile of the pixels `frame` writes, when the library
    /// tells it (JPEG XL; the other formats' is read from the file's bytes):
    /// ICC bytes the decoder owns until `close`, NULL when there is none.
    const unsigned char *icc;
    size_t icc_size;
    /// The file's own profile when the library converted from it while
    /// decoding (JPEG XL's XYB images, asked for sRGB): only its name is used.
    const unsigned char *original_icc;
    size_t original_icc_size;
    /// Set by `frame` when the shim itself converted the frame to sRGB
    /// ("BT.2020 PQ": AVIF's HDR, tone-mapped from 16 bits): the colour
    /// step then leaves the pixels alone and names this.
    char tone_mapped_from[64];
} pxview_codec_info;

typedef pxview_codec_status (*pxview_codec_open_fn)(const unsigned char *data, size_t size, pxview_codec_info *info,
                                                    void **decoder);
/// Writes the next frame into `out` (out_width x out_height x 4 bytes, no
/// row padding; out_width/out_height are info's unless info->scales) and
/// its delay in milliseconds; PXVIEW_CODEC_END after the last.
typedef pxview_codec_status (*pxview_codec_frame_fn)(void *decoder, unsigned char *out, unsigned out_width,
                                                     unsigned out_height, unsigned *delay_ms, pxview_codec_info *info);
typedef void (*pxview_codec_close_fn)(void *decoder);

/// Each format's three functions, of the types above.
#define PXVIEW_CODEC_DECLARE(name)                                                                                    \
    pxview_codec_status pxview_##name##_open(const unsigned char *data, size_t size, pxview_codec_info *info,          \
                                             void **decoder);                                                         \
    pxview_codec_status pxview_##name##_frame(void *decoder, unsigned char *out, unsigned out_width,                  \
                                              unsigned out_height, unsigned *delay_ms, pxview_codec_info *info);      \
    void pxview_##name##_close(void *decoder);

PXVIEW_CODEC_DECLARE(gif)
PXVIEW_CODEC_DECLARE(webp)
PXVIEW_CODEC_DECLARE(avif)
PXVIEW_CODEC_DECLARE(heif)
PXVIEW_CODEC_DECLARE(jxl)

#endif
