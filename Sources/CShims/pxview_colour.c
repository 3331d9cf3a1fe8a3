#include <lcms2.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pxview_colour.h"
#include "pxview_dlopen.h"

/// lcms2 through dlopen (see pxview_colour.h): the functions the colour step needs.
static struct {
    cmsHPROFILE (*open_memory)(const void *, cmsUInt32Number);
    cmsHPROFILE (*create_srgb)(void);
    cmsHPROFILE (*create_rgb)(const cmsCIExyY *, const cmsCIExyYTRIPLE *, cmsToneCurve *const[3]);
    cmsToneCurve *(*parametric)(cmsContext, cmsInt32Number, const cmsFloat64Number[]);
    void (*free_curve)(cmsToneCurve *);
    cmsBool (*close_profile)(cmsHPROFILE);
    cmsColorSpaceSignature (*colour_space)(cmsHPROFILE);
    cmsUInt32Number (*info_ascii)(cmsHPROFILE, cmsInfoType, const char[3], const char[3], char *, cmsUInt32Number);
    cmsHTRANSFORM (*create_transform)(cmsHPROFILE, cmsUInt32Number, cmsHPROFILE, cmsUInt32Number, cmsUInt32Number,
                                      cmsUInt32Number);
    void (*transform)(cmsHTRANSFORM, const void *, void *, cmsUInt32Number);
    void (*delete_transform)(cmsHTRANSFORM);
    void (*set_log_handler)(cmsLogErrorHandlerFunction);
    cmsBool (*is_matrix_shaper)(cmsHPROFILE);
    void *(*read_tag)(cmsHPROFILE, cmsTagSignature);
    cmsFloat32Number (*eval_curve)(const cmsToneCurve *, cmsFloat32Number);
    cmsBool (*is_tag)(cmsHPROFILE, cmsTagSignature);
} api;

/// Four 32-bit lanes, one per output channel (and alpha's, unused).
typedef int32_t pxview_share __attribute__((vector_size(16)));

/// A transform to sRGB: for a matrix-shaper profile (every RGB profile a
/// camera, phone or editor writes, and every one built from primaries) a
/// table per channel to linear light, one 3x3 matrix (the profile's
/// colorants, D50, to sRGB's) and a table back to sRGB's curve: lcms2's own
/// 8-bit transform (a 3D table, interpolated) took 16 ms for the 1.25 MP a
/// 20 MP JPEG decodes to for an 800x600 box, this one 2-3 ms. Other profiles
/// (LUT-based) go through lcms2.
typedef struct colour_transform {
    cmsHTRANSFORM lcms;
    /// A CMYK profile's: CMYK8 in, RGBA8 out (`pxview_colour_apply_cmyk`).
    int cmyk;
    /// Each input level's share of the three output channels (lane 3 is
    /// 0), in linear light scaled to 16383 × 4: the matrix folded into the
    /// tables, so a pixel is three vector loads and adds. Nine scalar
    /// lookups took 10.5 ms for a 5 MP frame here (AVX2 gathers of them
    /// 11.7-18 ms on this AMD EPYC), the vectors 7.7 ms; in floats it was
    /// no faster.
    pxview_share share[3][256];
    /// Linear light in 1/16383 steps to sRGB levels: fine enough near black,
    /// where sRGB's curve is steepest (1/4095 steps moved an sRGB profile's
    /// darkest colours by 2 levels, so it did not count as sRGB).
    unsigned char encode[16384];
} colour_transform;

static pxview_library library = PXVIEW_LIBRARY_INIT("lcms2");

/// lcms2 reports a broken profile through its log handler as well as by
/// its return value: the return value is enough, and nothing may reach stderr.
static void quiet(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    (void)code;
    (void)text;
}

