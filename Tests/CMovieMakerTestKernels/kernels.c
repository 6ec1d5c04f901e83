// See CMovieMakerTestKernels.h: the analysis loops of the tests' helpers, with the Swift code's
// results to the bit.
#include "CMovieMakerTestKernels.h"

#if defined(__FAST_MATH__)
#error "fast-math would reorder the sums below"
#endif
#pragma clang fp contract(off)

uint64_t mmt_rgb_squared_error(const uint8_t *a, const uint8_t *b, size_t pixel_count) {
    uint64_t sum = 0;
    for (size_t i = 0; i < pixel_count * 4; i += 4) {
        for (int c = 0; c < 3; c++) {
            int64_t d = (int64_t)a[i + c] - (int64_t)b[i + c];
            sum += (uint64_t)(d * d);
        }
    }
    return sum;
}

static inline double mmt_luma(const uint8_t *p) {
    return 0.299 * (double)p[2] + 0.587 * (double)p[1] + 0.114 * (double)p[0];
}

void mmt_luma_profile(const uint8_t *bgra, int width, int along_x, int count, int centre, int k, double *out) {
    for (int i = 0; i < count; i++) {
        double sum = 0.0;
        for (int j = centre - k; j <= centre + k; j++) {
            int x = along_x ? i : j, y = along_x ? j : i;
            sum += mmt_luma(bgra + ((size_t)y * (size_t)width + (size_t)x) * 4);
        }
        out[i] = sum / (double)(2 * k + 1);
    }
}

uint64_t mmt_saturation_sum(const uint8_t *bgra, int width, int x0, int x1, int y0, int y1) {
    uint64_t sum = 0;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = bgra + ((size_t)y * (size_t)width + (size_t)x) * 4;
            uint8_t hi = p[0], lo = p[0];
            for (int c = 1; c < 3; c++) {
                if (p[c] > hi) hi = p[c];
                if (p[c] < lo) lo = p[c];
            }
            sum += (uint64_t)(hi - lo);
        }
    }
    return sum;
}

double mmt_goertzel_power(const double *x, size_t count, double c) {
    double s1 = 0.0, s2 = 0.0;
    for (size_t i = 0; i < count; i++) {
        double s0 = x[i] + c * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    return s1 * s1 + s2 * s2 - c * s1 * s2;
}

void mmt_rgba_to_bgra(const uint8_t *rgba, uint8_t *bgra, size_t pixel_count) {
    for (size_t i = 0; i < pixel_count * 4; i += 4) {
        bgra[i] = rgba[i + 2];
        bgra[i + 1] = rgba[i + 1];
        bgra[i + 2] = rgba[i];
        bgra[i + 3] = rgba[i + 3];
    }
}

long mmt_color_box(const uint8_t *bgra, int width, int x0, int x1, int y0, int y1,
                   const uint8_t lo[4], const uint8_t hi[4], long box[4]) {
    long min_x = -1, min_y = -1, max_x = -1, max_y = -1, count = 0;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = bgra + ((size_t)y * (size_t)width + (size_t)x) * 4;
            if (p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] &&
                p[2] >= lo[2] && p[2] <= hi[2] && p[3] >= lo[3] && p[3] <= hi[3]) {
                if (count == 0 || x < min_x) min_x = x;
                if (count == 0 || y < min_y) min_y = y;
                if (x > max_x) max_x = x;
                if (y > max_y) max_y = y;
                count++;
            }
        }
    }
    if (count > 0) { box[0] = min_x; box[1] = min_y; box[2] = max_x; box[3] = max_y; }
    return count;
}

void mmt_channel_ranges(const uint8_t *bgra, size_t pixel_count, uint8_t lo[3], uint8_t hi[3]) {
    for (int c = 0; c < 3; c++) { lo[c] = 255; hi[c] = 0; }
    for (size_t i = 0; i < pixel_count * 4; i += 4) {
        for (int c = 0; c < 3; c++) {
            uint8_t v = bgra[i + c];
            if (v < lo[c]) lo[c] = v;
            if (v > hi[c]) hi[c] = v;
        }
    }
}

void mmt_correlation_sums(const float *a, size_t a_count, const float *b, size_t b_count, int channels,
                          long lag, long start, long end, double sums[3]) {
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (long n = start; n < end; n++) {
        if (n + lag < 0 || (size_t)((n + lag + 1) * channels) > b_count || (size_t)((n + 1) * channels) > a_count) continue;
        for (int c = 0; c < channels; c++) {
            double x = (double)a[n * channels + c], y = (double)b[(n + lag) * channels + c];
            ab += x * y;
            aa += x * x;
            bb += y * y;
        }
    }
    sums[0] = ab;
    sums[1] = aa;
    sums[2] = bb;
}
