// x264.h uses the fixed-width integer types without including <stdint.h> itself.
#include <stdint.h>
#include <x264.h>
