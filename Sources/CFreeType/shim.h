// FreeType is included through its macro header, as FreeType requires.
#include <ft2build.h>
#include FT_FREETYPE_H
