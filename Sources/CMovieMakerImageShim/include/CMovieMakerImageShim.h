#ifndef MOVIEMAKER_IMAGE_SHIM_H
#define MOVIEMAKER_IMAGE_SHIM_H
// The libjpeg and libpng calls of MovieMaker's photo decoder.
//
// Why C: both libraries report a bad file by calling an error handler that must not return. libjpeg's
// default handler calls exit(), which would end the whole program on a corrupt photo; libpng's
// longjmps back to a setjmp. Swift cannot call setjmp (it has no way to resume in the middle of a
// Swift frame), so every libjpeg/libpng call is made here, under a setjmp, and a failure comes back
// to Swift as a return value of -1 with a readable message. Nothing here exits or aborts.
#include <stddef.h>
#include <stdint.h>

/// The size of every `message` buffer passed to the functions below (bytes, NUL included).
#define MM_IMAGE_MESSAGE_SIZE 256

/// How a JPEG stores colour.
typedef enum {
    MM_JPEG_GRAY = 1,  ///< One component; decoded to BGRA with R = G = B.
    MM_JPEG_RGB = 2,   ///< YCbCr or RGB; decoded to BGRA.
    MM_JPEG_CMYK = 3   ///< CMYK or YCCK; decoded to 4 bytes C, M, Y, K a pixel (see adobe_inverted).
} mm_jpeg_color;

/// What a JPEG's header says. Pointers are owned by the mm_jpeg handle and live until mm_jpeg_close.
typedef struct {
    int width, height;        ///< Stored size in pixels (before any EXIF orientation).
    int color;                ///< An mm_jpeg_color.
    int adobe_inverted;       ///< 1 when an Adobe APP14 marker says CMYK is stored inverted (0 = full ink).
    int progressive;          ///< 1 for a progressive JPEG.
    const uint8_t *exif;      ///< The EXIF TIFF structure (APP1 after "Exif\0\0"), or NULL.
    size_t exif_size;
    const uint8_t *icc;       ///< The ICC profile assembled from APP2 chunks, or NULL.
    size_t icc_size;
} mm_jpeg_header;

/// An open JPEG decoder reading from memory the caller keeps alive until mm_jpeg_close.
typedef struct mm_jpeg mm_jpeg;

/// Reads the header. Returns NULL (message filled) when the data is not a readable JPEG.
mm_jpeg *mm_jpeg_open(const uint8_t *data, size_t size, mm_jpeg_header *header, char *message);
/// mm_jpeg_open reading from the open file `fd` (a copy of it, closed by mm_jpeg_close) as it decodes,
/// a few kilobytes at a time: the file's bytes are never all in memory.
mm_jpeg *mm_jpeg_open_file(int fd, mm_jpeg_header *header, char *message);
/// The decoded size at scale `scale_num`/8 (1 ... 16; libjpeg-turbo scales in the DCT, so a smaller
/// scale decodes less data). Returns 0, or -1 with message.
int mm_jpeg_output_size(mm_jpeg *jpeg, int scale_num, int *width, int *height, char *message);
/// Decodes at the scale last passed to mm_jpeg_output_size into `pixels` (rows `stride` bytes apart,
/// 4 bytes a pixel: B, G, R, 255 for grey and colour, C, M, Y, K for CMYK). A file that ends early
/// is an error, not a grey bottom. Returns 0, or -1 with message. Call at most once.
int mm_jpeg_decode(mm_jpeg *jpeg, uint8_t *pixels, size_t stride, char *message);
/// mm_jpeg_decode, reduced while decoding to `out_width` × `out_height` (each at most the decoded
/// size) by area averaging: only 16 rows of the decoded size are held, never the whole picture.
/// Not for CMYK. Returns 0, or -1 with message. Call at most once (instead of mm_jpeg_decode).
int mm_jpeg_decode_reduced(mm_jpeg *jpeg, uint8_t *pixels, size_t stride, int out_width, int out_height, char *message);
/// Frees the decoder.
void mm_jpeg_close(mm_jpeg *jpeg);

/// What a PNG's header says. `icc` and `exif` are malloc'd copies: free them with mm_image_free.
typedef struct {
    int width, height;
    int bit_depth;            ///< 1, 2, 4, 8 or 16 bits per sample.
    int color_type;           ///< libpng's PNG_COLOR_TYPE_*.
    int interlaced;           ///< 1 for Adam7.
    int has_alpha;            ///< 1 for an alpha channel or a tRNS chunk.
    int srgb;                 ///< 1 when an sRGB chunk is present.
    uint8_t *icc;             ///< The iCCP profile, or NULL.
    size_t icc_size;
    uint8_t *exif;            ///< The eXIf chunk (a TIFF structure), or NULL.
    size_t exif_size;
} mm_png_info;

/// Reads a PNG's header chunks. Returns 0, or -1 with message.
int mm_png_read_info(const uint8_t *data, size_t size, mm_png_info *info, char *message);
/// Decodes a PNG to 8-bit BGRA with straight alpha (16-bit rounded, palette, grey and tRNS
/// expanded), reduced by `factor` (≥ 1) with an alpha-weighted box filter while the rows stream by,
/// so a large PNG is never held at full size (unless interlaced). The output is
/// ceil(width / factor) × ceil(height / factor). Returns 0, or -1 with message.
int mm_png_decode(const uint8_t *data, size_t size, int factor, uint8_t *pixels, size_t stride, char *message);

/// Reduces 4-byte pixels (colour, colour, colour, alpha; straight alpha) by `factor` (1 ... 256) with
/// an alpha-weighted box filter into a ceil(width / factor) × ceil(height / factor) buffer. With
/// `swap_red_blue`, bytes 0 and 2 trade places (RGBA in, BGRA out).
void mm_box_reduce(const uint8_t *source, int width, int height, size_t source_stride, int factor,
                   int swap_red_blue, uint8_t *destination, size_t destination_stride);

/// Frees memory the functions above allocated.
void mm_image_free(void *pointer);

#endif
