// The test suite's per-pixel and per-sample analysis loops (MovieMakerTestSupport), in C.
//
// The suite runs in a debug build, where the same loops in Swift cost tens of nanoseconds per pixel
// or sample and, summed over the suite, a tenth of its CPU time. Each function computes exactly what
// the Swift code it replaced computed: integer sums are exact, and floating-point sums run in the same
// order with the same operations (no contraction into FMAs), so the results are the same bits.
#ifndef CMOVIEMAKERTESTKERNELS_H
#define CMOVIEMAKERTESTKERNELS_H

#include <stddef.h>
#include <stdint.h>

/// The sum over `pixel_count` 4-byte pixels of the squared differences of their first three bytes
/// (B, G and R of BGRA; alpha ignored).
uint64_t mmt_rgb_squared_error(const uint8_t *a, const uint8_t *b, size_t pixel_count);

/// A luma profile of a BGRA picture `width` pixels wide: for each i < count, the mean luma
/// (0.299 R + 0.587 G + 0.114 B, in that order) of the 2k + 1 pixels (i, centre − k … centre + k)
/// when `along_x` is non-zero, or (centre − k … centre + k, i) otherwise, summed from 0 in that order.
void mmt_luma_profile(const uint8_t *bgra, int width, int along_x, int count, int centre, int k, double *out);

/// The sum of max(B, G, R) − min(B, G, R) over the pixels x0..<x1, y0..<y1 of a BGRA picture.
uint64_t mmt_saturation_sum(const uint8_t *bgra, int width, int x0, int x1, int y0, int y1);

/// Goertzel's power of one frequency: s0 = v + c·s1 − s2 over `x`, then s1² + s2² − c·s1·s2.
double mmt_goertzel_power(const double *x, size_t count, double c);

/// RGBA bytes to BGRA, `pixel_count` pixels.
void mmt_rgba_to_bgra(const uint8_t *rgba, uint8_t *bgra, size_t pixel_count);

/// The bounding box and count of the pixels x0..<x1, y0..<y1 of a BGRA picture whose byte k lies in
/// lo[k]...hi[k] for each k (B, G, R, A). `box` receives min x, min y, max x, max y; returns the count
/// (0: `box` untouched).
long mmt_color_box(const uint8_t *bgra, int width, int x0, int x1, int y0, int y1,
                   const uint8_t lo[4], const uint8_t hi[4], long box[4]);

/// The lowest and highest value of each of the first three bytes (B, G, R) over `pixel_count` pixels.
void mmt_channel_ranges(const uint8_t *bgra, size_t pixel_count, uint8_t lo[3], uint8_t hi[3]);

/// Cross-correlation sums of interleaved `a` and `b` (`channels` per frame), `b` shifted by `lag`
/// frames, over frames start..<end of `a` that both hold: sums[0] += x·y, sums[1] += x·x,
/// sums[2] += y·y in frame then channel order, in double.
void mmt_correlation_sums(const float *a, size_t a_count, const float *b, size_t b_count, int channels,
                          long lag, long start, long end, double sums[3]);

#endif
