// eSpeak NG's synthesis API (libespeak-ng-dev): Narration.swift speaks text with it.
#include <espeak-ng/speak_lib.h>
