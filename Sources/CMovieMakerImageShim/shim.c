// See CMovieMakerImageShim.h for why this is C: libjpeg and libpng report errors by exit()/longjmp,
// and only C can setjmp. Every exported function sets its own jump point before touching the library.
#include "CMovieMakerImageShim.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

static void set_message(char *message, const char *text) {
    if (message == NULL) return;
    snprintf(message, MM_IMAGE_MESSAGE_SIZE, "%s", text);
}

void mm_image_free(void *pointer) { free(pointer); }

// MARK: - Box reduction

// Sums of one band of output rows: colour weighted by alpha, alpha, and the number of samples.
typedef struct {
    int out_width;
    int factor;
    uint64_t *sums;   // 5 per output pixel: c0·a, c1·a, c2·a, a, count
} box_accumulator;

static int box_init(box_accumulator *acc, int width, int factor) {
    acc->factor = factor;
    acc->out_width = (width + factor - 1) / factor;
    acc->sums = calloc((size_t)acc->out_width * 5, sizeof(uint64_t));
    return acc->sums != NULL ? 0 : -1;
}

static void box_add_row(box_accumulator *acc, const uint8_t *row, int width) {
    uint64_t *s = acc->sums;
    int f = acc->factor;
    for (int x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * 4;
        uint64_t *t = s + (size_t)(x / f) * 5;
        uint32_t a = p[3];
        t[0] += (uint32_t)p[0] * a;
        t[1] += (uint32_t)p[1] * a;
        t[2] += (uint32_t)p[2] * a;
        t[3] += a;
        t[4] += 1;
    }
}

static void box_emit_row(box_accumulator *acc, uint8_t *out, int swap_red_blue) {
    uint64_t *s = acc->sums;
    for (int x = 0; x < acc->out_width; x++) {
        uint64_t *t = s + (size_t)x * 5;
        uint8_t *o = out + (size_t)x * 4;
        uint64_t a = t[3], n = t[4] ? t[4] : 1;
        uint8_t c0 = 0, c1 = 0, c2 = 0;
        if (a > 0) {
            c0 = (uint8_t)((t[0] + a / 2) / a);
            c1 = (uint8_t)((t[1] + a / 2) / a);
            c2 = (uint8_t)((t[2] + a / 2) / a);
        }
        o[0] = swap_red_blue ? c2 : c0;
        o[1] = c1;
        o[2] = swap_red_blue ? c0 : c2;
        o[3] = (uint8_t)((a + n / 2) / n);
    }
    memset(s, 0, (size_t)acc->out_width * 5 * sizeof(uint64_t));
}

void mm_box_reduce(const uint8_t *source, int width, int height, size_t source_stride, int factor,
                   int swap_red_blue, uint8_t *destination, size_t destination_stride) {
    if (factor < 1) factor = 1;
    if (factor > 256) factor = 256;
    box_accumulator acc;
    if (box_init(&acc, width, factor) != 0) return;
    int out_y = 0;
    for (int y = 0; y < height; y++) {
        box_add_row(&acc, source + (size_t)y * source_stride, width);
        if ((y + 1) % factor == 0 || y == height - 1) {
            box_emit_row(&acc, destination + (size_t)out_y * destination_stride, swap_red_blue);
            out_y++;
        }
    }
    free(acc.sums);
}

// Area averaging ("pixel mixing") from in_w × in_h to out_w × out_h (each no larger), fed one input
// row at a time: each output pixel is the mean of the input area it covers, partial pixels weighted by
// how much of them it covers. Only two rows of output-width accumulators are kept.
typedef struct {
    int in_w, in_h, out_w, out_h;
    int *col;          // per input column: the first output column it falls in
    float *col_w;      // per input column: its weight in that output column (the rest goes to the next)
    float *col_sum;    // per output column: the weight it receives in total
    float *h;          // one input row, reduced across (out_w × 4)
    float *acc[2];     // output rows being summed: the current one and the next
    float row_sum[2];  // the weight each has received
    int out_y;         // the output row acc[0] is
} area_reducer;

