// C code bufprobe needs beside FFmpeg that Swift cannot write: the av_log callback, which takes a
// va_list (Swift cannot form a @convention(c) function with one on Linux). Every symbol is prefixed
// `cffmpeg_`. Only MediaIO imports this module.
#ifndef CFFMPEG_SHIMS_H
#define CFFMPEG_SHIMS_H

#include <stddef.h>

/// Receives one formatted FFmpeg log line (with its "[h264 @ 0x...]" prefix) and its AV_LOG_* level.
/// Called with the log lock held, so lines from several threads never interleave; a sink must not call
/// av_log itself (it would wait on the lock it holds).
typedef void (*cffmpeg_log_sink)(int level, const char *line);

/// Makes `sink` receive FFmpeg's log (replacing FFmpeg's default callback, which prints to stderr) and
/// sets FFmpeg's log level to `level` (an AV_LOG_* value); lines above it are dropped before formatting.
/// The level is kept here too, so set it only through this call. Safe to call again from any thread.
void cffmpeg_install_log_sink(cffmpeg_log_sink sink, int level);

/// Starts recording, on the calling thread, the `Location` header of the HTTP responses FFmpeg's http
/// protocol reads (it logs each header line at trace level, which the log callback sees whatever the log
/// level): with `max_redirects=0` a redirect fails the open, and this is where its target is read.
void cffmpeg_redirect_capture_begin(void);

/// Stops recording on the calling thread; copies the last `Location` seen since
/// `cffmpeg_redirect_capture_begin` into `buffer` (NUL-terminated) and returns 1, or returns 0 when none
/// was seen (or it does not fit `size`).
int cffmpeg_redirect_capture_end(char *buffer, size_t size);

#endif
