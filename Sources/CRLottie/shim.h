// rlottie's C API (librlottie-dev): Lottie animations rendered in-process (LottieAnimation.swift).
#include <rlottie_capi.h>

// lottie_animation_property_override is variadic, which Swift cannot call: one wrapper per property
// MovieMaker overrides. rlottie reads the colour components as doubles from 0 to 1 and opacities from 0 to 100.
static inline void mm_lottie_fill_color(Lottie_Animation *animation, const char *keypath, double r, double g, double b) {
    lottie_animation_property_override(animation, LOTTIE_ANIMATION_PROPERTY_FILLCOLOR, keypath, r, g, b);
}
static inline void mm_lottie_stroke_color(Lottie_Animation *animation, const char *keypath, double r, double g, double b) {
    lottie_animation_property_override(animation, LOTTIE_ANIMATION_PROPERTY_STROKECOLOR, keypath, r, g, b);
}
static inline void mm_lottie_fill_opacity(Lottie_Animation *animation, const char *keypath, double opacity) {
    lottie_animation_property_override(animation, LOTTIE_ANIMATION_PROPERTY_FILLOPACITY, keypath, opacity);
}
static inline void mm_lottie_stroke_opacity(Lottie_Animation *animation, const char *keypath, double opacity) {
    lottie_animation_property_override(animation, LOTTIE_ANIMATION_PROPERTY_STROKEOPACITY, keypath, opacity);
}
