#include "pxview_kitty_png.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Filtered bytes per Huffman block (whole rows, at least one). An entropy
/// estimate over 21 photos fitted to 800x600 and 2560x1440 put 64 KB blocks
/// within 0.4 % (of the raw size) of 16 KB and of 256 KB ones, mostly
/// smaller than 16 KB ones (fewer block headers); and a block's filtered
/// bytes stay in the L2 cache between the histogram and the coding pass.
enum { BLOCK_TARGET = 65536 };

/// The longest code: with at most 7 bits pending, four codes of 14 bits fit
/// the 64-bit bit buffer between stores. Deflate allows 15, and two blocks
/// in three of the 42 test pictures (21 photos at both boxes) had a rare
/// byte wanting more, but their PNGs came out only 0.012 % larger than
/// with 15-bit codes (which would need a store every three codes).
enum { MAX_CODE_LENGTH = 14 };

/// 0-255 and end-of-block; no lengths, as no strings are matched.
enum { LITERALS = 257 };

/// The helpers of `pxview_kitty_png_piece` go into each of its compiled
/// copies (see PXVIEW_CLONES), so they too use the processor's shifts.
#define PXVIEW_INLINE inline __attribute__((always_inline))

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

static inline void store_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

// MARK: Bits

/// Deflate's bit order: least significant first. Up to 8 bytes past `p` are
/// written (and later overwritten): buffers keep that much spare.
typedef struct bit_writer {
    uint64_t bits;
    unsigned count;
    uint8_t *p;
} bit_writer;

static inline void put_bits(bit_writer *w, uint32_t value, unsigned count) {
    w->bits |= (uint64_t)value << w->count;
    w->count += count;
    if (w->count >= 32) {
        store_le64(w->p, w->bits);
        w->p += 4;
        w->bits >>= 32;
        w->count -= 32;
    }
}

/// Pads with zero bits to a byte boundary and writes what is pending.
static void align_to_byte(bit_writer *w) {
    while (w->count > 0) {
        *w->p++ = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
    w->bits = 0;
}

// MARK: Huffman codes

/// Sorts `count` (frequency << 9 | symbol) keys ascending; frequencies are
/// below 2^23. An LSD radix sort: a 257-symbol block's code is rebuilt every
/// 64 KB, where a comparison sort's cost would show.
static void sort_keys(uint32_t *keys, uint32_t *scratch, int count) {
    for (int shift = 0; shift < 32; shift += 8) {
        unsigned offsets[256] = {0};
        for (int i = 0; i < count; i++) offsets[(keys[i] >> shift) & 0xFF]++;
        if (offsets[0] == (unsigned)count) continue;  // every key has 0 here
        unsigned sum = 0;
        for (int b = 0; b < 256; b++) {
            unsigned c = offsets[b];
            offsets[b] = sum;
            sum += c;
        }
        for (int i = 0; i < count; i++) scratch[offsets[(keys[i] >> shift) & 0xFF]++] = keys[i];
        memcpy(keys, scratch, sizeof(uint32_t) * (size_t)count);
    }
}

/// Code lengths for `count` symbols from their frequencies, none longer
/// than `limit`; unused symbols get 0. Two symbols at least get a code, as
/// decoders reject a code of one symbol.
///
/// Minimum-redundancy lengths in place (Moffat and Katajainen, 1995) over
/// the frequencies in ascending order, then lengths past the limit are
/// folded in and the Kraft sum restored by lengthening the shortest codes
/// that can give room, the usual heuristic.
static void huffman_lengths(const uint32_t *frequencies, int count, int limit, uint8_t *lengths) {
    uint32_t keys[LITERALS], scratch[LITERALS];
    int n = 0;
    for (int s = 0; s < count; s++) {
        if (frequencies[s]) keys[n++] = (frequencies[s] << 9) | (uint32_t)s;
    }
    for (int s = 0; n < 2 && s < count; s++) {
        if (!frequencies[s]) keys[n++] = (1u << 9) | (uint32_t)s;
    }
    memset(lengths, 0, (size_t)count);
    sort_keys(keys, scratch, n);
    uint32_t a[LITERALS];
    for (int i = 0; i < n; i++) a[i] = keys[i] >> 9;
    // Phase 1: internal nodes' weights, each then replaced by its parent's index.
    a[0] += a[1];
    int root = 0, leaf = 2;
    for (int next = 1; next < n - 1; next++) {
        if (leaf >= n || a[root] < a[leaf]) {
            a[next] = a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] = a[leaf++];
        }
        if (leaf >= n || (root < next && a[root] < a[leaf])) {
            a[next] += a[root];
            a[root++] = (uint32_t)next;
        } else {
            a[next] += a[leaf++];
        }
    }
    // Phase 2: internal nodes' depths.
    a[n - 2] = 0;
    for (int next = n - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
    // Phase 3: leaves' depths, the most frequent last.
    int available = 1, used = 0, depth = 0, next = n - 1;
    root = n - 2;
    while (available > 0) {
        while (root >= 0 && (int)a[root] == depth) {
            used++;
            root--;
        }
        while (available > used) {
            a[next--] = (uint32_t)depth;
            available--;
        }
        available = 2 * used;
        depth++;
        used = 0;
    }
    // Lengths by count, the long ones folded into `limit`, Kraft restored.
    unsigned per_length[32] = {0};
    for (int i = 0; i < n; i++) per_length[a[i] < (uint32_t)limit ? a[i] : (uint32_t)limit]++;
    uint32_t total = 0;
    for (int length = 1; length <= limit; length++) total += per_length[length] << (limit - length);
    while (total > (1u << limit)) {
        per_length[limit]--;
        for (int length = limit - 1; length > 0; length--) {
            if (per_length[length]) {
                per_length[length]--;
                per_length[length + 1] += 2;
                break;
            }
        }
        total--;
    }
    // The least frequent symbols take the longest codes.
    int i = 0;
    for (int length = limit; length > 0; length--) {
        for (unsigned k = 0; k < per_length[length]; k++) lengths[keys[i++] & 0x1FF] = (uint8_t)length;
    }
}

/// Canonical codes for `lengths`, bit-reversed for deflate's order.
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
    unsigned per_length[16] = {0};
    for (int s = 0; s < count; s++) per_length[lengths[s]]++;
    per_length[0] = 0;
    unsigned next[16];
    unsigned code = 0;
    for (int length = 1; length < 16; length++) {
        code = (code + per_length[length - 1]) << 1;
        next[length] = code;
    }
    for (int s = 0; s < count; s++) {
        unsigned length = lengths[s];
        if (!length) continue;
        unsigned c = next[length]++, reversed = 0;
        for (unsigned b = 0; b < length; b++) reversed |= ((c >> b) & 1) << (length - 1 - b);
        codes[s] = (uint16_t)reversed;
    }
}

