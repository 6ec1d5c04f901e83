// OpenCV's API is C++, which Swift does not import here: this module only carries OpenCV's compiler
// and linker flags (pkg-config's opencv4) to CMovieMakerVision, whose C functions Swift calls.
// Libraries come from pkg-config; the Makefile's wrapper (scripts/pkgconfig-wrappers.sh) keeps only
// the two modules MovieMaker uses (objdetect, core), since the full list loads several hundred libraries at start-up.
#ifndef MOVIEMAKER_COPENCV_SHIM_H
#define MOVIEMAKER_COPENCV_SHIM_H
#endif