static void load(void) {
    static const char *const names[] = {"liblcms2.so.2", "liblcms2.so"};
    void *handle = pxview_dlopen_first(names, 2, library.error, sizeof library.error, "lcms2");
    if (!handle) return;
    PXVIEW_RESOLVE(handle, api, open_memory, "cmsOpenProfileFromMem", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, create_srgb, "cmsCreate_sRGBProfile", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, create_rgb, "cmsCreateRGBProfile", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, parametric, "cmsBuildParametricToneCurve", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, free_curve, "cmsFreeToneCurve", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, close_profile, "cmsCloseProfile", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, colour_space, "cmsGetColorSpace", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, info_ascii, "cmsGetProfileInfoASCII", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, create_transform, "cmsCreateTransform", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, transform, "cmsDoTransform", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, delete_transform, "cmsDeleteTransform", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, set_log_handler, "cmsSetLogErrorHandler", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, is_matrix_shaper, "cmsIsMatrixShaper", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, read_tag, "cmsReadTag", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, eval_curve, "cmsEvalToneCurveFloat", library.error, "lcms2");
    PXVIEW_RESOLVE(handle, api, is_tag, "cmsIsTag", library.error, "lcms2");
    api.set_log_handler(quiet);
    library.status = 0;
}

static int ready(pxview_colour_info *info) {
    memset(info, 0, sizeof *info);
    pthread_once(&library.once, load);
    if (library.status == 0) return 1;
    snprintf(info->message, sizeof info->message, "%s", library.error);
    return 0;
}

static double srgb_encode(double v);
static void srgb_encode_table(unsigned char encode[16384]);

/// The colorants of a matrix-shaper profile as a matrix (columns red,
/// green, blue; rows X, Y, Z); 0 when a tag is missing.
static int colorants(cmsHPROFILE profile, double m[9]) {
    const cmsCIEXYZ *r = api.read_tag(profile, cmsSigRedColorantTag);
    const cmsCIEXYZ *g = api.read_tag(profile, cmsSigGreenColorantTag);
    const cmsCIEXYZ *b = api.read_tag(profile, cmsSigBlueColorantTag);
    if (!r || !g || !b) return 0;
    const cmsCIEXYZ *c[3] = {r, g, b};
    for (int k = 0; k < 3; k++) {
        m[k] = c[k]->X;
        m[3 + k] = c[k]->Y;
        m[6 + k] = c[k]->Z;
    }
    return 1;
}

static int invert(const double m[9], double out[9]) {
    double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (!(fabs(det) > 1e-12)) return 0;
    out[0] = (m[4] * m[8] - m[5] * m[7]) / det;
    out[1] = (m[2] * m[7] - m[1] * m[8]) / det;
    out[2] = (m[1] * m[5] - m[2] * m[4]) / det;
    out[3] = (m[5] * m[6] - m[3] * m[8]) / det;
    out[4] = (m[0] * m[8] - m[2] * m[6]) / det;
    out[5] = (m[2] * m[3] - m[0] * m[5]) / det;
    out[6] = (m[3] * m[7] - m[4] * m[6]) / det;
    out[7] = (m[1] * m[6] - m[0] * m[7]) / det;
    out[8] = (m[0] * m[4] - m[1] * m[3]) / det;
    return 1;
}

/// The tables and matrix of a matrix-shaper `input` to sRGB; 0 when a tag
/// is missing or the matrix cannot be inverted (then lcms2 does it).
static int matrix_shaper(cmsHPROFILE input, cmsHPROFILE srgb, colour_transform *t) {
    // A profile with a table for this intent as well is used by lcms2 through the table.
    if (!api.is_matrix_shaper(input) || !api.is_matrix_shaper(srgb) || api.is_tag(input, cmsSigAToB0Tag)) return 0;
    double source[9], target[9], inverse[9];
    if (!colorants(input, source) || !colorants(srgb, target) || !invert(target, inverse)) return 0;
    const cmsToneCurve *curves[3] = {api.read_tag(input, cmsSigRedTRCTag), api.read_tag(input, cmsSigGreenTRCTag),
                                     api.read_tag(input, cmsSigBlueTRCTag)};
    if (!curves[0] || !curves[1] || !curves[2]) return 0;
    double linear[3][256];
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++) linear[c][v] = api.eval_curve(curves[c], v / 255.0f);
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) {
            double weight = 0;
            for (int k = 0; k < 3; k++) weight += inverse[row * 3 + k] * source[k * 3 + col];
            // Real profiles stay within about ±3; a crafted one (colorants of
            // 30000) would overflow the integer tables: lcms2 then.
            if (!(fabs(weight) <= 16)) return 0;
            for (int v = 0; v < 256; v++) {
                double value = linear[col][v];
                if (!(value >= -1 && value <= 2)) return 0;
                t->share[col][v][row] = (int32_t)lround(weight * value * 16383 * 4);
            }
        }
    // The target is sRGB itself: its curve's inverse in closed form (a
    // bisection on lcms2's evaluation of it cost 2 ms a transform).
    srgb_encode_table(t->encode);
    return 1;
}