// MARK: Blocks

/// The order code-length code lengths are sent in (RFC 1951, 3.2.7).
static const uint8_t code_length_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/// One symbol of the run-length coded code lengths: 0-15, or 16/17/18 with
/// its extra bits' value.
typedef struct length_symbol {
    uint8_t symbol;
    uint8_t extra;
} length_symbol;

static const uint8_t extra_bits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};

/// The code lengths of both alphabets as one run-length coded sequence.
static int run_length_code(const uint8_t *lengths, int count, length_symbol *out) {
    int n = 0;
    for (int i = 0; i < count;) {
        uint8_t length = lengths[i];
        int run = 1;
        while (i + run < count && lengths[i + run] == length) run++;
        i += run;
        if (length == 0) {
            while (run >= 11) {
                int take = run < 138 ? run : 138;
                out[n++] = (length_symbol){18, (uint8_t)(take - 11)};
                run -= take;
            }
            if (run >= 3) {
                out[n++] = (length_symbol){17, (uint8_t)(run - 3)};
                run = 0;
            }
        } else {
            out[n++] = (length_symbol){length, 0};
            run--;
            while (run >= 3) {
                int take = run < 6 ? run : 6;
                out[n++] = (length_symbol){16, (uint8_t)(take - 3)};
                run -= take;
            }
        }
        while (run-- > 0) out[n++] = (length_symbol){length, 0};
    }
    return n;
}

/// The bits a stored copy of `n` bytes takes from bit position `count`
/// (within its byte): a 3-bit header, padding, LEN/NLEN per 65535 bytes.
static uint64_t stored_bits(size_t n, unsigned count) {
    size_t blocks = n / 65535 + (n % 65535 != 0) + (n == 0);
    unsigned first = (count + 3 + 7) / 8 * 8 - count;
    return first + (uint64_t)(blocks - 1) * 8 + (uint64_t)blocks * 32 + (uint64_t)n * 8;
}

