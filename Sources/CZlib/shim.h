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

/// One piece of a raw deflate stream (no zlib header or checksum). A piece
/// that is not `last` ends with a sync flush: byte-aligned and not final, so
/// pieces compressed separately concatenate into one valid stream. With
/// Z_HUFFMAN_ONLY nothing refers back across the seam, so nothing is lost.
static inline int pxview_deflate_piece(unsigned char *dest, unsigned long *dest_len, const unsigned char *source,
                                       unsigned long source_len, int level, int strategy, int last) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int status = deflateInit2(&stream, level, Z_DEFLATED, -15, 9, strategy);
    if (status != Z_OK) return status;
    stream.next_in = (unsigned char *)source;
    stream.avail_in = (uInt)source_len;
    stream.next_out = dest;
    stream.avail_out = (uInt)*dest_len;
    status = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    *dest_len = stream.total_out;
    deflateEnd(&stream);
    if (last) return status == Z_STREAM_END ? Z_OK : (status == Z_OK ? Z_BUF_ERROR : status);
    return (status == Z_OK && stream.avail_in == 0) ? Z_OK : Z_BUF_ERROR;
}

/// Worst-case size of one piece from `pxview_deflate_piece`.
static inline unsigned long pxview_deflate_piece_bound(unsigned long source_len) {
    return compressBound(source_len) + 16;
}
#endif