/// `input` to sRGB, RGBA8 both ways with alpha copied, perceptual (for a
/// matrix profile the same as relative colorimetric); lcms2's without its
/// one-pixel cache, so threads can share the transform. Closes `input`.
static void *to_srgb(cmsHPROFILE input, pxview_colour_info *info) {
    colour_transform *t = calloc(1, sizeof *t);
    cmsHPROFILE srgb = api.create_srgb();
    if (t && !srgb) {
        free(t);
        t = NULL;
    }
    if (t && !matrix_shaper(input, srgb, t)) {
        t->lcms = api.create_transform(input, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL,
                                       cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE);
        if (!t->lcms) {
            free(t);
            t = NULL;
        }
    }
    if (srgb) api.close_profile(srgb);
    api.close_profile(input);
    if (!t) snprintf(info->message, sizeof info->message, "lcms2 could not build a transform to sRGB");
    return t;
}

/// A CMYK `input` to sRGB through lcms2 (CMYK profiles are tables),
/// perceptual, CMYK8 to RGBA8. Closes `input`.
static void *cmyk_to_srgb(cmsHPROFILE input, pxview_colour_info *info) {
    colour_transform *t = calloc(1, sizeof *t);
    cmsHPROFILE srgb = api.create_srgb();
    if (t && srgb) {
        t->cmyk = 1;
        t->lcms = api.create_transform(input, TYPE_CMYK_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE);
    }
    if (t && !t->lcms) {
        free(t);
        t = NULL;
    }
    if (srgb) api.close_profile(srgb);
    api.close_profile(input);
    if (!t) snprintf(info->message, sizeof info->message, "lcms2 could not build a transform to sRGB");
    else info->cmyk = 1;
    return t;
}

void *pxview_colour_from_icc(const unsigned char *icc, size_t size, pxview_colour_info *info) {
    if (!ready(info)) return NULL;
    if (size < 128 || size > 0xFFFFFFFFu) {
        snprintf(info->message, sizeof info->message, "the profile is %zu bytes, too short to be one", size);
        return NULL;
    }
    cmsHPROFILE profile = api.open_memory(icc, (cmsUInt32Number)size);
    if (!profile) {
        snprintf(info->message, sizeof info->message, "lcms2 cannot read the profile");
        return NULL;
    }
    cmsColorSpaceSignature space = api.colour_space(profile);
    if (space != cmsSigRgbData && space != cmsSigCmykData) {
        snprintf(info->message, sizeof info->message, "not an RGB or CMYK profile");
        api.close_profile(profile);
        return NULL;
    }
    // Floating-point (multiProcessElement) tables are evaluated pixel by
    // pixel, unoptimised: a crafted one held a 300-frame WebP past 20 s.
    const cmsTagSignature floating[4] = {cmsSigDToB0Tag, cmsSigDToB1Tag, cmsSigDToB2Tag, cmsSigDToB3Tag};
    for (int i = 0; i < 4; i++) {
        if (api.is_tag(profile, floating[i])) {
            snprintf(info->message, sizeof info->message, "a floating-point (D2B) profile is not used");
            api.close_profile(profile);
            return NULL;
        }
    }
    api.info_ascii(profile, cmsInfoDescription, "en", "US", info->name, sizeof info->name);
    if (space == cmsSigCmykData) return cmyk_to_srgb(profile, info);
    return to_srgb(profile, info);
}

