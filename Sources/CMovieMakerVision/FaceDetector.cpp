// OpenCV's cascade face detector (objdetect) for MovieMaker's reframing. C++ stays in this file.
#include "CMovieMakerVision.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>

struct mm_face_detector {
    cv::CascadeClassifier cascade;
};

static void report(char *error, size_t size, const char *message) {
    if (error && size > 0) std::snprintf(error, size, "%s", message);
}

extern "C" mm_face_detector *mm_face_detector_open(const char *cascade_path, char *error, size_t error_size) {
    try {
        // OpenCV's own thread pool would split each detection across cores the render is using, and
        // its grouping of candidate boxes may then depend on timing: one thread keeps it deterministic.
        cv::setNumThreads(1);
        auto *detector = new mm_face_detector();
        if (!detector->cascade.load(cascade_path)) {
            delete detector;
            report(error, error_size, "OpenCV could not load the cascade");
            return nullptr;
        }
        return detector;
    } catch (const std::exception &e) {
        report(error, error_size, e.what());
        return nullptr;
    } catch (...) {
        report(error, error_size, "unknown OpenCV error");
        return nullptr;
    }
}

extern "C" void mm_face_detector_close(mm_face_detector *detector) { delete detector; }

extern "C" int32_t mm_face_detector_detect(mm_face_detector *detector, const uint8_t *gray, int32_t width, int32_t height,
                                           int32_t stride, int32_t min_size, mm_face *faces, int32_t capacity,
                                           char *error, size_t error_size) {
    if (!detector || !gray || width <= 0 || height <= 0 || stride < width) {
        report(error, error_size, "invalid picture");
        return -1;
    }
    try {
        // A header over the caller's pixels (no copy). Not histogram-equalised, as OpenCV's tutorial does:
        // a frame with a large plain area (a wall, the sky) is stretched so that faces lose their contrast.
        cv::Mat picture(height, width, CV_8UC1, const_cast<uint8_t *>(gray), static_cast<size_t>(stride));
        std::vector<cv::Rect> found;
        int smallest = std::max(1, static_cast<int>(min_size));
        detector->cascade.detectMultiScale(picture, found, 1.2, 3, 0, cv::Size(smallest, smallest));
        // Largest first; ties in a fixed order (equal boxes are interchangeable).
        std::sort(found.begin(), found.end(), [](const cv::Rect &a, const cv::Rect &b) {
            if (a.area() != b.area()) return a.area() > b.area();
            if (a.x != b.x) return a.x < b.x;
            if (a.y != b.y) return a.y < b.y;
            return a.width < b.width;
        });
        int32_t n = std::min<int32_t>(capacity, static_cast<int32_t>(found.size()));
        for (int32_t i = 0; i < n; i++) faces[i] = mm_face{found[i].x, found[i].y, found[i].width, found[i].height};
        return n;
    } catch (const std::exception &e) {
        report(error, error_size, e.what());
        return -1;
    } catch (...) {
        report(error, error_size, "unknown OpenCV error");
        return -1;
    }
}
