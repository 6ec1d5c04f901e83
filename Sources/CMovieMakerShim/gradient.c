// The pixels of a rasterized linear gradient (DrawingContext.setRasterizedLinearGradientSource): one
// table entry per pixel, nearest. In C so the per-pixel loop stays fast in debug builds (-O0, where the
// test suite runs); the arithmetic is the Swift loop's, in double, without contraction, so the pixels
// are the same at every -O level.
#include "CMovieMakerShim.h"

#pragma clang fp contract(off)

void mm_gradient_rows(uint8_t *pixels, ptrdiff_t stride, int width, int height, const uint32_t *table,
                      double highest, double row_start, double row_step, double column_step) {
    for (int y = 0; y < height; y++) {
        uint32_t *row = (uint32_t *)(pixels + y * stride);
        for (int x = 0; x < width; x++) {
            double v = row_start + (double)x * column_step;
            // Swift's max(v, 0) then min(_, highest), comparison for comparison.
            double m = 0 >= v ? 0 : v;
            double u = highest < m ? highest : m;
            row[x] = table[(long)u];
        }
        row_start += row_step;
    }
}