static void write_stored(bit_writer *w, const uint8_t *data, size_t n) {
    do {
        size_t take = n < 65535 ? n : 65535;
        put_bits(w, 0, 3);
        align_to_byte(w);
        w->p[0] = (uint8_t)take;
        w->p[1] = (uint8_t)(take >> 8);
        w->p[2] = (uint8_t)~take;
        w->p[3] = (uint8_t)(~take >> 8);
        memcpy(w->p + 4, data, take);
        w->p += 4 + take;
        data += take;
        n -= take;
    } while (n > 0);
}

/// One non-final block of `data` with the Huffman code of `histogram`
/// (its 256 byte counts), or stored when that would be shorter.
static PXVIEW_INLINE void write_block(bit_writer *w, const uint8_t *data, size_t n, const uint32_t *histogram) {
    uint32_t frequencies[LITERALS];
    memcpy(frequencies, histogram, 256 * sizeof(uint32_t));
    frequencies[256] = 1;
    uint8_t lengths[LITERALS + 2];
    huffman_lengths(frequencies, LITERALS, MAX_CODE_LENGTH, lengths);
    // Two distance codes of one bit, never used: zlib sends the same, as
    // some inflaters refuse a block with no distance code.
    lengths[LITERALS] = 1;
    lengths[LITERALS + 1] = 1;
    length_symbol sequence[LITERALS + 2];
    int symbols = run_length_code(lengths, LITERALS + 2, sequence);
    uint32_t length_frequencies[19] = {0};
    for (int i = 0; i < symbols; i++) length_frequencies[sequence[i].symbol]++;
    uint8_t length_lengths[19];
    huffman_lengths(length_frequencies, 19, 7, length_lengths);
    uint16_t length_codes[19];
    canonical_codes(length_lengths, 19, length_codes);
    int hclen = 19;
    while (hclen > 4 && length_lengths[code_length_order[hclen - 1]] == 0) hclen--;

    uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)hclen;
    for (int i = 0; i < symbols; i++) bits += length_lengths[sequence[i].symbol] + extra_bits[sequence[i].symbol];
    for (int s = 0; s < 256; s++) bits += (uint64_t)histogram[s] * lengths[s];
    bits += lengths[256];
    if (bits >= stored_bits(n, w->count)) {
        write_stored(w, data, n);
        return;
    }
    uint16_t codes[LITERALS];
    canonical_codes(lengths, LITERALS, codes);
    put_bits(w, 2 << 1, 3);  // not final, dynamic Huffman
    put_bits(w, LITERALS - 257, 5);
    put_bits(w, 2 - 1, 5);
    put_bits(w, (uint32_t)hclen - 4, 4);
    for (int i = 0; i < hclen; i++) put_bits(w, length_lengths[code_length_order[i]], 3);
    for (int i = 0; i < symbols; i++) {
        uint8_t s = sequence[i].symbol;
        put_bits(w, length_codes[s], length_lengths[s]);
        if (extra_bits[s]) put_bits(w, sequence[i].extra, extra_bits[s]);
    }
    // The hot loop: four codes between stores, from two word tables (a
    // code and a length each one load, the length added straight from
    // memory): five instructions a byte with BMI2's shifts.
    uint32_t code_words[256], length_words[256];
    for (int s = 0; s < 256; s++) {
        code_words[s] = codes[s];
        length_words[s] = lengths[s];
    }
    uint64_t buffer = w->bits;
    unsigned count = w->count;
    uint8_t *p = w->p;
    // Down to fewer than 8 pending bits first: 7 + 4 x 14 < 64.
    store_le64(p, buffer);
    p += count >> 3;
    buffer >>= count & ~7u;
    count &= 7;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        buffer |= (uint64_t)code_words[data[i]] << count;
        count += length_words[data[i]];
        buffer |= (uint64_t)code_words[data[i + 1]] << count;
        count += length_words[data[i + 1]];
        buffer |= (uint64_t)code_words[data[i + 2]] << count;
        count += length_words[data[i + 2]];
        buffer |= (uint64_t)code_words[data[i + 3]] << count;
        count += length_words[data[i + 3]];
        store_le64(p, buffer);
        p += count >> 3;
        buffer >>= count & ~7u;
        count &= 7;
    }
    w->bits = buffer;
    w->count = count;
    w->p = p;
    for (; i < n; i++) put_bits(w, codes[data[i]], lengths[data[i]]);
    put_bits(w, codes[256], lengths[256]);
}