static void area_free(area_reducer *r) {
    free(r->col); free(r->col_w); free(r->col_sum); free(r->h); free(r->acc[0]); free(r->acc[1]);
    memset(r, 0, sizeof *r);
}

static int area_init(area_reducer *r, int in_w, int in_h, int out_w, int out_h) {
    memset(r, 0, sizeof *r);
    r->in_w = in_w; r->in_h = in_h; r->out_w = out_w; r->out_h = out_h;
    r->col = malloc(sizeof(int) * (size_t)in_w);
    r->col_w = malloc(sizeof(float) * (size_t)in_w);
    r->col_sum = calloc((size_t)out_w, sizeof(float));
    r->h = malloc(sizeof(float) * 4 * (size_t)out_w);
    r->acc[0] = calloc(4 * (size_t)out_w, sizeof(float));
    r->acc[1] = calloc(4 * (size_t)out_w, sizeof(float));
    if (!r->col || !r->col_w || !r->col_sum || !r->h || !r->acc[0] || !r->acc[1]) { area_free(r); return -1; }
    double sx = (double)in_w / out_w;
    for (int i = 0; i < in_w; i++) {
        int j = (int)(i / sx);
        if (j > out_w - 1) j = out_w - 1;
        double boundary = (j + 1) * sx;
        double w = (j == out_w - 1 || i + 1 <= boundary) ? 1 : boundary - i;
        r->col[i] = j; r->col_w[i] = (float)w;
        r->col_sum[j] += (float)w;
        if (w < 1) r->col_sum[j + 1] += (float)(1 - w);
    }
    return 0;
}

static void area_emit(area_reducer *r, uint8_t *dst) {
    float *a = r->acc[0];
    for (int j = 0; j < r->out_w; j++) {
        float k = 1.0f / (r->col_sum[j] * r->row_sum[0]);
        for (int c = 0; c < 4; c++) {
            float v = a[4 * j + c] * k + 0.5f;
            dst[4 * j + c] = v >= 255 ? 255 : (uint8_t)v;
        }
    }
    // The next row becomes the current one.
    float *t = r->acc[0]; r->acc[0] = r->acc[1]; r->acc[1] = t;
    memset(r->acc[1], 0, sizeof(float) * 4 * (size_t)r->out_w);
    r->row_sum[0] = r->row_sum[1]; r->row_sum[1] = 0;
    r->out_y++;
}

// Adds input row y (4 bytes a pixel); writes each output row into `out` (rows `stride` apart) once complete.
static void area_add_row(area_reducer *r, const uint8_t *src, int y, uint8_t *out, size_t stride) {
    float *h = r->h;
    memset(h, 0, sizeof(float) * 4 * (size_t)r->out_w);
    for (int i = 0; i < r->in_w; i++) {
        int j = r->col[i];
        float w = r->col_w[i];
        const uint8_t *p = src + 4 * i;
        for (int c = 0; c < 4; c++) h[4 * j + c] += w * p[c];
        if (w < 1) { float u = 1 - w; for (int c = 0; c < 4; c++) h[4 * (j + 1) + c] += u * p[c]; }
    }
    double sy = (double)r->in_h / r->out_h;
    int j = (int)(y / sy);
    if (j > r->out_h - 1) j = r->out_h - 1;
    while (r->out_y < j) area_emit(r, out + (size_t)r->out_y * stride);     // rows this one is past
    double boundary = (j + 1) * sy;
    float w = (j == r->out_h - 1 || y + 1 <= boundary) ? 1.0f : (float)(boundary - y);
    for (int k = 0; k < 4 * r->out_w; k++) r->acc[0][k] += w * h[k];
    r->row_sum[0] += w;
    if (w < 1) {
        float u = 1 - w;
        for (int k = 0; k < 4 * r->out_w; k++) r->acc[1][k] += u * h[k];
        r->row_sum[1] += u;
    }
    if (y == r->in_h - 1) {
        while (r->out_y < r->out_h) {
            if (r->row_sum[0] <= 0) r->row_sum[0] = 1;   // (only for a row no input reached: cannot happen when out_h <= in_h)
            area_emit(r, out + (size_t)r->out_y * stride);
        }
    }
}

