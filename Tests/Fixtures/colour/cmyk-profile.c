/* Writes a CMYK ICC profile (an input profile, version 2.1: one AToB0
 * table, CMYK to Lab D50, 9 points a side) for pxview's CMYK fixture: no
 * CMYK profile comes with Debian's icc-profiles-free. Its model is a
 * press's impure inks on white paper: cyan takes some green and blue,
 * magenta some blue, so what it gives differs from the naive
 * (1-C)(1-K) conversion a decoder without the profile does.
 *
 *   cc cmyk-profile.c -llcms2 -o cmyk-profile && ./cmyk-profile OUT.icc
 */
#include <lcms2.h>
#include <math.h>
#include <stdio.h>

static cmsHTRANSFORM to_lab;

static double encode(double v) {
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055;
}

static cmsInt32Number sample(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    (void)cargo;
    double c = in[0] / 65535.0, m = in[1] / 65535.0, y = in[2] / 65535.0, k = in[3] / 65535.0;
    double ink = 1 - 0.92 * k;
    double linear[3] = {
        (1 - 0.95 * c) * (1 - 0.12 * m) * (1 - 0.02 * y) * ink,
        (1 - 0.35 * c) * (1 - 0.92 * m) * (1 - 0.08 * y) * ink,
        (1 - 0.12 * c) * (1 - 0.45 * m) * (1 - 0.93 * y) * ink,
    };
    double rgb[3] = {encode(linear[0]), encode(linear[1]), encode(linear[2])};
    cmsCIELab lab;
    cmsDoTransform(to_lab, rgb, &lab, 1);
    cmsFloat2LabEncodedV2(out, &lab);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: cmyk-profile OUT.icc\n");
        return 2;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab2Profile(NULL);
    to_lab = cmsCreateTransform(srgb, TYPE_RGB_DBL, lab, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
    cmsSetProfileVersion(profile, 2.1);
    cmsSetDeviceClass(profile, cmsSigInputClass);
    cmsSetColorSpace(profile, cmsSigCmykData);
    cmsSetPCS(profile, cmsSigLabData);
    cmsSetHeaderRenderingIntent(profile, INTENT_PERCEPTUAL);
    cmsMLU *text = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(text, "en", "US", "pxview test CMYK (impure inks)");
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, text);
    cmsMLUsetASCII(text, "en", "US", "No copyright, use freely");
    cmsWriteTag(profile, cmsSigCopyrightTag, text);
    cmsMLUfree(text);
    cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    cmsPipeline *table = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *grid = cmsStageAllocCLut16bit(NULL, 9, 4, 3, NULL);
    cmsStageSampleCLut16bit(grid, sample, NULL, 0);
    cmsPipelineInsertStage(table, cmsAT_BEGIN, grid);
    cmsWriteTag(profile, cmsSigAToB0Tag, table);
    if (!cmsSaveProfileToFile(profile, argv[1])) {
        fprintf(stderr, "cmyk-profile: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
