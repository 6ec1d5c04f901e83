// Cairo's image surfaces and the FreeType font-face bridge (cairo-ft), as one module.
#include <cairo.h>
#include <cairo-ft.h>