// MARK: Filtering

/// A row of RGBA pixels Sub-filtered into `out` (1 + width x channels bytes; up to 2 bytes
/// past it may be written too, by the SSE2 RGB steps: the row buffers keep 8 spare).
static PXVIEW_INLINE void filter_row(const uint8_t *row, size_t width, int channels, uint8_t *out) {
    out[0] = 1;  // Sub
    out++;
    if (channels == 4) {
        memcpy(out, row, 4);
        for (size_t i = 4; i < width * 4; i++) out[i] = (uint8_t)(row[i] - row[i - 4]);
        return;
    }
    out[0] = row[0];
    out[1] = row[1];
    out[2] = row[2];
    size_t x = 1;
#if defined(__SSE2__)
    // Four pixels a step: the bytes less the pixel before's, then each
    // 64-bit half's two pixels packed into six bytes (eight are written;
    // the two past them are written again next): 1.8 instructions a byte
    // in callgrind, filter loop and all.
    for (; x + 4 <= width; x += 4) {
        __m128i pixels = _mm_loadu_si128((const __m128i *)(const void *)(row + 4 * x));
        __m128i before = _mm_loadu_si128((const __m128i *)(const void *)(row + 4 * x - 4));
        __m128i difference = _mm_sub_epi8(pixels, before);
        uint64_t low = (uint64_t)_mm_cvtsi128_si64(difference);
        uint64_t high = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(difference, difference));
        low = (low & 0xFFFFFF) | ((low >> 8) & 0xFFFFFF000000);
        high = (high & 0xFFFFFF) | ((high >> 8) & 0xFFFFFF000000);
        memcpy(out + 3 * x, &low, 8);
        memcpy(out + 3 * x + 6, &high, 8);
    }
#endif
    // Four bytes at a time, subtracted without carries between them (the
    // fourth, alpha, is overwritten by the next pixel or the next row).
    uint32_t previous;
    memcpy(&previous, row + 4 * (x - 1), 4);
    for (; x < width; x++) {
        uint32_t pixel;
        memcpy(&pixel, row + 4 * x, 4);
        uint32_t difference = ((pixel | 0x80808080u) - (previous & 0x7F7F7F7Fu)) ^ ((pixel ^ ~previous) & 0x80808080u);
        memcpy(out + 3 * x, &difference, 4);
        previous = pixel;
    }
}

/// Adler-32 of `data` continued from `adler`. With SSE2, 16 bytes a step:
/// their sum (psadbw) and their sum weighted 16..1 (pmaddwd), the running
/// sum carried per step: about 10 instructions a step, against 10 per 4
/// bytes for the scalar sums.
static PXVIEW_INLINE uint32_t adler32_update(uint32_t adler, const uint8_t *data, size_t n) {
    uint64_t a = adler & 0xFFFF, b = adler >> 16;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i first_weights = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i last_weights = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    while (n >= 16) {
        // 347 steps keep every 32-bit lane from overflowing (zlib's NMAX, 5552 bytes).
        size_t steps = n / 16 < 347 ? n / 16 : 347;
        __m128i sums = zero, carried = zero, weighted = zero;
        for (size_t k = 0; k < steps; k++) {
            __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(data + 16 * k));
            carried = _mm_add_epi32(carried, sums);
            sums = _mm_add_epi32(sums, _mm_sad_epu8(bytes, zero));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpacklo_epi8(bytes, zero), first_weights));
            weighted = _mm_add_epi32(weighted, _mm_madd_epi16(_mm_unpackhi_epi8(bytes, zero), last_weights));
        }
        uint32_t lanes[3][4];
        _mm_storeu_si128((__m128i *)(void *)lanes[0], sums);
        _mm_storeu_si128((__m128i *)(void *)lanes[1], carried);
        _mm_storeu_si128((__m128i *)(void *)lanes[2], weighted);
        uint64_t sum = 0, carry = 0, weight = 0;
        for (int lane = 0; lane < 4; lane++) {
            sum += lanes[0][lane];
            carry += lanes[1][lane];
            weight += lanes[2][lane];
        }
        b = (b + a * 16 * steps + 16 * carry + weight) % 65521;
        a = (a + sum) % 65521;
        data += 16 * steps;
        n -= 16 * steps;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        a += data[i];
        b += a;
    }
    return (uint32_t)(a % 65521) | (uint32_t)(b % 65521) << 16;
}

