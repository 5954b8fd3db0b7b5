// libFuzzer's driver entry point (compiler-rt's FuzzerDriver.cpp, LLVM 11 and later), which no system
// header declares. The fuzz target's own `main` calls it, because SwiftPM links every executable with
// `main` aliased to the module's entry point, so libFuzzer's `main` is never the one that runs.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
