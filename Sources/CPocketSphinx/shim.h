// PocketSphinx (libpocketsphinx-dev, with the pocketsphinx-en-us model) and the parts of sphinxbase its
// API takes: Transcription/SpeechRecognizer.swift aligns a known text to speech and recognises English.
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/ckd_alloc.h>
#include <sphinxbase/logmath.h>
