// See CMovieMakerSpeech.h for why each synthesis runs in a child process.
#define _GNU_SOURCE
#include "CMovieMakerSpeech.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <espeak-ng/speak_lib.h>

// ---- The child: only this code and eSpeak NG run there, then _exit. ----

/// The pipe's write end in the child.
static int child_fd = -1;

static void child_write(const void *bytes, size_t size) {
    const char *p = bytes;
    while (size > 0) {
        ssize_t n = write(child_fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) _exit(MM_SPEECH_WRITE_FAILED);
        p += n;
        size -= (size_t)n;
    }
}

static void child_record(char tag, const void *payload, size_t size) {
    child_write(&tag, 1);
    if (size > 0) child_write(payload, size);
}

static int child_callback(short *wav, int count, espeak_EVENT *events) {
    if (wav != NULL && count > 0) {
        int32_t n = count;
        child_record('S', &n, sizeof n);
        child_write(wav, (size_t)count * sizeof(short));
    }
    for (espeak_EVENT *e = events; e != NULL && e->type != espeakEVENT_LIST_TERMINATED; e++) {
        // Events of length 0 are not words (eSpeak NG sends one after some Japanese sentences).
        if (e->type == espeakEVENT_WORD && e->length > 0 && e->text_position > 0) {
            int32_t word[3] = { e->text_position, e->length, e->sample };
            child_record('W', word, sizeof word);
        }
    }
    return 0;
}

/// The child's start: default handling of every signal (the parent's handlers, the Swift runtime's
/// crash reporter among them, are not for this process), standard descriptors on /dev/null (eSpeak NG
/// may print warnings) and no other descriptor but the pipe on 3 (another thread's child must see its
/// pipe close when that child ends), eSpeak NG initialised, `rand()` seeded and the voice selected.
/// Then the 'R' record: it tells the parent that the child got past everything a lock held at fork
/// time by another of the parent's threads could block (setlocale's lock in espeak_Initialize,
/// random's in srand). Ends the child on failure.
static void child_start(const mm_speech_request *request, int fd, int stall) {
    struct sigaction standard;
    memset(&standard, 0, sizeof standard);
    standard.sa_handler = SIG_DFL;
    sigemptyset(&standard.sa_mask);
    for (int signal = 1; signal < _NSIG; signal++) sigaction(signal, &standard, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (fd != 3) {
        if (dup3(fd, 3, O_CLOEXEC) < 0) _exit(MM_SPEECH_WRITE_FAILED);
    }
    child_fd = 3;
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        for (int i = 0; i < 3; i++) dup2(null, i);
    }
    if (close_range(4, ~0U, 0) != 0) {
        long limit = sysconf(_SC_OPEN_MAX);
        if (limit < 0 || limit > 1048576) limit = 1048576;
        for (int i = 4; i < limit; i++) close(i);
    }
    if (stall) {
        // A test's stuck child, where a real one blocks (before espeak_Initialize): the parent kills
        // it; should the parent be gone, it ends by itself.
        for (int second = 0; second < 300; second++) sleep(1);
        _exit(MM_SPEECH_INIT_FAILED);
    }
    // DONT_EXIT: without it, eSpeak NG ends the process when its data is missing.
    int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, request->data_path, espeakINITIALIZE_DONT_EXIT);
    if (rate <= 0) _exit(MM_SPEECH_INIT_FAILED);
    srand(request->seed);
    if (espeak_SetVoiceByName(request->voice) != EE_OK) {
        if (!request->by_language) _exit(MM_SPEECH_NO_VOICE);
        espeak_VOICE spec;
        memset(&spec, 0, sizeof spec);
        spec.languages = request->voice;
        if (espeak_SetVoiceByProperties(&spec) != EE_OK) _exit(MM_SPEECH_NO_VOICE);
    }
    int32_t r = rate;
    child_record('R', &r, sizeof r);
}

static void child_speak(const mm_speech_request *request, const char *text, size_t text_size, unsigned int flags) {
    // Every parameter, as a fresh process's defaults would not all be what MovieMaker speaks with.
    const struct { espeak_PARAMETER parameter; int value; } parameters[] = {
        { espeakRATE, request->rate }, { espeakPITCH, request->pitch }, { espeakVOLUME, 100 }, { espeakRANGE, 50 },
        { espeakPUNCTUATION, espeakPUNCT_NONE }, { espeakCAPITALS, 0 }, { espeakWORDGAP, 0 }, { espeakINTONATION, 0 },
    };
    for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++) espeak_SetParameter(parameters[i].parameter, parameters[i].value, 0);
    espeak_SetSynthCallback(child_callback);
    if (espeak_Synth(text, text_size, 0, POS_CHARACTER, 0, flags, NULL, NULL) != EE_OK) _exit(MM_SPEECH_SYNTH_FAILED);
    child_record('Z', NULL, 0);
    _exit(MM_SPEECH_OK);
}

