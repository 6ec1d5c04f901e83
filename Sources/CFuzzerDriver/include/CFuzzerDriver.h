#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (LLVM 11 and later), declared here because Swift can only call a C function it
// sees in a header. moviemaker-fuzz calls it from its own main: SwiftPM links every executable with
// `main` aliased to `<Module>_main`, so libFuzzer's own main is never used. Only the libFuzzer build
// (make fuzz, -sanitize=fuzzer) references it; an ordinary build never calls it.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
