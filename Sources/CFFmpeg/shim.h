// The five FFmpeg libraries MovieMaker uses, as one module (they are versioned and shipped together).
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/display.h>
#include <libavutil/hash.h>
#include <libavutil/tx.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