/// Counts the bytes of `data` into `histogram`: four tables, so repeated
/// bytes do not wait on each other's stores.
static PXVIEW_INLINE void count_bytes(const uint8_t *data, size_t n, uint32_t *histogram) {
    uint32_t h[4][256];
    memset(h, 0, sizeof h);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        h[0][data[i]]++;
        h[1][data[i + 1]]++;
        h[2][data[i + 2]]++;
        h[3][data[i + 3]]++;
    }
    for (; i < n; i++) h[0][data[i]]++;
    for (int s = 0; s < 256; s++) histogram[s] = h[0][s] + h[1][s] + h[2][s] + h[3][s];
}

// MARK: Commands

/// Base64 two characters at a time: `pairs[v]` holds the characters of
/// the 12 bits `v`, first in the low byte. Built by the compiler; half the
/// lookups of a 64-entry alphabet. With the 8-byte loads below, callgrind
/// counted 9.3 -> 4.9 instructions a PNG byte, the command framing included.
#define B64(x) ((x) < 26 ? 'A' + (x) : (x) < 52 ? 'a' + (x) - 26 : (x) < 62 ? '0' + (x) - 52 : (x) == 62 ? '+' : '/')
#define PAIR(h, l) (uint16_t)(B64(h) | B64(l) << 8)
#define PAIRS8(h, l) \
    PAIR(h, l), PAIR(h, l + 1), PAIR(h, l + 2), PAIR(h, l + 3), PAIR(h, l + 4), PAIR(h, l + 5), PAIR(h, l + 6), PAIR(h, l + 7)
#define PAIRS64(h) \
    PAIRS8(h, 0), PAIRS8(h, 8), PAIRS8(h, 16), PAIRS8(h, 24), PAIRS8(h, 32), PAIRS8(h, 40), PAIRS8(h, 48), PAIRS8(h, 56)
#define PAIRS512(h) \
    PAIRS64(h), PAIRS64(h + 1), PAIRS64(h + 2), PAIRS64(h + 3), PAIRS64(h + 4), PAIRS64(h + 5), PAIRS64(h + 6), \
        PAIRS64(h + 7)
static const uint16_t base64_pairs[4096] = {
    PAIRS512(0), PAIRS512(8), PAIRS512(16), PAIRS512(24), PAIRS512(32), PAIRS512(40), PAIRS512(48), PAIRS512(56)};

static inline uint8_t *put_pair(uint8_t *out, unsigned bits) {
    uint16_t pair = base64_pairs[bits & 0xFFF];
    out[0] = (uint8_t)pair;
    out[1] = (uint8_t)(pair >> 8);
    return out + 2;
}

static PXVIEW_INLINE uint8_t *base64(uint8_t *out, const uint8_t *in, size_t n) {
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Six bytes a step from one 8-byte load (two bytes read past them),
    // four pairs stored as two words.
    for (; i + 8 <= n; i += 6) {
        uint64_t v;
        memcpy(&v, in + i, 8);
        v = __builtin_bswap64(v) >> 16;
        uint32_t first = base64_pairs[(v >> 36) & 0xFFF] | (uint32_t)base64_pairs[(v >> 24) & 0xFFF] << 16;
        uint32_t second = base64_pairs[(v >> 12) & 0xFFF] | (uint32_t)base64_pairs[v & 0xFFF] << 16;
        memcpy(out, &first, 4);
        memcpy(out + 4, &second, 4);
        out += 8;
    }
#endif
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        out = put_pair(out, v >> 12);
        out = put_pair(out, v);
    }
    if (i < n) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0);
        out = put_pair(out, v >> 12);
        out[0] = i + 1 < n ? (uint8_t)(base64_pairs[v & 0xFFF] & 0xFF) : '=';
        out[1] = '=';
        out += 2;
    }
    return out;
}

/// Where a piece's PNG bytes become commands: whole commands leave as the
/// bytes are made, into `out`, and from there to the sink when streaming.
typedef struct command_writer {
    const pxview_kitty_png *png;
    int begins;  ///< this piece begins the transmission
    int ends;    ///< and this one ends it
    uint8_t *out_start;
    uint8_t *out;
    int streams;  ///< hands `out` to the sink whenever it passes `STREAM_BYTES`
    int failed;   ///< the sink said stop
    uint8_t *raw;  ///< PNG bytes not yet written as commands
    size_t raw_count;
    size_t written;  ///< PNG bytes written as commands
} command_writer;

