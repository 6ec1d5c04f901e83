#define _GNU_SOURCE
#include "CMovieMakerShim.h"
#include <sched.h>
#include <dirent.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <libavutil/avutil.h>
#include <libavformat/avformat.h>
#include <libavutil/mem.h>
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

// MARK: Partial files removed on a signal

// A fixed table, so the handler allocates nothing: each slot is free (0), being written or cleared
// (1), or holds a path (2). The handler uses only async-signal-safe calls (unlink, rmdir, open, the
// getdents64 system call, unlinkat, close, write, memset, sigemptyset, sigaction, sigprocmask, raise).
#define MM_PARTIAL_SLOTS 64
#define MM_PARTIAL_PATH 4096
static _Atomic int mm_partial_state[MM_PARTIAL_SLOTS];
static char mm_partial_paths[MM_PARTIAL_SLOTS][MM_PARTIAL_PATH];

int mm_partial_add(const char *path) {
    if (strlen(path) >= MM_PARTIAL_PATH) return -1;
    for (int i = 0; i < MM_PARTIAL_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&mm_partial_state[i], &expected, 1)) {
            strcpy(mm_partial_paths[i], path);
            atomic_store(&mm_partial_state[i], 2);
            return i;
        }
    }
    return -1;
}

void mm_partial_remove(int slot) {
    if (slot < 0 || slot >= MM_PARTIAL_SLOTS) return;
    int expected = 2;
    if (atomic_compare_exchange_strong(&mm_partial_state[slot], &expected, 1)) {
        mm_partial_paths[slot][0] = 0;
        atomic_store(&mm_partial_state[slot], 0);
    }
}

struct mm_dirent64 { unsigned long long d_ino; long long d_off; unsigned short d_reclen; unsigned char d_type; char d_name[]; };

static void mm_partial_remove_path(const char *path) {
    if (unlink(path) == 0 || errno != EISDIR) return;
    // A PNG sequence's partial folder: its files, then the folder.
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        char buffer[4096];
        long n;
        while ((n = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
            for (long offset = 0; offset < n;) {
                struct mm_dirent64 *entry = (struct mm_dirent64 *)(buffer + offset);
                if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0) unlinkat(fd, entry->d_name, 0);
                offset += entry->d_reclen;
            }
        }
        close(fd);
    }
    rmdir(path);
}

static void mm_partial_signal_handler(int signal_number) {
    int saved = errno;
    int removed = 0;
    for (int i = 0; i < MM_PARTIAL_SLOTS; i++) {
        if (atomic_load(&mm_partial_state[i]) == 2) { mm_partial_remove_path(mm_partial_paths[i]); removed++; }
    }
    // One line, so a script stopped with Ctrl-C does not end in silence (the shell prints nothing for
    // SIGINT). Not on SIGPIPE: standard error may be the very pipe that closed.
    if (removed > 0 && signal_number != SIGPIPE) {
        static const char message[] = "MovieMaker: stopped by a signal: the unfinished output was removed (what was finished before stays)\n";
        // Standard error may be a pipe whose reader is gone (the same Ctrl-C stopped it): ignore SIGPIPE
        // for this one write, so the process still ends by the signal it was sent.
        struct sigaction ignore, previous;
        memset(&ignore, 0, sizeof ignore);
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGPIPE, &ignore, &previous);
        ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
        (void)ignored;
        sigaction(SIGPIPE, &previous, NULL);
    }
    struct sigaction standard;
    memset(&standard, 0, sizeof standard);
    standard.sa_handler = SIG_DFL;
    sigemptyset(&standard.sa_mask);
    sigaction(signal_number, &standard, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signal_number);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(signal_number);
    errno = saved;
}

void mm_partial_install_signal_cleanup(const int *signals, int count) {
    for (int i = 0; i < count; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = mm_partial_signal_handler;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, NULL);
    }
}

int mm_add_chapter(AVFormatContext *s, int64_t id, int time_base_num, int time_base_den, int64_t start, int64_t end, const char *title) {
    AVChapter *chapter = av_mallocz(sizeof(AVChapter));
    if (!chapter) return AVERROR(ENOMEM);
    chapter->id = id;
    chapter->time_base = (AVRational){ time_base_num, time_base_den };
    chapter->start = start;
    chapter->end = end;
    if (av_dict_set(&chapter->metadata, "title", title, 0) < 0 ||
        av_dynarray_add_nofree(&s->chapters, (int *)&s->nb_chapters, chapter) < 0) {
        av_dict_free(&chapter->metadata);
        av_free(chapter);
        return AVERROR(ENOMEM);
    }
    return 0;
}
