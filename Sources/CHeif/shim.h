// libheif: HEIC (HEVC via libde265, encoding via x265) and AVIF (dav1d/aom) stills.
#include <libheif/heif.h>
