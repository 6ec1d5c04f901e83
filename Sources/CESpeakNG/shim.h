// eSpeak NG's synthesis API (libespeak-ng-dev): Narration.swift speaks text with it.
#include <espeak-ng/speak_lib.h>
// espeak_ng_InitializePath: where eSpeak NG's own data is, without starting it.
#include <espeak-ng/espeak_ng.h>