// MARK: - JPEG (libjpeg-turbo)

struct mm_jpeg_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int ended;   // the file ended while rows were decoded (see jpeg_emit_message)
};

struct mm_jpeg {
    struct jpeg_decompress_struct cinfo;
    struct mm_jpeg_error error;
    uint8_t *icc;
    int decoded;
    // mm_jpeg_decode_reduced's buffers: fields, so a longjmp out of libjpeg cannot lose them.
    area_reducer reducer;
    uint8_t *rows;
    FILE *file;          // mm_jpeg_open_file's stream (owned: closed by mm_jpeg_close), or NULL
};

// libjpeg's default error_exit prints and calls exit(); this one jumps back to the calling function.
static void jpeg_error_exit(j_common_ptr cinfo) {
    struct mm_jpeg_error *e = (struct mm_jpeg_error *)cinfo->err;
    cinfo->err->format_message(cinfo, e->message);
    longjmp(e->jump, 1);
}

// Warnings (level -1) are ignored, except "premature end of JPEG file": libjpeg would fill the rest
// with grey and carry on, but a truncated photo must be reported, not shown half grey. While a
// baseline picture's rows are decoded, the end of the file is only noted: libjpeg then reads an end
// marker in its place, and warns "premature end of data segment" if the rows needed more data. A
// file that ends only before its own end marker (a copy two bytes short) has its whole picture, and
// is shown, as FFmpeg and viewers show it; one that ends in the rows is refused. (A file of several
// scans, progressive or one per component, may end between scans with no such warning and a picture
// missing its later scans: refused when it ends.)
static void jpeg_emit_message(j_common_ptr cinfo, int level) {
    struct mm_jpeg_error *e = (struct mm_jpeg_error *)cinfo->err;
    if (level != -1) return;
    cinfo->err->num_warnings++;
    int code = cinfo->err->msg_code;
    if (code == JWRN_JPEG_EOF && cinfo->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        if (d->output_height > 0 && !jpeg_has_multiple_scans(d)) { e->ended = 1; return; }
    }
    if (code == JWRN_JPEG_EOF || (code == JWRN_HIT_MARKER && e->ended)) {
        snprintf(e->message, sizeof e->message, "the file ends early (truncated JPEG data)");
        longjmp(e->jump, 1);
    }
}

// Opens from memory (`file` NULL) or from `file`, which the handle then owns.
static mm_jpeg *jpeg_open(const uint8_t *data, size_t size, FILE *file, mm_jpeg_header *header, char *message) {
    mm_jpeg *j = calloc(1, sizeof(mm_jpeg));
    if (j == NULL) { if (file) fclose(file); set_message(message, "out of memory"); return NULL; }
    j->file = file;
    j->cinfo.err = jpeg_std_error(&j->error.pub);
    j->error.pub.error_exit = jpeg_error_exit;
    j->error.pub.emit_message = jpeg_emit_message;
    if (setjmp(j->error.jump)) {
        set_message(message, j->error.message);
        mm_jpeg_close(j);
        return NULL;
    }
    jpeg_create_decompress(&j->cinfo);
    if (file) jpeg_stdio_src(&j->cinfo, file); else jpeg_mem_src(&j->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&j->cinfo, JPEG_APP0 + 1, 0xFFFF);   // EXIF
    jpeg_save_markers(&j->cinfo, JPEG_APP0 + 2, 0xFFFF);   // ICC profile chunks
    jpeg_read_header(&j->cinfo, TRUE);

    memset(header, 0, sizeof *header);
    header->width = (int)j->cinfo.image_width;
    header->height = (int)j->cinfo.image_height;
    header->progressive = j->cinfo.progressive_mode ? 1 : 0;
    switch (j->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: header->color = MM_JPEG_GRAY; break;
    case JCS_CMYK: case JCS_YCCK: header->color = MM_JPEG_CMYK; break;
    default: header->color = MM_JPEG_RGB; break;
    }
    // Photoshop writes CMYK inverted and marks the file with an Adobe APP14 segment; browsers and
    // viewers assume inverted CMYK when that marker is present.
    header->adobe_inverted = (header->color == MM_JPEG_CMYK && j->cinfo.saw_Adobe_marker) ? 1 : 0;
    for (jpeg_saved_marker_ptr m = j->cinfo.marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && header->exif == NULL && m->data_length > 6 &&
            memcmp(m->data, "Exif\0\0", 6) == 0) {
            header->exif = m->data + 6;
            header->exif_size = m->data_length - 6;
        }
    }
    JOCTET *icc = NULL;
    unsigned int icc_size = 0;
    if (jpeg_read_icc_profile(&j->cinfo, &icc, &icc_size) && icc != NULL) {
        j->icc = icc;
        header->icc = icc;
        header->icc_size = icc_size;
    }
    j->cinfo.out_color_space = header->color == MM_JPEG_CMYK ? JCS_CMYK : JCS_EXT_BGRA;
    return j;
}

