// eSpeak NG in a child process: every synthesis starts from eSpeak NG's pristine state.
//
// Why: eSpeak NG 1.51 keeps synthesis state in function statics that no call resets (the pitch
// wobble's phase, the glottal cycle count, the end-of-utterance buffers, the clause pause factor),
// so in one long-lived process a text's samples and word times can depend on what was spoken before
// (issue 37: a word 40-50 ms later in a busy test process). The process that calls these functions
// never starts eSpeak NG's synthesis itself; each call forks, the child initialises eSpeak NG, does
// the one job, streams the result back through a pipe and ends with _exit. The child runs only this
// C code and eSpeak NG (no Swift runtime), as POSIX asks of a child of a threaded process.
#ifndef CMOVIEMAKER_SPEECH_H
#define CMOVIEMAKER_SPEECH_H

#include <stddef.h>
#include <stdint.h>

/// Outcomes; the child's exit status carries the first four.
enum {
    MM_SPEECH_OK = 0,
    /// espeak_Initialize failed: no voice data at the path.
    MM_SPEECH_INIT_FAILED = 10,
    /// Neither espeak_SetVoiceByName nor (when allowed) espeak_SetVoiceByProperties found the voice.
    MM_SPEECH_NO_VOICE = 11,
    /// espeak_Synth returned an error.
    MM_SPEECH_SYNTH_FAILED = 12,
    /// The child could not write its result (the parent went away).
    MM_SPEECH_WRITE_FAILED = 13,
    /// fork, pipe or memory failed in this process (errno is kept in `system_error`).
    MM_SPEECH_SYSTEM_FAILED = 20,
    /// The child ended without a complete result (killed by a signal, or a truncated stream).
    MM_SPEECH_CHILD_FAILED = 21,
    /// The child took longer than the timeout and was killed (or three children in a row sent nothing
    /// within 10 s of starting).
    MM_SPEECH_TIMED_OUT = 22,
};

/// One word event (espeakEVENT_WORD) with a length above 0.
typedef struct mm_speech_word {
    /// Its first character, counted from 1 as eSpeak NG does.
    int32_t text_position;
    int32_t length;
    int32_t sample;
} mm_speech_word;

/// A synthesis's result, owned by the caller until mm_speech_free.
typedef struct mm_speech {
    int16_t *samples;
    size_t sample_count;
    mm_speech_word *words;
    size_t word_count;
    int32_t sample_rate;
    /// errno of a MM_SPEECH_SYSTEM_FAILED; for MM_SPEECH_CHILD_FAILED the child's signal as a negative
    /// number, or its unexpected exit status.
    int32_t system_error;
} mm_speech;

/// The voice and parameters of a synthesis.
typedef struct mm_speech_request {
    /// The espeak-ng-data folder to initialise from.
    const char *data_path;
    /// A voice name or file for espeak_SetVoiceByName.
    const char *voice;
    /// Non-zero: when the name is not a voice, select by language (espeak_SetVoiceByProperties).
    int by_language;
    int rate;
    int pitch;
    /// The C library's rand() seed (eSpeak NG's noise).
    unsigned int seed;
    /// How long the child may take, in milliseconds.
    int timeout_ms;
    /// For tests: how long a child may take to send its first record before it is taken for stuck and
    /// a new one started, in milliseconds (0: the default, 10 s).
    int first_record_ms;
    /// For tests: this many children in a row stall before their first record, as a child stuck on a
    /// lock inherited at fork would (0 in use).
    int stalled_attempts;
} mm_speech_request;

/// Speaks `text` (`text_size` bytes with its terminating NUL) with espeak_Synth's `flags`.
/// Returns an MM_SPEECH_ code; on MM_SPEECH_OK `out` holds the samples and words.
int mm_speech_speak(const mm_speech_request *request, const char *text, size_t text_size, unsigned int flags, mm_speech *out);

/// eSpeak NG's phonemes (espeak_TextToPhonemes, ASCII names) of `count` NUL-terminated words laid end
/// to end in `words`. On MM_SPEECH_OK `*phonemes` is `count` NUL-terminated strings end to end (empty:
/// none), `*phonemes_size` their bytes; free it with mm_speech_free_phonemes.
int mm_speech_phonemes(const mm_speech_request *request, const char *words, size_t words_size, int count,
                       char **phonemes, size_t *phonemes_size, int32_t *system_error);

void mm_speech_free(mm_speech *speech);
void mm_speech_free_phonemes(char *phonemes);

#endif
