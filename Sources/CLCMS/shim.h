// LittleCMS 2: ICC profile transforms to sRGB.
#include <lcms2.h>