mm_jpeg *mm_jpeg_open(const uint8_t *data, size_t size, mm_jpeg_header *header, char *message) {
    return jpeg_open(data, size, NULL, header, message);
}

mm_jpeg *mm_jpeg_open_file(int fd, mm_jpeg_header *header, char *message) {
    int copy = dup(fd);
    FILE *file = copy >= 0 ? fdopen(copy, "rb") : NULL;
    if (file == NULL) {
        if (copy >= 0) close(copy);
        set_message(message, "cannot read the file");
        return NULL;
    }
    return jpeg_open(NULL, 0, file, header, message);
}

int mm_jpeg_output_size(mm_jpeg *j, int scale_num, int *width, int *height, char *message) {
    if (setjmp(j->error.jump)) { set_message(message, j->error.message); return -1; }
    if (scale_num < 1) scale_num = 1;
    if (scale_num > 16) scale_num = 16;
    j->cinfo.scale_num = (unsigned int)scale_num;
    j->cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&j->cinfo);
    *width = (int)j->cinfo.output_width;
    *height = (int)j->cinfo.output_height;
    return 0;
}

int mm_jpeg_decode(mm_jpeg *j, uint8_t *pixels, size_t stride, char *message) {
    if (j->decoded) { set_message(message, "mm_jpeg_decode called twice"); return -1; }
    j->decoded = 1;
    if (setjmp(j->error.jump)) { set_message(message, j->error.message); return -1; }
    jpeg_start_decompress(&j->cinfo);
    if (j->cinfo.output_components != 4) {
        set_message(message, "unexpected number of decoded components");
        return -1;
    }
    JSAMPROW rows[16];
    while (j->cinfo.output_scanline < j->cinfo.output_height) {
        int n = 0;
        for (; n < 16 && j->cinfo.output_scanline + (unsigned int)n < j->cinfo.output_height; n++) {
            rows[n] = pixels + (size_t)(j->cinfo.output_scanline + (unsigned int)n) * stride;
        }
        jpeg_read_scanlines(&j->cinfo, rows, (JDIMENSION)n);
    }
    jpeg_finish_decompress(&j->cinfo);
    return 0;
}

