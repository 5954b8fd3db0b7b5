// C code bufprobe needs beside FFmpeg that Swift cannot write: the av_log callback, which takes a
// va_list (Swift cannot form a @convention(c) function with one on Linux). Every symbol is prefixed
// `cffmpeg_`. Only MediaIO imports this module.
#ifndef CFFMPEG_SHIMS_H
#define CFFMPEG_SHIMS_H

/// Receives one formatted FFmpeg log line (with its "[h264 @ 0x...]" prefix) and its AV_LOG_* level.
/// Called with the log lock held, so lines from several threads never interleave; a sink must not call
/// av_log itself (it would wait on the lock it holds).
typedef void (*cffmpeg_log_sink)(int level, const char *line);

/// Makes `sink` receive FFmpeg's log (replacing FFmpeg's default callback, which prints to stderr) and
/// sets FFmpeg's log level to `level` (an AV_LOG_* value); lines above it are dropped before formatting.
/// The level is kept here too, so set it only through this call. Safe to call again from any thread.
void cffmpeg_install_log_sink(cffmpeg_log_sink sink, int level);

#endif
