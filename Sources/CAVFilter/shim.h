// libavfilter: filter graphs for time-stretched and reversed sound (atempo, asetrate, aresample) and
// for video filters on decoded frames (bwdif deinterlacing). Same FFmpeg release as CFFmpeg's libraries.
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