void *pxview_colour_from_primaries(const double xy[8], int curve, double gamma, pxview_colour_info *info) {
    if (!ready(info)) return NULL;
    cmsCIExyYTRIPLE primaries = {{xy[0], xy[1], 1}, {xy[2], xy[3], 1}, {xy[4], xy[5], 1}};
    cmsCIExyY white = {xy[6], xy[7], 1};
    // IEC 61966-2-1 (sRGB) as lcms2's type-4 curve: Y = (aX + b)^g for X >= d, else cX.
    cmsFloat64Number srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    cmsFloat64Number power[1] = {gamma > 0 ? gamma : 2.2};
    cmsToneCurve *tone = curve == 1 ? api.parametric(NULL, 4, srgb) : api.parametric(NULL, 1, power);
    if (!tone) {
        snprintf(info->message, sizeof info->message, "lcms2 could not build the transfer curve");
        return NULL;
    }
    cmsToneCurve *curves[3] = {tone, tone, tone};
    cmsHPROFILE profile = api.create_rgb(&white, &primaries, curves);
    api.free_curve(tone);
    if (!profile) {
        snprintf(info->message, sizeof info->message, "lcms2 could not build a profile from the primaries");
        return NULL;
    }
    return to_srgb(profile, info);
}

/// The matrix-shaper loop, compiled twice on x86-64: x86-64-v2 has
/// SSE4.1's lane min/max and extracts (7.7 ms for 5 MP here, 8.8 ms with
/// SSE2 alone). Not v3: AVX2 gathers were slower than scalar code here.
#if defined(__x86_64__) && defined(__clang__) && defined(__linux__)
__attribute__((target_clones("arch=x86-64-v2", "default")))
#endif
static void apply_matrix_shaper(const colour_transform *t, unsigned char *pixels, size_t count) {
    const pxview_share low = {0, 0, 0, 0}, high = {16383, 16383, 16383, 16383}, half = {2, 2, 2, 2};
    for (size_t i = 0; i < count; i++) {
        unsigned char *p = pixels + i * 4;
        pxview_share v = (t->share[0][p[0]] + t->share[1][p[1]] + t->share[2][p[2]] + half) >> 2;
#if __has_builtin(__builtin_elementwise_max)
        v = __builtin_elementwise_min(__builtin_elementwise_max(v, low), high);
#else
        for (int c = 0; c < 3; c++) v[c] = v[c] < low[c] ? low[c] : v[c] > high[c] ? high[c] : v[c];
#endif
        p[0] = t->encode[v[0]];
        p[1] = t->encode[v[1]];
        p[2] = t->encode[v[2]];
    }
}

/// lcms2's transform over `count` 4-byte pixels in place, in slices
/// (cmsDoTransform takes a 32-bit count).
static void lcms_in_place(const colour_transform *t, unsigned char *pixels, size_t count) {
    const size_t slice = 1u << 24;
    for (size_t done = 0; done < count; done += slice) {
        size_t n = count - done < slice ? count - done : slice;
        api.transform(t->lcms, pixels + done * 4, pixels + done * 4, (cmsUInt32Number)n);
    }
}

void pxview_colour_apply_cmyk(void *transform, unsigned char *pixels, size_t count, int inverted) {
    const colour_transform *t = transform;
    if (!t->cmyk) {
        // Not a CMYK profile's transform (the callers never pass one): the
        // plain formula, so the samples still become opaque RGB.
        for (size_t i = 0; i < count; i++) {
            unsigned char *p = pixels + i * 4;
            unsigned k = inverted ? p[3] : 255u - p[3];
            for (int c = 0; c < 3; c++) p[c] = (unsigned char)(((inverted ? p[c] : 255u - p[c]) * k + 127) / 255);
            p[3] = 255;
        }
        return;
    }
    if (inverted)
        for (size_t i = 0; i < count * 4; i++) pixels[i] = (unsigned char)(255 - pixels[i]);
    lcms_in_place(t, pixels, count);
    // RGBA out of four channels in: lcms2 leaves the fourth byte as it was (K).
    for (size_t i = 0; i < count; i++) pixels[i * 4 + 3] = 255;
}