static void child_phonemes(const char *words, size_t words_size, int count) {
    size_t offset = 0;
    for (int i = 0; i < count && offset < words_size; i++) {
        const char *word = words + offset;
        offset += strlen(word) + 1;
        const void *pointer = word;
        const char *phonemes = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, 0);
        int32_t length = phonemes != NULL ? (int32_t)strlen(phonemes) : 0;
        child_record('P', &length, sizeof length);
        if (length > 0) child_write(phonemes, (size_t)length);
    }
    child_record('Z', NULL, 0);
    _exit(MM_SPEECH_OK);
}

// ---- This process: fork, read the child's stream, wait. ----

/// How long a child may take to send its first record (after eSpeak NG's initialisation).
#define FIRST_RECORD_MS 10000
/// Internal: the child sent nothing before FIRST_RECORD_MS.
#define MM_SPEECH_STUCK 99

_Static_assert(sizeof(mm_speech_word) == 12, "a word record is three int32");

/// What a child wrote, and how it ended.
typedef struct stream {
    char *bytes;
    size_t size;
    size_t capacity;
} stream;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

/// Reads the child's whole stream (until it closes the pipe) within the timeout, then reaps it.
/// Returns an MM_SPEECH_ code: the child's exit status, or one of this side's failures.
static int collect(pid_t child, int fd, int timeout_ms, int first_record_ms, stream *out, int32_t *system_error) {
    double start = now_ms();
    double limit = timeout_ms > 0 ? timeout_ms : 60000;
    double first_record = first_record_ms > 0 ? first_record_ms : FIRST_RECORD_MS;
    int result = MM_SPEECH_OK;
    for (;;) {
        // Until the child's first record, a short deadline: a child that blocks there is stuck on a
        // lock it inherited, and a new child will not be (see child_start).
        double deadline = start + (out->size == 0 && limit > first_record ? first_record : limit);
        if (out->capacity - out->size < 65536) {
            size_t capacity = out->capacity == 0 ? 262144 : out->capacity * 2;
            char *grown = realloc(out->bytes, capacity);
            if (grown == NULL) { result = MM_SPEECH_SYSTEM_FAILED; *system_error = ENOMEM; break; }
            out->bytes = grown;
            out->capacity = capacity;
        }
        int left = (int)(deadline - now_ms());
        if (left <= 0) { result = out->size == 0 ? MM_SPEECH_STUCK : MM_SPEECH_TIMED_OUT; break; }
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int ready = poll(&p, 1, left);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) { result = MM_SPEECH_SYSTEM_FAILED; *system_error = errno; break; }
        if (ready == 0) continue;
        ssize_t n = read(fd, out->bytes + out->size, out->capacity - out->size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { result = MM_SPEECH_SYSTEM_FAILED; *system_error = errno; break; }
        if (n == 0) break;
        out->size += (size_t)n;
    }
    close(fd);
    if (result != MM_SPEECH_OK) kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno == EINTR) continue;
        // ECHILD: something else in the process reaped it; the stream says whether it finished.
        if (errno == ECHILD && result == MM_SPEECH_OK) return MM_SPEECH_OK;
        if (result == MM_SPEECH_OK) { result = MM_SPEECH_SYSTEM_FAILED; *system_error = errno; }
        return result;
    }
    if (result != MM_SPEECH_OK) return result;
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code == MM_SPEECH_OK || code == MM_SPEECH_INIT_FAILED || code == MM_SPEECH_NO_VOICE
            || code == MM_SPEECH_SYNTH_FAILED || code == MM_SPEECH_WRITE_FAILED) return code;
        *system_error = code;
        return MM_SPEECH_CHILD_FAILED;
    }
    // A signal as a negative number, an unexpected exit status as a positive one.
    *system_error = WIFSIGNALED(status) ? -WTERMSIG(status) : 0;
    return MM_SPEECH_CHILD_FAILED;
}

/// Forks a child that runs `job` after child_start; reads its stream into `out`.
static int run_child_once(const mm_speech_request *request, int attempt, stream *out, int32_t *system_error,
                     void (*job)(const mm_speech_request *, const void *, size_t, unsigned int, int), const void *input, size_t input_size,
                     unsigned int flags, int count) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) { *system_error = errno; return MM_SPEECH_SYSTEM_FAILED; }
    pid_t child = fork();
    if (child < 0) {
        *system_error = errno;
        close(fds[0]);
        close(fds[1]);
        return MM_SPEECH_SYSTEM_FAILED;
    }
    if (child == 0) {
        close(fds[0]);
        child_start(request, fds[1], attempt < request->stalled_attempts);
        job(request, input, input_size, flags, count);
        _exit(MM_SPEECH_OK);
    }
    close(fds[1]);
    return collect(child, fds[0], request->timeout_ms, request->first_record_ms, out, system_error);
}

/// run_child_once, again with a new child (up to twice more) when one got stuck before its first record.
static int run_child(const mm_speech_request *request, stream *out, int32_t *system_error,
                     void (*job)(const mm_speech_request *, const void *, size_t, unsigned int, int), const void *input, size_t input_size,
                     unsigned int flags, int count) {
    int result = MM_SPEECH_STUCK;
    for (int attempt = 0; attempt < 3 && result == MM_SPEECH_STUCK; attempt++) {
        out->size = 0;
        result = run_child_once(request, attempt, out, system_error, job, input, input_size, flags, count);
    }
    return result == MM_SPEECH_STUCK ? MM_SPEECH_TIMED_OUT : result;
}

