// libwebp: the decoder, the encoder (test fixtures), the demuxer (first frame, ICC and EXIF chunks;
// WebPAnimDecoder for animated stickers) and the muxer (WebPAnimEncoder: animated test fixtures).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