void pxview_colour_apply(void *transform, unsigned char *pixels, size_t count) {
    const colour_transform *t = transform;
    if (t->cmyk) return;
    if (t->lcms) {
        lcms_in_place(t, pixels, count);
        return;
    }
    apply_matrix_shaper(t, pixels, count);
}

void pxview_colour_free(void *transform) {
    colour_transform *t = transform;
    if (!t) return;
    if (t->lcms) api.delete_transform(t->lcms);
    free(t);
}

/// BT.2408's reference white for SDR content in an HDR signal.
static const double sdr_white_nits = 203.0;
/// Where the shoulder starts, relative to SDR white.
static const double knee = 0.8;
/// Steps of the signal-to-light tables (`hdr_tables`).
enum { hdr_steps = 4096 };
static double pq_nits(double v);
static double hlg_scene(double v);

double pxview_tone_map(double x, double peak) {
    if (!(x > 0)) return 0;
    if (peak <= 1 || x <= knee) return x < 1 ? x : (peak <= 1 ? 1 : x);
    if (x >= peak) return 1;
    double e = (x - knee) / (1 - knee);
    double w = (peak - knee) / (1 - knee);
    return knee + (1 - knee) * e * (1 + e / (w * w)) / (1 + e);
}

/// SMPTE ST 2084's EOTF: a code value (0..1) to cd/m².
static double pq_nits(double v) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128;
    const double c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32;
    double p = pow(v, 1 / m2);
    double n = p - c1 > 0 ? p - c1 : 0;
    return 10000 * pow(n / (c2 - c3 * p), 1 / m1);
}

/// ARIB STD-B67's inverse OETF: a code value (0..1) to scene light (0..1).
static double hlg_scene(double v) {
    const double a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a);
    return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12;
}

