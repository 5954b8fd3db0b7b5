// Empty: SwiftPM needs one source file in a C target; the header declares a symbol of libFuzzer's runtime.
#include "CLibFuzzer.h"