static void speak_job(const mm_speech_request *request, const void *text, size_t size, unsigned int flags, int count) {
    (void)count;
    child_speak(request, text, size, flags);
}

static void phonemes_job(const mm_speech_request *request, const void *words, size_t size, unsigned int flags, int count) {
    (void)request;
    (void)flags;
    child_phonemes(words, size, count);
}

static int read_int(const stream *s, size_t *at, int32_t *value) {
    if (s->size - *at < sizeof *value) return 0;
    memcpy(value, s->bytes + *at, sizeof *value);
    *at += sizeof *value;
    return 1;
}

int mm_speech_speak(const mm_speech_request *request, const char *text, size_t text_size, unsigned int flags, mm_speech *out) {
    memset(out, 0, sizeof *out);
    stream s = { 0 };
    int result = run_child(request, &s, &out->system_error, speak_job, text, text_size, flags, 0);
    if (result != MM_SPEECH_OK) { free(s.bytes); return result; }
    // Two passes: count, then copy into arrays of the right size.
    size_t samples = 0, words = 0, at = 0;
    int complete = 0;
    while (at < s.size && !complete) {
        char tag = s.bytes[at++];
        int32_t n = 0;
        if (tag == 'R') { if (!read_int(&s, &at, &out->sample_rate)) break; }
        else if (tag == 'S') {
            if (!read_int(&s, &at, &n) || n < 0 || s.size - at < (size_t)n * sizeof(int16_t)) break;
            samples += (size_t)n;
            at += (size_t)n * sizeof(int16_t);
        } else if (tag == 'W') {
            if (s.size - at < sizeof(mm_speech_word)) break;
            words += 1;
            at += sizeof(mm_speech_word);
        } else if (tag == 'Z') complete = 1;
        else break;
    }
    if (!complete || out->sample_rate <= 0) { free(s.bytes); return MM_SPEECH_CHILD_FAILED; }
    out->samples = malloc(samples > 0 ? samples * sizeof(int16_t) : 1);
    out->words = malloc(words > 0 ? words * sizeof(mm_speech_word) : 1);
    if (out->samples == NULL || out->words == NULL) {
        mm_speech_free(out);
        free(s.bytes);
        out->system_error = ENOMEM;
        return MM_SPEECH_SYSTEM_FAILED;
    }
    at = 0;
    for (;;) {
        char tag = s.bytes[at++];
        int32_t n = 0;
        if (tag == 'R') { at += sizeof(int32_t); }
        else if (tag == 'S') {
            read_int(&s, &at, &n);
            memcpy(out->samples + out->sample_count, s.bytes + at, (size_t)n * sizeof(int16_t));
            out->sample_count += (size_t)n;
            at += (size_t)n * sizeof(int16_t);
        } else if (tag == 'W') {
            memcpy(out->words + out->word_count, s.bytes + at, sizeof(mm_speech_word));
            out->word_count += 1;
            at += sizeof(mm_speech_word);
        } else break; // 'Z'
    }
    free(s.bytes);
    return MM_SPEECH_OK;
}

int mm_speech_phonemes(const mm_speech_request *request, const char *words, size_t words_size, int count,
                       char **phonemes, size_t *phonemes_size, int32_t *system_error) {
    *phonemes = NULL;
    *phonemes_size = 0;
    *system_error = 0;
    if (count < 0) return MM_SPEECH_SYSTEM_FAILED;
    stream s = { 0 };
    int result = run_child(request, &s, system_error, phonemes_job, words, words_size, 0, count);
    if (result != MM_SPEECH_OK) { free(s.bytes); return result; }
    // Each word's phonemes become a NUL-terminated string: at most the stream's bytes plus a NUL per word.
    char *list = malloc(s.size + (size_t)count + 1);
    if (list == NULL) { free(s.bytes); *system_error = ENOMEM; return MM_SPEECH_SYSTEM_FAILED; }
    size_t at = 0, size = 0;
    int found = 0, complete = 0;
    while (at < s.size && !complete) {
        char tag = s.bytes[at++];
        int32_t n = 0;
        if (tag == 'R') { if (!read_int(&s, &at, &n)) break; }
        else if (tag == 'P') {
            if (!read_int(&s, &at, &n) || n < 0 || s.size - at < (size_t)n) break;
            memcpy(list + size, s.bytes + at, (size_t)n);
            size += (size_t)n;
            list[size++] = 0;
            at += (size_t)n;
            found += 1;
        } else if (tag == 'Z') complete = 1;
        else break;
    }
    free(s.bytes);
    if (!complete || found != count) { free(list); return MM_SPEECH_CHILD_FAILED; }
    *phonemes = list;
    *phonemes_size = size;
    return MM_SPEECH_OK;
}

void mm_speech_free(mm_speech *speech) {
    free(speech->samples);
    free(speech->words);
    speech->samples = NULL;
    speech->words = NULL;
    speech->sample_count = 0;
    speech->word_count = 0;
}

void mm_speech_free_phonemes(char *phonemes) { free(phonemes); }
