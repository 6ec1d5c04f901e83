// BGRA → yuv420p (BT.709, limited range) for the encoder: about twice as fast as libswscale's accurate
// path it replaces (SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP), and within one level of it.
//
// Written with Clang's vector extensions rather than per-ISA intrinsics: the same source compiles to
// AVX2 (chosen at run time), SSE2 or NEON, and stays usable at -O0 (debug builds, where the test suite
// runs). Every quantity is one expression used by both the vector lanes and the scalar tails, in float
// without contraction into FMAs, so a frame's bytes do not depend on the CPU it was converted on.
#include "CMovieMakerShim.h"
#include <stdlib.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "BGRA pixels are read as little-endian 32-bit words"
#endif
#if defined(__FAST_MATH__)
#error "fast-math would contract and reorder the float expressions below, making bytes depend on the build"
#endif
#pragma clang fp contract(off)

struct mm_yuv420_scratch {
    int width, height, cw, ch;
    float *even_u, *odd_u, *even_v, *odd_v;  // cw + 16 each: 2 guard cells before, the rest after
    float *ring;                             // 8 rows × 2 × cw
};

typedef float v8f __attribute__((vector_size(32), aligned(4)));
typedef uint32_t v8u __attribute__((vector_size(32), aligned(4)));
typedef int32_t v8i __attribute__((vector_size(32), aligned(4)));
typedef uint8_t v8b __attribute__((vector_size(8), aligned(1)));
typedef int32_t v16i __attribute__((vector_size(64), aligned(4)));
typedef uint8_t v16b __attribute__((vector_size(16), aligned(1)));
typedef uint32_t v16u __attribute__((vector_size(64), aligned(4)));

mm_yuv420_scratch *mm_yuv420_scratch_create(int width, int height) {
    if (width < 16 || height < 16 || (width & 1) || (height & 1)) return NULL;
    mm_yuv420_scratch *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->width = width; s->height = height; s->cw = width / 2; s->ch = height / 2;
    size_t row = (size_t)s->cw + 16;
    s->even_u = calloc(row * 4, sizeof(float));
    s->ring = calloc((size_t)8 * 2 * s->cw, sizeof(float));
    if (!s->even_u || !s->ring) { free(s->even_u); free(s->ring); free(s); return NULL; }
    s->odd_u = s->even_u + row; s->even_v = s->odd_u + row; s->odd_v = s->even_v + row;
    return s;
}

void mm_yuv420_scratch_free(mm_yuv420_scratch *s) {
    if (!s) return;
    free(s->even_u); free(s->ring); free(s);
}

#define KR 0.2126f
#define KB 0.0722f
#define KG (1.0f - KR - KB)
#define YS (219.0f / 255.0f)
#define CS (224.0f / 255.0f)
/* Cb = (B − Y′) × 224 / 255 / (2 (1 − Kb)), Cr = (R − Y′) × 224 / 255 / (2 (1 − Kr)): the differences are
   filtered, then scaled. */
#define CBS (CS / (2 * (1 - KB)))
#define CRS (CS / (2 * (1 - KR)))
// Bicubic (B = 0, C = 0.6), stretched ×2 for 2:1 decimation, chroma sited between two samples:
// exactly [-9, -27, 77, 279, 279, 77, -27, -9] / 640.
#define T0 (-9.0f / 640.0f)
#define T1 (-27.0f / 640.0f)
#define T2 (77.0f / 640.0f)
#define T3 (279.0f / 640.0f)

// One expression per quantity, written once, so the vector lanes and the scalar tails compute the same
// floats in the same order (no contraction into FMAs): the output never depends on the CPU's features.
#define YPRIME(r, g, b) (KR * (r) + KG * (g) + KB * (b))
#define LUMA(yp) ((yp) * YS + 16.5f)
// The horizontal filter over the even (e) and odd (o) samples around chroma sample i, read with L: one
// float (AT) or eight (LD).
#define HFILTER(L, e, o, i) (T0 * (L(o, (i) - 2) + L(e, (i) + 2)) + T1 * (L(e, (i) - 1) + L(o, (i) + 1)) \
                           + T2 * (L(o, (i) - 1) + L(e, (i) + 1)) + T3 * (L(e, i) + L(o, i)))