/// Commands handed to the sink at a time when streaming: a few of the pipe's
/// 64 KB, so the writes are few and the reader starts early.
enum { STREAM_BYTES = 64 * 1024 };

/// One command of `n` PNG bytes; `first`: the transmission's first; `more`: not its last.
static PXVIEW_INLINE uint8_t *command(const pxview_kitty_png *png, uint8_t *out, const uint8_t *data, size_t n, int first, int more) {
    *out++ = 0x1B;
    *out++ = '_';
    *out++ = 'G';
    if (first) {
        memcpy(out, png->first_keys, png->first_keys_length);
        out += png->first_keys_length;
        if (more) {
            memcpy(out, ",m=1", 4);
            out += 4;
        }
    } else {
        memcpy(out, more ? "q=2,m=1" : "q=2,m=0", 7);
        out += 7;
    }
    *out++ = ';';
    out = base64(out, data, n);
    *out++ = 0x1B;
    *out++ = '\\';
    return out;
}

static void sink_output(command_writer *c) {
    if (c->failed || c->out == c->out_start) return;
    if (c->png->sink(c->png->sink_context, c->out_start, (size_t)(c->out - c->out_start)) != 0) c->failed = 1;
    c->out = c->out_start;
}

/// Writes what `raw` holds as commands: whole ones only mid-piece (more
/// follows), everything at the `end`.
static PXVIEW_INLINE void flush_commands(command_writer *c, int end) {
    size_t chunk = (size_t)c->png->chunk_raw;
    size_t done = 0;
    if (chunk == 0) {  // a PNG file: the bytes as they are
        memcpy(c->out, c->raw, c->raw_count);
        c->out += c->raw_count;
        done = c->raw_count;
    } else {
        while (c->raw_count - done >= chunk || (end && done < c->raw_count)) {
            size_t n = c->raw_count - done < chunk ? c->raw_count - done : chunk;
            int more = !c->ends || !end || done + n < c->raw_count;
            c->out = command(c->png, c->out, c->raw + done, n, c->begins && c->written == 0, more);
            done += n;
            c->written += n;
        }
    }
    memmove(c->raw, c->raw + done, c->raw_count - done);
    c->raw_count -= done;
    if (c->streams && (end || (size_t)(c->out - c->out_start) >= STREAM_BYTES)) sink_output(c);
}

// MARK: Pieces

size_t pxview_kitty_png_filtered_length(const pxview_kitty_png *png, int32_t row_start, int32_t row_end) {
    return (size_t)(row_end - row_start) * (1 + (size_t)png->width * (size_t)png->channels);
}

static size_t rows_per_block(const pxview_kitty_png *png) {
    size_t row = 1 + (size_t)png->width * (size_t)png->channels;
    return row >= BLOCK_TARGET ? 1 : BLOCK_TARGET / row;
}

/// The PNG signature and IHDR, before the first IDAT.
enum { SIGNATURE_AND_HEADER = 8 + 25, IDAT_FRAME = 12 };

/// Worst-case deflate bytes of `filtered` bytes in `blocks` blocks: every
/// block stored (5 bytes a 65 535, and a byte to align), plus the end.
static size_t deflate_bound(size_t filtered, size_t blocks) {
    return filtered + (filtered / 65535 + blocks) * 5 + blocks * 2 + 16;
}

/// Worst-case PNG bytes of a piece.
static size_t piece_raw_bound(const pxview_kitty_png *png, int32_t row_start, int32_t row_end) {
    size_t filtered = pxview_kitty_png_filtered_length(png, row_start, row_end);
    size_t blocks = ((size_t)(row_end - row_start) + rows_per_block(png) - 1) / rows_per_block(png);
    return SIGNATURE_AND_HEADER + 2 + deflate_bound(filtered, blocks) + (blocks + 1) * IDAT_FRAME + 4 + 12;
}

/// The room commands of `raw` PNG bytes take.
static size_t commands_bound(const pxview_kitty_png *png, size_t raw) {
    size_t chunk = (size_t)png->chunk_raw;
    if (chunk == 0) return raw + 16;
    return (raw / chunk + 1) * (3 + 8 + 1 + (chunk + 2) / 3 * 4 + 2) + png->first_keys_length + 8;
}

