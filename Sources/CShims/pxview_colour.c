#include <lcms2.h>
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
} api;

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

/// `input` to sRGB, RGBA8 both ways with alpha copied, perceptual (for a
/// matrix profile the same as relative colorimetric); without lcms2's
/// one-pixel cache, so threads can share the transform. Closes `input`.
static void *to_srgb(cmsHPROFILE input, pxview_colour_info *info) {
    cmsHPROFILE srgb = api.create_srgb();
    void *transform = NULL;
    if (srgb) {
        transform = api.create_transform(input, TYPE_RGBA_8, srgb, TYPE_RGBA_8, INTENT_PERCEPTUAL,
                                         cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE);
        api.close_profile(srgb);
    }
    api.close_profile(input);
    if (!transform) snprintf(info->message, sizeof info->message, "lcms2 could not build a transform to sRGB");
    return transform;
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
    if (api.colour_space(profile) != cmsSigRgbData) {
        snprintf(info->message, sizeof info->message, "not an RGB profile");
        api.close_profile(profile);
        return NULL;
    }
    api.info_ascii(profile, cmsInfoDescription, "en", "US", info->name, sizeof info->name);
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

void pxview_colour_apply(void *transform, unsigned char *pixels, size_t count) {
    // cmsDoTransform takes a 32-bit count: large images go in slices.
    const size_t slice = 1u << 24;
    for (size_t done = 0; done < count; done += slice) {
        size_t n = count - done < slice ? count - done : slice;
        api.transform(transform, pixels + done * 4, pixels + done * 4, (cmsUInt32Number)n);
    }
}

void pxview_colour_free(void *transform) {
    if (transform) api.delete_transform(transform);
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