#define AT(p, i) ((p)[i])
#define VFILTER(k, a0, a1, a2, a3, b3, b2, b1, b0) ((T0 * ((a0) + (b0)) + T1 * ((a1) + (b1)) + T2 * ((a2) + (b2)) \
                                                    + T3 * ((a3) + (b3))) * (k) + 128.5f)
#define LD(p, i) (*(const v8f *)((p) + (i)))
#define CH(p, shift) __builtin_convertvector((v8i)(((p) >> (shift)) & 255), v8f)
#define CHS(p, shift) ((float)(((p) >> (shift)) & 255))

#define BODY(NAME, ATTR) \
ATTR static void NAME(mm_yuv420_scratch *s, const uint8_t *src, ptrdiff_t src_stride, \
                      uint8_t *yp, ptrdiff_t y_stride, uint8_t *up, ptrdiff_t u_stride, uint8_t *vp, ptrdiff_t v_stride) { \
    const int h = s->height, cw = s->cw, ch = s->ch; \
    float *eu = s->even_u + 2, *ou = s->odd_u + 2, *ev = s->even_v + 2, *ov = s->odd_v + 2; \
    int next = 0; \
    for (int row = 0; row < h; row++) { \
        const uint32_t *px = (const uint32_t *)(src + row * src_stride); \
        uint8_t *yd = yp + row * y_stride; \
        int i = 0; \
        for (; i + 8 <= cw; i += 8) { \
            v16u pq = *(const v16u *)(px + 2 * i); \
            v8u p = __builtin_shufflevector(pq, pq, 0, 2, 4, 6, 8, 10, 12, 14); \
            v8u q = __builtin_shufflevector(pq, pq, 1, 3, 5, 7, 9, 11, 13, 15); \
            v8f r = CH(p, 16), g = CH(p, 8), b = CH(p, 0), r2 = CH(q, 16), g2 = CH(q, 8), b2 = CH(q, 0); \
            v8f y1 = YPRIME(r, g, b), y2 = YPRIME(r2, g2, b2); \
            v8i ye = __builtin_convertvector(LUMA(y1), v8i), yo = __builtin_convertvector(LUMA(y2), v8i); \
            v16i yy = __builtin_shufflevector(ye, yo, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15); \
            *(v16b *)(yd + 2 * i) = __builtin_convertvector(yy, v16b); \
            *(v8f *)(eu + i) = b - y1; *(v8f *)(ev + i) = r - y1; *(v8f *)(ou + i) = b2 - y2; *(v8f *)(ov + i) = r2 - y2; \
        } \
        for (; i < cw; i++) { \
            uint32_t p = px[2 * i], q = px[2 * i + 1]; \
            float r = CHS(p, 16), g = CHS(p, 8), b = CHS(p, 0), r2 = CHS(q, 16), g2 = CHS(q, 8), b2 = CHS(q, 0); \
            float y1 = YPRIME(r, g, b), y2 = YPRIME(r2, g2, b2); \
            yd[2 * i] = (uint8_t)(int)LUMA(y1); yd[2 * i + 1] = (uint8_t)(int)LUMA(y2); \
            eu[i] = b - y1; ev[i] = r - y1; ou[i] = b2 - y2; ov[i] = r2 - y2; \
        } \
        /* Edges repeat the first and last samples (as swscale's filters do). */ \
        eu[-1] = eu[0]; ou[-1] = eu[0]; ou[-2] = eu[0]; eu[cw] = ou[cw - 1]; eu[cw + 1] = ou[cw - 1]; ou[cw] = ou[cw - 1]; \
        ev[-1] = ev[0]; ov[-1] = ev[0]; ov[-2] = ev[0]; ev[cw] = ov[cw - 1]; ev[cw + 1] = ov[cw - 1]; ov[cw] = ov[cw - 1]; \
        float *hu = s->ring + (size_t)(row & 7) * 2 * cw, *hv = hu + cw; \
        for (i = 0; i + 8 <= cw; i += 8) { \
            *(v8f *)(hu + i) = HFILTER(LD, eu, ou, i); *(v8f *)(hv + i) = HFILTER(LD, ev, ov, i); \
        } \
        for (; i < cw; i++) { hu[i] = HFILTER(AT, eu, ou, i); hv[i] = HFILTER(AT, ev, ov, i); } \
        /* A chroma row needs the filtered rows 2j - 3 … 2j + 4 (clamped): write it once the last is in the ring. */ \
        while (next < ch && (2 * next + 4 < h - 1 ? 2 * next + 4 : h - 1) <= row) { \
            const float *r8[8]; \
            for (int k = 0; k < 8; k++) { \
                int rr = 2 * next - 3 + k; rr = rr < 0 ? 0 : (rr > h - 1 ? h - 1 : rr); \
                r8[k] = s->ring + (size_t)(rr & 7) * 2 * cw; \
            } \
            for (int plane = 0; plane < 2; plane++) { \
                const float *a0 = r8[0] + plane * cw, *a1 = r8[1] + plane * cw, *a2 = r8[2] + plane * cw, *a3 = r8[3] + plane * cw; \
                const float *b3 = r8[4] + plane * cw, *b2 = r8[5] + plane * cw, *b1 = r8[6] + plane * cw, *b0 = r8[7] + plane * cw; \
                uint8_t *out = plane ? vp + next * v_stride : up + next * u_stride; \
                const float k2 = plane ? CRS : CBS; \
                int k = 0; \
                for (; k + 8 <= cw; k += 8) { \
                    v8f c = VFILTER(k2, LD(a0, k), LD(a1, k), LD(a2, k), LD(a3, k), LD(b3, k), LD(b2, k), LD(b1, k), LD(b0, k)); \
                    v8i n = __builtin_elementwise_min(__builtin_elementwise_max(__builtin_convertvector(c, v8i), (v8i){0}), (v8i){0} + 255); \
                    *(v8b *)(out + k) = __builtin_convertvector(n, v8b); \
                } \
                for (; k < cw; k++) { \
                    int n = (int)VFILTER(k2, a0[k], a1[k], a2[k], a3[k], b3[k], b2[k], b1[k], b0[k]); \
                    out[k] = (uint8_t)(n < 0 ? 0 : (n > 255 ? 255 : n)); \
                } \
            } \
            next++; \
        } \
    } \
}

