// The true-peak detector's filtering (TruePeakDetector in Loudness.swift): every sample of every sound
// that is normalised or limited passes through it, 8 × 32 multiply-adds per sample and channel for the
// limiter. In C with Clang's vector extensions it stays fast in debug builds too (-O0, where the test
// suite runs), where the same loop in Swift cost tens of nanoseconds per multiply-add.
//
// Each lane of a vector is one phase, summed over the taps in the same order as a scalar loop would,
// and without contraction into FMAs, so the peaks are the same bits on every CPU and at every -O level.
#include "CMovieMakerShim.h"

#if defined(__FAST_MATH__)
#error "fast-math would reorder the sums below, making the peaks depend on the build"
#endif
#pragma clang fp contract(off)

typedef float mm_v4f __attribute__((vector_size(16), aligned(4)));

// `m` raised to the magnitude of `v` when that is larger (plain comparisons, as TruePeakDetector's).
static inline float mm_raise(float m, float v) {
    if (v > m) return v;
    if (-v > m) return -v;
    return m;
}

static inline float mm_magnitude(float v) { return v < 0 ? -v : v; }

float mm_true_peak_lane(const float *lane, int frame_count, int keep, const float *coefficients,
                        const float *interleaved, int groups, int taps, float *peaks,
                        int use_threshold, float threshold, float bound) {
    float channel_max = 0;
    int run_start = 0;
    while (run_start < frame_count) {
        int run_end = run_start + 64 < frame_count ? run_start + 64 : frame_count;
        // The largest magnitude any interpolated value of this run can reach.
        int skip = 0;
        if (use_threshold) {
            float window_max = 0;
            for (int j = run_start; j < run_end + keep; j++) window_max = mm_raise(window_max, lane[j]);
            skip = window_max * bound <= threshold;
        }
        int i = run_start;
        // Four frames at a time, four phases per vector: each coefficient vector is loaded once for
        // the four frames.
        while (!skip && i + 4 <= run_end) {
            const float *x = lane + i;
            float m0 = mm_magnitude(x[keep]), m1 = mm_magnitude(x[keep + 1]);
            float m2 = mm_magnitude(x[keep + 2]), m3 = mm_magnitude(x[keep + 3]);
            for (int group = 0; group < groups; group++) {
                const float *c = interleaved + (long)group * taps * 4;
                mm_v4f a = {0, 0, 0, 0}, b = {0, 0, 0, 0}, d = {0, 0, 0, 0}, e = {0, 0, 0, 0};
                for (int k = 0; k < taps; k++) {
                    mm_v4f w = *(const mm_v4f *)(c + 4 * k);
                    float v0 = x[k], v1 = x[k + 1], v2 = x[k + 2], v3 = x[k + 3];
                    a += w * (mm_v4f){v0, v0, v0, v0};
                    b += w * (mm_v4f){v1, v1, v1, v1};
                    d += w * (mm_v4f){v2, v2, v2, v2};
                    e += w * (mm_v4f){v3, v3, v3, v3};
                }
                for (int p = 0; p < 4; p++) {
                    m0 = mm_raise(m0, a[p]);
                    m1 = mm_raise(m1, b[p]);
                    m2 = mm_raise(m2, d[p]);
                    m3 = mm_raise(m3, e[p]);
                }
            }
            if (peaks) {
                if (m0 > peaks[i]) peaks[i] = m0;
                if (m1 > peaks[i + 1]) peaks[i + 1] = m1;
                if (m2 > peaks[i + 2]) peaks[i + 2] = m2;
                if (m3 > peaks[i + 3]) peaks[i + 3] = m3;
            }
            float m = mm_raise(mm_raise(mm_raise(mm_magnitude(m0), m1), m2), m3);
            if (m > channel_max) channel_max = m;
            i += 4;
        }
        for (; i < run_end; i++) {
            const float *x = lane + i;
            float m = mm_magnitude(x[keep]);
            for (int phase = 0; !skip && phase < 4 * groups; phase++) {
                const float *c = coefficients + (long)phase * taps;
                float acc = 0;
                for (int k = 0; k < taps; k++) acc += c[k] * x[k];
                m = mm_raise(m, acc);
            }
            if (peaks && m > peaks[i]) peaks[i] = m;
            if (m > channel_max) channel_max = m;
        }
        run_start = run_end;
    }
    return channel_max;
}
