#define _GNU_SOURCE
#include "CMovieMakerShim.h"
#include <sched.h>
#include <dirent.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/log.h>

int mm_averror_eagain(void) { return AVERROR(EAGAIN); }
int mm_averror_eof(void) { return AVERROR_EOF; }
int mm_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
int mm_averror_demuxer_not_found(void) { return AVERROR_DEMUXER_NOT_FOUND; }
int mm_averror_experimental(void) { return AVERROR_EXPERIMENTAL; }
int mm_averror(int posix_errno) { return AVERROR(posix_errno); }
int64_t mm_av_nopts_value(void) { return AV_NOPTS_VALUE; }

const char *mm_av_error_string(int errnum, char *buffer, int size) {
    av_strerror(errnum, buffer, (size_t)size);
    return buffer;
}

static mm_log_sink current_sink = NULL;

// FFmpeg hands log callbacks a format string and a va_list; Swift cannot forward a va_list into
// a formatter portably, so the line is formatted here and the finished text goes to Swift.
static void forward_log(void *avcl, int level, const char *fmt, va_list vl) {
    mm_log_sink sink = current_sink;
    if (sink == NULL || level > av_log_get_level()) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line2(avcl, level, fmt, vl, line, (int)sizeof line, &print_prefix);
    sink(level, line);
}

void mm_set_log_sink(mm_log_sink sink, int level) {
    current_sink = sink;
    if (sink == NULL) {
        av_log_set_level(AV_LOG_QUIET);
        av_log_set_callback(av_log_default_callback);
    } else {
        av_log_set_level(level);
        av_log_set_callback(forward_log);
    }
}

int mm_affinity_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    int n = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        if (cpus && n < capacity) cpus[n] = cpu;
        n++;
    }
    return n;
}

int mm_set_affinity(const int *cpus, int count) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; i++) {
        if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE) return -1;
        CPU_SET(cpus[i], &set);
    }
    if (sched_setaffinity(0, sizeof(set), &set) != 0) return -1;
    DIR *tasks = opendir("/proc/self/task");
    if (tasks) {
        struct dirent *entry;
        while ((entry = readdir(tasks)) != NULL) {
            int tid = atoi(entry->d_name);
            if (tid > 0) sched_setaffinity(tid, sizeof(set), &set);
        }
        closedir(tasks);
    }
    return 0;
}