static double srgb_encode(double v) {
    if (v <= 0) return 0;
    if (v >= 1) return 1;
    return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

static unsigned char srgb_level(int i) { return (unsigned char)(srgb_encode(i / 16383.0) * 255 + 0.5); }

/// sRGB's level for each 1/16383 of linear light, the same as
/// `srgb_level` at every entry but with ~800 `pow` calls instead of
/// 16384 (0.5 ms of every tagged image's start): each level's first entry
/// is found from the curve's inverse and checked against `srgb_level`.
static void srgb_encode_table(unsigned char encode[16384]) {
    int start = 0;
    for (int level = 1; level <= 255; level++) {
        double x = (level - 0.5) / 255;
        double linear = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
        int first = (int)ceil(linear * 16383);
        if (first < start) first = start;
        if (first > 16384) first = 16384;
        while (first > start && srgb_level(first - 1) >= level) first--;
        while (first < 16384 && srgb_level(first) < level) first++;
        memset(encode + start, level - 1, (size_t)(first - start));
        start = first;
    }
    memset(encode + start, 255, (size_t)(16384 - start));
}

/// Tables the HDR conversion reads, built once (then only read, by any
/// thread): PQ's and HLG's signal to light, relative to SDR white, at
/// 4096 steps (interpolated between: within 0.001 % of PQ above 0.1
/// cd/m²), and sRGB's levels for linear light.
/// Two `pow` a channel for every pixel took 70 % of a 36 MP PQ JPEG XL's 5.2 s.
static struct {
    pthread_once_t once;
    float pq[hdr_steps + 1];
    float hlg[hdr_steps + 1];
    unsigned char encode[16384];
} hdr_tables = {.once = PTHREAD_ONCE_INIT};

static void build_hdr_tables(void) {
    for (int i = 0; i <= hdr_steps; i++) {
        hdr_tables.pq[i] = (float)(pq_nits((double)i / hdr_steps) / sdr_white_nits);
        hdr_tables.hlg[i] = (float)hlg_scene((double)i / hdr_steps);
    }
    srgb_encode_table(hdr_tables.encode);
}

/// `table` at a 16-bit signal, linearly between its 4096 steps.
static double signal_to_light(const float *table, uint16_t value) {
    unsigned scaled = (unsigned)value * hdr_steps;
    unsigned i = scaled / 65535;
    double f = (double)(scaled % 65535) / 65535;
    return i >= hdr_steps ? table[hdr_steps] : table[i] + (table[i + 1] - table[i]) * f;
}

void pxview_hdr_to_srgb8(const uint16_t *in, unsigned char *out, size_t count, int transfer, int primaries,
                         double peak_nits) {
    pthread_once(&hdr_tables.once, build_hdr_tables);
    const float *curve = transfer == 18 ? hdr_tables.hlg : hdr_tables.pq;
    // Linear source RGB to linear sRGB (from the primaries' xy, D65).
    static const double bt2020[9] = {1.660491, -0.587641, -0.072850, -0.124550, 1.132900,
                                     -0.008349, -0.018151, -0.100579, 1.118730};
    static const double p3[9] = {1.224940, -0.224940, 0, -0.042057, 1.042057, 0, -0.019638, -0.078636, 1.098274};
    static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double *m = primaries == 1 ? identity : primaries == 12 ? p3 : bt2020;
    // BT.2020's (and BT.2100's) luminance weights, for HLG's system gamma.
    const double wr = 0.2627, wg = 0.6780, wb = 0.0593;
    double peak = (peak_nits > 0 ? peak_nits : 1000) / sdr_white_nits;
    for (size_t i = 0; i < count; i++) {
        const uint16_t *p = in + i * 4;
        double rgb[3];
        for (int c = 0; c < 3; c++) rgb[c] = signal_to_light(curve, p[c]);
        if (transfer == 18) {
            // BT.2100's OOTF for a 1000 cd/m² display (system gamma 1.2), relative to SDR white.
            double y = wr * rgb[0] + wg * rgb[1] + wb * rgb[2];
            double gain = 1000 / sdr_white_nits * (y > 0 ? pow(y, 0.2) : 0);
            for (int c = 0; c < 3; c++) rgb[c] *= gain;
        }
        double lin[3];
        for (int c = 0; c < 3; c++) {
            double v = m[c * 3] * rgb[0] + m[c * 3 + 1] * rgb[1] + m[c * 3 + 2] * rgb[2];
            lin[c] = v > 0 ? v : 0;
        }
        // The shoulder on the brightest channel, the others scaled with it: hues kept.
        double top = lin[0] > lin[1] ? (lin[0] > lin[2] ? lin[0] : lin[2]) : (lin[1] > lin[2] ? lin[1] : lin[2]);
        double scale = top > knee ? pxview_tone_map(top, peak) / top : 1;
        unsigned char *o = out + i * 4;
        for (int c = 0; c < 3; c++) {
            double v = lin[c] * scale * 16383 + 0.5;
            o[c] = hdr_tables.encode[v < 0 ? 0 : v > 16383 ? 16383 : (int)v];
        }
        o[3] = (unsigned char)((p[3] + 128) / 257);
    }
}

long pxview_inflate(const unsigned char *data, size_t size, unsigned char *out, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) return -1;
    stream.next_in = (unsigned char *)data;
    stream.avail_in = (uInt)(size > 0xFFFFFFFFu ? 0xFFFFFFFFu : size);
    stream.next_out = out;
    stream.avail_out = (uInt)(capacity > 0xFFFFFFFFu ? 0xFFFFFFFFu : capacity);
    int status = inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    inflateEnd(&stream);
    return status == Z_STREAM_END ? written : -1;
}
