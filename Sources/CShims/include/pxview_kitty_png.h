#ifndef PXVIEW_KITTY_PNG_H
#define PXVIEW_KITTY_PNG_H
#include <stddef.h>
#include <stdint.h>

/// Takes whole commands as they are made (`count` bytes at `bytes`, valid
/// only during the call); nonzero stops the piece.
typedef int (*pxview_kitty_png_sink)(void *context, const uint8_t *bytes, size_t count);

/// A kitty graphics transmission of an RGBA picture as a PNG (`f=100`),
/// written straight to the terminal's bytes: `ESC _ G keys ; base64 ESC \`
/// commands of at most `chunk_raw` PNG bytes each (4/3 as many base64).
///
/// The picture's rows are cut into pieces that are made independently (in
/// parallel by the caller), each already in its final form, so a piece can
/// be written while the next is still being made, and the first one even
/// while it is being made (`streams`). Each piece is a run of IDAT chunks,
/// one per deflate block, each closed as soon as its bytes are made (its
/// length is never waited for), ending byte-aligned; a piece is a whole
/// number of base64 quads, so its commands simply follow the last piece's.
/// The first piece also carries the PNG signature, the IHDR and the zlib
/// header; when there are several pieces a last, short command
/// (`pxview_kitty_png_trailer`) carries the Adler-32 of them all and IEND.
///
/// The deflate data is Huffman-only: rows are Sub-filtered (each byte minus
/// the same channel of the pixel to its left) and coded with one Huffman
/// code per block of about 64 KB built from that block's own histogram.
/// Filtered photo rows are noise-like residuals that string matching barely
/// shortens, while their skewed histogram is exactly what Huffman codes.
typedef struct pxview_kitty_png {
    /// width x height RGBA pixels, rows packed.
    const uint8_t *rgba;
    int32_t width;
    int32_t height;
    /// 3: an RGB PNG of an opaque picture (alpha is not sent), 4: RGBA.
    int32_t channels;
    /// PNG bytes per command: a positive multiple of 3 (3072 for kitty's
    /// 4096 base64 bytes); 0: no commands, the PNG file's own bytes.
    int32_t chunk_raw;
    /// The keys of the transmission's first command, without `m`.
    const char *first_keys;
    size_t first_keys_length;
    /// Where a streaming piece's commands go.
    pxview_kitty_png_sink sink;
    void *sink_context;
    /// When set, the pixels come from here instead of `rgba`: rows
    /// [first, first + count) written to `into` (RGBA, packed). Each piece
    /// asks for the rows of each block just before encoding them (a
    /// resample made as it is encoded), from its own thread.
    void (*rows)(void *context, int32_t first, int32_t count, uint8_t *into);
    void *rows_context;
} pxview_kitty_png;

/// How many bytes `pxview_kitty_png_piece` may write for rows
/// [row_start, row_end): the worst case (stored blocks, short commands).
size_t pxview_kitty_png_piece_capacity(const pxview_kitty_png *png, int32_t row_start, int32_t row_end);

/// The working room of a streaming piece, whatever its rows: about 64 KB.
size_t pxview_kitty_png_stream_capacity(const pxview_kitty_png *png);

/// The commands for rows [row_start, row_end). Without `streams` they go
/// into `out` (at least `pxview_kitty_png_piece_capacity`) and `length`
/// says how many; with it they go to the sink every 64 KB or so and at
/// the end, `out` (at least `pxview_kitty_png_stream_capacity`) is the
/// working room, and `length` is 0. The piece of row 0 begins the
/// transmission; a piece that is the whole picture also ends it (no
/// trailer then). `adler` gets the Adler-32 of the piece's filtered bytes,
/// for `pxview_kitty_png_trailer`. 0, or -1 when memory ran out, the room
/// was short or the sink said stop.
int pxview_kitty_png_piece(
    const pxview_kitty_png *png, int32_t row_start, int32_t row_end, uint8_t *out, size_t capacity, int streams,
    size_t *length, uint32_t *adler);

/// The filtered bytes of rows [row_start, row_end): rows x (1 + width x channels).
size_t pxview_kitty_png_filtered_length(const pxview_kitty_png *png, int32_t row_start, int32_t row_end);

/// Enough room for `pxview_kitty_png_trailer`.
#define PXVIEW_KITTY_PNG_TRAILER_CAPACITY 256

/// The last command of a transmission of several pieces: an IDAT of the
/// zlib stream's Adler-32 (`adler` of all the filtered bytes), and IEND.
size_t pxview_kitty_png_trailer(const pxview_kitty_png *png, uint32_t adler, uint8_t *out);

/// The Adler-32 of two runs joined, from each one's and the second's length.
uint32_t pxview_adler32_combine(uint32_t first, uint32_t second, size_t second_length);

#endif
