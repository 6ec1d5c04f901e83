// OpenCV's face detector behind a C interface Swift can call (FaceDetector.swift owns the handle).
// Every function catches OpenCV's C++ exceptions and reports them as a message: none crosses into Swift.
#ifndef MOVIEMAKER_VISION_H
#define MOVIEMAKER_VISION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A loaded cascade classifier (opaque; owned by whoever `mm_face_detector_open` returned it to).
typedef struct mm_face_detector mm_face_detector;

/// A face found in a picture, in its pixels.
typedef struct mm_face {
    int32_t x, y, width, height;
} mm_face;

/// Loads the cascade at `cascade_path` (OpenCV's XML, e.g. haarcascade_frontalface_default.xml), or
/// returns NULL with the reason in `error` (NUL-terminated, at most `error_size` bytes).
mm_face_detector *mm_face_detector_open(const char *cascade_path, char *error, size_t error_size);

/// Frees a detector from `mm_face_detector_open` (NULL is ignored).
void mm_face_detector_close(mm_face_detector *detector);

/// Finds faces at least `min_size` pixels wide in the 8-bit grey picture `gray` (`width`×`height`, rows
/// `stride` bytes apart). Writes at most `capacity` faces (largest
/// first) and returns how many it wrote, or -1 with the reason in `error`. Single-threaded and
/// deterministic: the same picture gives the same faces.
int32_t mm_face_detector_detect(mm_face_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                                int32_t stride, int32_t min_size, mm_face *faces, int32_t capacity,
                                char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