int mm_jpeg_decode_reduced(mm_jpeg *j, uint8_t *pixels, size_t stride, int out_width, int out_height, char *message) {
    if (j->decoded) { set_message(message, "mm_jpeg_decode called twice"); return -1; }
    j->decoded = 1;
    enum { rows_at_once = 16 };
    if (setjmp(j->error.jump)) {
        area_free(&j->reducer); free(j->rows); j->rows = NULL;
        set_message(message, j->error.message);
        return -1;
    }
    jpeg_start_decompress(&j->cinfo);
    int in_w = (int)j->cinfo.output_width, in_h = (int)j->cinfo.output_height;
    if (j->cinfo.output_components != 4) { set_message(message, "unexpected number of decoded components"); return -1; }
    if (out_width < 1 || out_height < 1 || out_width > in_w || out_height > in_h) {
        set_message(message, "mm_jpeg_decode_reduced: the reduced size must be within the decoded size");
        return -1;
    }
    j->rows = malloc((size_t)in_w * 4 * rows_at_once);
    if (j->rows == NULL || area_init(&j->reducer, in_w, in_h, out_width, out_height) != 0) {
        free(j->rows); j->rows = NULL;
        set_message(message, "out of memory");
        return -1;
    }
    JSAMPROW rows[16];
    while (j->cinfo.output_scanline < j->cinfo.output_height) {
        int first = (int)j->cinfo.output_scanline, n = 0;
        for (; n < rows_at_once && first + n < in_h; n++) rows[n] = j->rows + (size_t)n * in_w * 4;
        int read = (int)jpeg_read_scanlines(&j->cinfo, rows, (JDIMENSION)n);
        for (int k = 0; k < read; k++) area_add_row(&j->reducer, rows[k], first + k, pixels, stride);
    }
    jpeg_finish_decompress(&j->cinfo);
    area_free(&j->reducer); free(j->rows); j->rows = NULL;
    return 0;
}

void mm_jpeg_close(mm_jpeg *j) {
    if (j == NULL) return;
    jpeg_destroy_decompress(&j->cinfo);
    area_free(&j->reducer);
    free(j->rows);
    free(j->icc);
    if (j->file) fclose(j->file);
    free(j);
}

// MARK: - PNG (libpng)

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t position;
    char message[MM_IMAGE_MESSAGE_SIZE];
    // Owned buffers, freed after a success or a longjmp alike (fields, not locals, so a longjmp
    // cannot lose them).
    uint8_t *row;
    uint8_t **row_pointers;
    uint8_t *full;
    box_accumulator acc;
} png_job;

static void png_read_memory(png_structp png, png_bytep out, size_t length) {
    png_job *job = png_get_io_ptr(png);
    if (job->position + length > job->size) {
        png_error(png, "the file ends early (truncated PNG data)");
    }
    memcpy(out, job->data + job->position, length);
    job->position += length;
}

// libpng calls this and then, if it returned, aborts; it must not return, so it longjmps.
static void png_on_error(png_structp png, png_const_charp text) {
    png_job *job = png_get_error_ptr(png);
    snprintf(job->message, sizeof job->message, "%s", text);
    png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static png_structp png_job_start(png_job *job, const uint8_t *data, size_t size) {
    memset(job, 0, sizeof *job);
    job->data = data;
    job->size = size;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, job, png_on_error, png_on_warning);
    if (png != NULL) png_set_read_fn(png, job, png_read_memory);
    return png;
}

static void png_job_free(png_job *job) {
    free(job->row); job->row = NULL;
    free(job->row_pointers); job->row_pointers = NULL;
    free(job->full); job->full = NULL;
    free(job->acc.sums); job->acc.sums = NULL;
}

static uint8_t *copy_bytes(const uint8_t *bytes, size_t size) {
    uint8_t *copy = malloc(size);
    if (copy != NULL) memcpy(copy, bytes, size);
    return copy;
}

int mm_png_read_info(const uint8_t *data, size_t size, mm_png_info *info, char *message) {
    memset(info, 0, sizeof *info);
    png_job job;
    png_structp png = png_job_start(&job, data, size);
    if (png == NULL) { set_message(message, "libpng could not start"); return -1; }
    png_infop pinfo = png_create_info_struct(png);
    if (pinfo == NULL) { png_destroy_read_struct(&png, NULL, NULL); set_message(message, "out of memory"); return -1; }
    if (setjmp(png_jmpbuf(png))) {
        set_message(message, job.message);
        png_destroy_read_struct(&png, &pinfo, NULL);
        mm_image_free(info->icc); info->icc = NULL;
        mm_image_free(info->exif); info->exif = NULL;
        return -1;
    }
    png_read_info(png, pinfo);
    info->width = (int)png_get_image_width(png, pinfo);
    info->height = (int)png_get_image_height(png, pinfo);
    info->bit_depth = png_get_bit_depth(png, pinfo);
    info->color_type = png_get_color_type(png, pinfo);
    info->interlaced = png_get_interlace_type(png, pinfo) != PNG_INTERLACE_NONE;
    info->has_alpha = (info->color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, pinfo, PNG_INFO_tRNS);
    info->srgb = png_get_valid(png, pinfo, PNG_INFO_sRGB) ? 1 : 0;
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profile_size = 0;
    if (png_get_iCCP(png, pinfo, &name, &compression, &profile, &profile_size) && profile != NULL) {
        info->icc = copy_bytes(profile, profile_size);
        info->icc_size = info->icc != NULL ? profile_size : 0;
    }
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, pinfo, &exif_size, &exif) && exif != NULL) {
        info->exif = copy_bytes(exif, exif_size);
        info->exif_size = info->exif != NULL ? exif_size : 0;
    }
    png_destroy_read_struct(&png, &pinfo, NULL);
    return 0;
}

