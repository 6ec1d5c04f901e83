// Pango (text layout and shaping with HarfBuzz) drawn through Cairo, plus fontconfig for
// registering font files by path and listing installed families.
#include <pango/pangocairo.h>
#include <fontconfig/fontconfig.h>
