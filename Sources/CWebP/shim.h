// libwebp: the decoder, the encoder (test fixtures) and the demuxer (first frame, ICC and EXIF chunks).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