BODY(convert_generic, )
#if defined(__x86_64__) && defined(__clang__)
BODY(convert_avx2, __attribute__((target("avx2"))))
#endif

void mm_bgra_to_yuv420p_generic(mm_yuv420_scratch *s, const uint8_t *src, ptrdiff_t src_stride,
                                uint8_t *y, ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride) {
    convert_generic(s, src, src_stride, y, y_stride, u, u_stride, v, v_stride);
}

int mm_has_avx2(void) {
#if defined(__x86_64__) && defined(__clang__)
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

void mm_bgra_to_yuv420p(mm_yuv420_scratch *s, const uint8_t *src, ptrdiff_t src_stride,
                        uint8_t *y, ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride) {
#if defined(__x86_64__) && defined(__clang__)
    if (__builtin_cpu_supports("avx2")) { convert_avx2(s, src, src_stride, y, y_stride, u, u_stride, v, v_stride); return; }
#endif
    convert_generic(s, src, src_stride, y, y_stride, u, u_stride, v, v_stride);
}

// A crossfade of two decoded pictures, one plane at a time. Plain loops of 8-bit samples times 17-bit
// weights in 32-bit lanes (at most 255 · 65536 + 32768 < 2^24), which compilers vectorise at -O2; at
// -O0 (debug builds) a 1080p frame still takes a few milliseconds, less than the drawing it replaces.
void mm_mix_plane(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *a, ptrdiff_t a_stride,
                  const uint8_t *b, ptrdiff_t b_stride, int width, int height, int weight) {
    const uint32_t wb = (uint32_t)(weight < 0 ? 0 : weight > 65536 ? 65536 : weight), wa = 65536 - wb;
    for (int y = 0; y < height; y++) {
        uint8_t *d = dst + y * dst_stride;
        const uint8_t *ra = a + y * a_stride, *rb = b + y * b_stride;
        for (int x = 0; x < width; x++) d[x] = (uint8_t)((ra[x] * wa + rb[x] * wb + 32768) >> 16);
    }
}