size_t pxview_kitty_png_piece_capacity(const pxview_kitty_png *png, int32_t row_start, int32_t row_end) {
    return commands_bound(png, piece_raw_bound(png, row_start, row_end));
}

size_t pxview_kitty_png_stream_capacity(const pxview_kitty_png *png) {
    size_t block = rows_per_block(png) * (1 + (size_t)png->width * (size_t)png->channels);
    // What may wait (less than a command) and what one block adds.
    return STREAM_BYTES + commands_bound(png, (size_t)png->chunk_raw + deflate_bound(block, 1) + 2 * IDAT_FRAME + 96);
}

/// Ends a piece's deflate data: first empty fixed-Huffman blocks (just
/// end-of-block, 10 bits each) that move where the piece ends so that its
/// length, with the `tail` bytes after the deflate data, is a whole number
/// of base64 quads (when `aligned`); then an empty stored block (back on a
/// byte boundary, not final), or for the stream's last piece a final empty
/// fixed block. `before`: the piece's whole bytes so far.
static void end_deflate(bit_writer *w, size_t before, int final, size_t tail, int aligned) {
    int padding = 0;
    // 10 bits a block: among 0 to 4 blocks one always makes the length a
    // whole number of quads (checked for every count of pending bits; for
    // 16 of the 64 it is the fourth block, taken untested when 0-3 miss).
    while (aligned && padding < 4) {
        unsigned bits = w->count + 10 * (unsigned)padding + (final ? 10 : 3);
        if ((before + (bits + 7) / 8 + (final ? 0 : 4) + tail) % 3 == 0) break;
        padding++;
    }
    for (int k = 0; k < padding; k++) put_bits(w, 1 << 1, 10);
    if (final) {
        put_bits(w, 1 | 1 << 1, 10);
        align_to_byte(w);
    } else {
        put_bits(w, 0, 3);
        align_to_byte(w);
        memcpy(w->p, "\x00\x00\xFF\xFF", 4);
        w->p += 4;
    }
}

/// Closes the IDAT whose data runs from `start` to `end` in `raw` (its
/// length and type are the 8 bytes before `start`): length in, CRC after.
static uint8_t *close_idat(uint8_t *start, uint8_t *end) {
    store_be32(start - 8, (uint32_t)(end - start));
    store_be32(end, (uint32_t)crc32(0, start - 4, (uInt)(end - start + 4)));
    return end + 4;
}

/// Compiled twice on x86-64, picked at load time by what the processor
/// has: x86-64-v3 (AVX2, BMI2) for its shifts by a register without the
/// count in CL, which the bit packing does four times a step. The bytes
/// are the same either way (integer work only).
#if defined(__x86_64__) && defined(__clang__) && defined(__linux__)
#define PXVIEW_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define PXVIEW_CLONES
#endif

