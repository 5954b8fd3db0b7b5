// Shim over FFmpeg (libavformat/libavcodec/libavutil, 5.1+) for Swift.
// Only what Swift cannot import directly lives here: function-like macros and
// macro constants built from them. Every symbol is prefixed `cffmpeg_`.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
#include <stdarg.h>
#include <stdio.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// AVERROR(e) negates a POSIX errno; a function-like macro, so Swift cannot see it.
static inline int cffmpeg_averror(int posix_errno) { return AVERROR(posix_errno); }

// AVERROR_EOF is FFERRTAG('E','O','F',' '), a macro expression Swift does not import.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }

// AVERROR_EXIT: returned by blocking calls when the interrupt callback asked to stop.
static inline int cffmpeg_averror_exit(void) { return AVERROR_EXIT; }

// AVERROR_INVALIDDATA, used by demuxers for damaged input.
static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

// AVERROR_HTTP_* codes: HTTP failures surface as these tags, not errno values.
static inline int cffmpeg_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int cffmpeg_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int cffmpeg_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int cffmpeg_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int cffmpeg_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int cffmpeg_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }

// AV_NOPTS_VALUE is ((int64_t)UINT64_C(0x8000000000000000)), a cast expression Swift skips.
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

// AV_TIME_BASE_Q is a compound literal, which Swift cannot import.
static inline AVRational cffmpeg_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }

// av_err2str is a macro over a stack compound literal; this writes into the caller's buffer.
static inline void cffmpeg_strerror(int code, char *buffer, size_t size) {
    if (av_strerror(code, buffer, size) < 0) {
        snprintf(buffer, size, "unknown FFmpeg error %d", code);
    }
}

// Swift cannot form a @convention(c) function that takes a va_list on Linux, so the av_log
// callback lives here: it formats the line with av_log_format_line2 and hands the text to a sink
// Swift can implement. Both functions are static inline and must be referenced from ONE Swift file
// only: each Swift object file gets its own copy of the static sink pointer.
typedef void (*cffmpeg_log_sink)(int level, const char *line);

static cffmpeg_log_sink cffmpeg_current_log_sink = 0;
// A copy of av_log_set_level's level: the demuxers log at trace level for every packet (three calls per
// packet for MP4), so the trampoline answers "not wanted" without calling into libavutil.
static int cffmpeg_current_log_level = AV_LOG_QUIET;

// The formatting half, out of line so that the common early return sets up no 1 KiB buffer.
static __attribute__((noinline)) void cffmpeg_log_format_and_send(
    cffmpeg_log_sink sink, void *context, int level, const char *format, va_list arguments) {
    // Keeps the "[h264 @ 0x...]" prefix decision across partial lines, like FFmpeg's default callback.
    static int print_prefix = 1;
    char line[1024];
    av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);
    sink(level, line);
}

static inline void cffmpeg_log_trampoline(void *context, int level, const char *format, va_list arguments) {
    cffmpeg_log_sink sink = cffmpeg_current_log_sink;
    if (!sink || level > cffmpeg_current_log_level) return;
    cffmpeg_log_format_and_send(sink, context, level, format, arguments);
}

// Sets FFmpeg's log level and routes its log to `sink`.
static inline void cffmpeg_install_log_sink(cffmpeg_log_sink sink, int level) {
    av_log_set_level(level);
    cffmpeg_current_log_level = level;
    cffmpeg_current_log_sink = sink;
    av_log_set_callback(cffmpeg_log_trampoline);
}

// glibc's M_MXFAST: Swift's Glibc module does not import <malloc.h>. Returns 1 when applied, 0 elsewhere.
static inline int cffmpeg_disable_fast_bins(void) {
#if defined(__GLIBC__)
    return mallopt(M_MXFAST, 0);
#else
    return 0;
#endif
}

#endif