int mm_png_decode(const uint8_t *data, size_t size, int factor, uint8_t *pixels, size_t stride, char *message) {
    if (factor < 1) factor = 1;
    if (factor > 256) factor = 256;
    png_job job;
    png_job *volatile jp = &job;
    png_structp png = png_job_start(&job, data, size);
    if (png == NULL) { set_message(message, "libpng could not start"); return -1; }
    png_infop pinfo = png_create_info_struct(png);
    if (pinfo == NULL) { png_destroy_read_struct(&png, NULL, NULL); set_message(message, "out of memory"); return -1; }
    if (setjmp(png_jmpbuf(png))) {
        set_message(message, jp->message);
        png_job_free(jp);
        png_destroy_read_struct(&png, &pinfo, NULL);
        return -1;
    }
    png_read_info(png, pinfo);
    int width = (int)png_get_image_width(png, pinfo);
    int height = (int)png_get_image_height(png, pinfo);
    int color_type = png_get_color_type(png, pinfo);
    int bit_depth = png_get_bit_depth(png, pinfo);
    // Every layout becomes 8-bit B, G, R, A.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, pinfo, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);   // rounds (0x8080 → 128), unlike strip_16
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_bgr(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);   // adds alpha only where there is none
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, pinfo);
    if (png_get_rowbytes(png, pinfo) != (size_t)width * 4) png_error(png, "unexpected decoded row size");

    if (factor == 1 && passes == 1) {
        for (int y = 0; y < height; y++) png_read_row(png, pixels + (size_t)y * stride, NULL);
    } else if (passes == 1) {
        // Stream: each row is added to a band of sums; every `factor` rows become one output row.
        jp->row = malloc((size_t)width * 4);
        if (jp->row == NULL || box_init(&jp->acc, width, factor) != 0) png_error(png, "out of memory");
        int out_y = 0;
        for (int y = 0; y < height; y++) {
            png_read_row(png, jp->row, NULL);
            box_add_row(&jp->acc, jp->row, width);
            if ((y + 1) % factor == 0 || y == height - 1) {
                box_emit_row(&jp->acc, pixels + (size_t)out_y * stride, 0);
                out_y++;
            }
        }
    } else {
        // Adam7 fills rows in seven passes, so the whole image must be in memory first.
        size_t full_stride = (size_t)width * 4;
        uint8_t *target = pixels;
        if (factor > 1) {
            jp->full = malloc(full_stride * (size_t)height);
            if (jp->full == NULL) png_error(png, "out of memory");
            target = jp->full;
        } else {
            full_stride = stride;
        }
        jp->row_pointers = malloc(sizeof(uint8_t *) * (size_t)height);
        if (jp->row_pointers == NULL) png_error(png, "out of memory");
        for (int y = 0; y < height; y++) jp->row_pointers[y] = target + (size_t)y * full_stride;
        png_read_image(png, jp->row_pointers);
        if (factor > 1) mm_box_reduce(jp->full, width, height, full_stride, factor, 0, pixels, stride);
    }
    png_job_free(jp);
    png_destroy_read_struct(&png, &pinfo, NULL);
    return 0;
}
