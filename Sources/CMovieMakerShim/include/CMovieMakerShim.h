#ifndef MOVIEMAKER_SHIM_H
#define MOVIEMAKER_SHIM_H
#include <stdint.h>
#include <stddef.h>

/// AVERROR(EAGAIN): a function-like macro, which Swift does not import.
int mm_averror_eagain(void);
/// AVERROR_EOF: built with FFERRTAG, a macro Swift does not import.
int mm_averror_eof(void);
/// AVERROR_INVALIDDATA: built with FFERRTAG, a macro Swift does not import.
int mm_averror_invaliddata(void);
/// AVERROR_DEMUXER_NOT_FOUND: built with FFERRTAG, a macro Swift does not import.
int mm_averror_demuxer_not_found(void);
/// AVERROR_EXPERIMENTAL: defined as a negated hex expression (-0x2bb2afa8) Swift does not import as a constant.
int mm_averror_experimental(void);
/// AVERROR(e) for any errno value: function-like macro.
int mm_averror(int posix_errno);
/// AV_NOPTS_VALUE: defined as a cast expression ((int64_t)UINT64_C(0x8000000000000000)), which Swift does not import.
int64_t mm_av_nopts_value(void);
/// av_err2str: a macro around a compound literal (a stack buffer), which Swift cannot import or express.
/// Writes the message for `errnum` into `buffer` and returns it.
const char *mm_av_error_string(int errnum, char *buffer, int size);

/// The callback shape MovieMaker receives FFmpeg's (and x264's, via libavcodec) log lines in:
/// already formatted, since a `va_list` cannot be formatted portably from Swift.
typedef void (*mm_log_sink)(int level, const char *line);
/// Installs `sink` as FFmpeg's log callback at `level` (AV_LOG_*); NULL and AV_LOG_QUIET silence it.
void mm_set_log_sink(mm_log_sink sink, int level);

/// The CPUs in this process's affinity mask (sched_getaffinity and CPU_COUNT need _GNU_SOURCE and are
/// macros over cpu_set_t, which Swift's Glibc module does not import): their count, and up to
/// `capacity` of their numbers in `cpus` (ascending). Returns -1 when the mask cannot be read.
int mm_affinity_cpus(int *cpus, int capacity);
/// Sets the affinity mask of every thread of this process (sched_setaffinity acts on one thread; the
/// threads listed in /proc/self/task, so Dispatch's and Foundation's existing threads are limited too)
/// to the `count` CPUs in `cpus` (CPU_SET, a macro). Returns 0, or -1 when the calling thread's fails.
int mm_set_affinity(const int *cpus, int count);

/// Partial files removed when the process is stopped by a signal, from a plain signal handler (a
/// Dispatch signal source lost signals that reached a thread before Dispatch's own handler had blocked
/// them there). `mm_partial_add` records a path (a file, or a folder of files) and returns its slot, or
/// -1 when all are taken; `mm_partial_remove` forgets the slot. Both are safe to call from any thread.
int mm_partial_add(const char *path);
void mm_partial_remove(int slot);
/// Installs the handler for the `count` signals in `signals`: it removes every recorded path, restores
/// the default action and raises the signal again, so the process dies of it as it would have.
void mm_partial_install_signal_cleanup(const int *signals, int count);

/// BGRA → yuv420p, BT.709 limited range, as libswscale's bicubic accurate path computes it (within one
/// level) at about half its cost. The scratch holds rows of chroma for one size; NULL when the size is
/// odd or under 16×16 (swscale converts those). One scratch per thread: it is rewritten by each call.
typedef struct mm_yuv420_scratch mm_yuv420_scratch;
mm_yuv420_scratch *mm_yuv420_scratch_create(int width, int height);
void mm_yuv420_scratch_free(mm_yuv420_scratch *scratch);
/// Converts one premultiplied-BGRA picture of the scratch's size (alpha ignored, as for opaque output)
/// into three planes; uses AVX2 when the CPU has it, with the same bytes as without.
void mm_bgra_to_yuv420p(mm_yuv420_scratch *scratch, const uint8_t *src, ptrdiff_t src_stride,
                        uint8_t *y, ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride);
/// Whether `mm_bgra_to_yuv420p` takes its AVX2 path on this CPU (1) or not (0).
int mm_has_avx2(void);
/// The same without AVX2, for the test that both give the same bytes.
void mm_bgra_to_yuv420p_generic(mm_yuv420_scratch *scratch, const uint8_t *src, ptrdiff_t src_stride,
                                uint8_t *y, ptrdiff_t y_stride, uint8_t *u, ptrdiff_t u_stride, uint8_t *v, ptrdiff_t v_stride);

/// Mixes two 8-bit planes of `width`×`height` samples into `dst`: `(a·(65536 − weight) + b·weight +
/// 32768) >> 16` per sample, `weight` in 0…65536 (a crossfade of two decoded YUV pictures: the mix is
/// linear, so mixing Y, U and V is mixing the colours they stand for, within rounding). Integer only:
/// the bytes do not depend on the CPU. `dst` may be `a` or `b` when its stride is theirs.
void mm_mix_plane(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *a, ptrdiff_t a_stride,
                  const uint8_t *b, ptrdiff_t b_stride, int width, int height, int weight);

/// Fills `height` rows of `width` 32-bit pixels (rows `stride` bytes apart) from a gradient's colour
/// `table`: pixel x of row y takes entry ⌊clamp(t, 0, highest)⌋, where t is `row_start + x ×
/// column_step` and `row_start` grows by `row_step` a row (the gradient parameter in table entries,
/// affine in device space). Every t must be finite.
void mm_gradient_rows(uint8_t *pixels, ptrdiff_t stride, int width, int height, const uint32_t *table,
                      double highest, double row_start, double row_step, double column_step);

/// The true peak of one channel's block (TruePeakDetector's filtering): `lane` holds `keep` samples of
/// history then `frame_count` new ones; each new sample's peak is the largest magnitude of the sample and
/// the `4 × groups` phases of the interpolator (`coefficients` phase-major, `taps` each; `interleaved`
/// the same grouped four phases at a time, tap-major within a group). Raises `peaks[i]` (when not NULL)
/// to frame i's peak and returns the largest. With `use_threshold`, runs of 64 frames whose samples times
/// `bound` cannot exceed `threshold` keep their sample peaks unfiltered.
float mm_true_peak_lane(const float *lane, int frame_count, int keep, const float *coefficients,
                        const float *interleaved, int groups, int taps, float *peaks,
                        int use_threshold, float threshold, float bound);

/// Appends a chapter to an output format context, as the ffmpeg command line's copy_chapters does
/// (libavformat's own avpriv_new_chapter is not public): an AVChapter allocated with av_mallocz and added
/// to `s->chapters`, which avformat_free_context frees with its `title` metadata. Only before the header.
/// Returns 0 or a negative AVERROR.
struct AVFormatContext;
int mm_add_chapter(struct AVFormatContext *s, int64_t id, int time_base_num, int time_base_den, int64_t start, int64_t end, const char *title);

#endif