PXVIEW_CLONES
int pxview_kitty_png_piece(
    const pxview_kitty_png *png, int32_t row_start, int32_t row_end, uint8_t *out, size_t capacity, int streams,
    size_t *length, uint32_t *adler) {
    *length = 0;
    if (png->width <= 0 || row_start < 0 || row_end > png->height || row_start >= row_end || png->chunk_raw < 0
        || png->chunk_raw % 3 != 0 || (png->channels != 3 && png->channels != 4) || (streams && !png->sink)
        || capacity < (streams ? pxview_kitty_png_stream_capacity(png)
                               : pxview_kitty_png_piece_capacity(png, row_start, row_end)))
        return -1;
    const size_t row_bytes = 1 + (size_t)png->width * (size_t)png->channels;
    const size_t block_rows = rows_per_block(png);
    const int begins = row_start == 0, final = row_end == png->height, ends = begins && final;
    const size_t block_bound = deflate_bound(block_rows * row_bytes, 1) + 64;
    const size_t raw_capacity = (size_t)png->chunk_raw + SIGNATURE_AND_HEADER + 2 * IDAT_FRAME + block_bound + 64;
    const size_t pixel_bytes = png->rows ? block_rows * (size_t)png->width * 4 : 0;
    uint8_t *memory = malloc(block_rows * row_bytes + 8 + raw_capacity + pixel_bytes);
    if (!memory) return -1;
    uint8_t *filtered = memory;
    uint8_t *pixels = memory + block_rows * row_bytes + 8 + raw_capacity;
    command_writer c = {
        .png = png, .begins = begins, .ends = ends, .out_start = out, .out = out, .streams = streams,
        .raw = filtered + block_rows * row_bytes + 8};

    uint8_t *p = c.raw;
    if (begins) {
        memcpy(p, png_signature, 8);
        store_be32(p + 8, 13);
        memcpy(p + 12, "IHDR", 4);
        store_be32(p + 16, (uint32_t)png->width);
        store_be32(p + 20, (uint32_t)png->height);
        // 8 bits a channel, RGB or RGBA, deflate, adaptive filters, no interlace.
        const uint8_t rest[5] = {8, png->channels == 3 ? 2 : 6, 0, 0, 0};
        memcpy(p + 24, rest, 5);
        store_be32(p + 29, (uint32_t)crc32(0, p + 12, 17));
        p += SIGNATURE_AND_HEADER;
    }
    // Each block's whole bytes close an IDAT as soon as they are made (the
    // bits of an unfinished byte wait in the bit writer for the next one),
    // so every length is known when it is written and nothing waits.
    memcpy(p + 4, "IDAT", 4);
    uint8_t *data = p + 8;
    p = data;
    if (begins) {
        *p++ = 0x78;  // deflate, 32K window
        *p++ = 0x01;  // the fastest level, no dictionary
    }
    uint32_t checksum = 1;
    bit_writer w = {0, 0, p};
    for (int32_t y = row_start; y < row_end && !c.failed;) {
        int32_t last = row_end - y < (int32_t)block_rows ? row_end : y + (int32_t)block_rows;
        size_t n = (size_t)(last - y) * row_bytes;
        const uint8_t *rgba = png->rgba + (size_t)y * (size_t)png->width * 4;
        if (png->rows) {
            png->rows(png->rows_context, y, last - y, pixels);
            rgba = pixels;
        }
        for (int32_t r = y; r < last; r++) {
            filter_row(
                rgba + (size_t)(r - y) * (size_t)png->width * 4, (size_t)png->width, png->channels,
                filtered + (size_t)(r - y) * row_bytes);
        }
        uint32_t histogram[256];
        count_bytes(filtered, n, histogram);
        checksum = adler32_update(checksum, filtered, n);
        write_block(&w, filtered, n, histogram);
        y = last;
        if (y == row_end || w.p == data) continue;  // the last IDAT closes below
        p = close_idat(data, w.p);
        c.raw_count = (size_t)(p - c.raw);
        flush_commands(&c, 0);
        memcpy(c.raw + c.raw_count + 4, "IDAT", 4);
        data = c.raw + c.raw_count + 8;
        w.p = data;
    }
    *adler = checksum;
    // The piece's bytes so far, the last IDAT's frame and data, and for a
    // whole picture the Adler-32 in it and IEND after it.
    end_deflate(&w, c.written + (size_t)(w.p - c.raw), final, ends ? 4 + 4 + 12 : 4, png->chunk_raw && !ends);
    if (ends) {
        store_be32(w.p, checksum);
        w.p += 4;
    }
    p = close_idat(data, w.p);
    if (ends) {
        memcpy(p, "\0\0\0\0IEND\xAE\x42\x60\x82", 12);
        p += 12;
    }
    c.raw_count = (size_t)(p - c.raw);
    flush_commands(&c, 1);
    free(memory);
    *length = (size_t)(c.out - out);
    return c.failed ? -1 : 0;
}

size_t pxview_kitty_png_trailer(const pxview_kitty_png *png, uint32_t adler, uint8_t *out) {
    uint8_t raw[4 + 4 + 4 + 4 + 12];
    store_be32(raw, 4);
    memcpy(raw + 4, "IDAT", 4);
    store_be32(raw + 8, adler);
    store_be32(raw + 12, (uint32_t)crc32(0, raw + 4, 8));
    memcpy(raw + 16, "\0\0\0\0IEND\xAE\x42\x60\x82", 12);
    if (png->chunk_raw == 0) {
        memcpy(out, raw, sizeof raw);
        return sizeof raw;
    }
    uint8_t *p = out;
    for (size_t done = 0; done < sizeof raw;) {
        size_t n = sizeof raw - done < (size_t)png->chunk_raw ? sizeof raw - done : (size_t)png->chunk_raw;
        p = command(png, p, raw + done, n, 0, done + n < sizeof raw);
        done += n;
    }
    return (size_t)(p - out);
}

uint32_t pxview_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_length);
}
