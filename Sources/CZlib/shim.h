#ifndef PXVIEW_CZLIB_SHIM_H
#define PXVIEW_CZLIB_SHIM_H
#include <string.h>
#include <zlib.h>

/// One-shot deflate with a chosen strategy. `deflateInit2` is a macro, which
/// Swift cannot call; `compress2` always uses the default strategy.
/// Returns Z_OK with *dest_len set, or a zlib error code.
static inline int pxview_deflate(unsigned char *dest, unsigned long *dest_len, const unsigned char *source,
                                 unsigned long source_len, int level, int strategy) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int status = deflateInit2(&stream, level, Z_DEFLATED, 15, 9, strategy);
    if (status != Z_OK) return status;
    stream.next_in = (unsigned char *)source;
    stream.avail_in = (uInt)source_len;
    stream.next_out = dest;
    stream.avail_out = (uInt)*dest_len;
    status = deflate(&stream, Z_FINISH);
    *dest_len = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? Z_OK : (status == Z_OK ? Z_BUF_ERROR : status);
}
#endif
