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
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
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

// AVERROR_PROTOCOL_NOT_FOUND: a URL scheme no compiled-in protocol handles (an FFERRTAG, like EOF).
static inline int cffmpeg_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }

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

// The av_log callback (it takes a va_list) lives in the CFFmpegShims C target, behind a mutex.

// glibc's M_MXFAST: Swift's Glibc module does not import <malloc.h>. Returns 1 when applied, 0 elsewhere.
static inline int cffmpeg_disable_fast_bins(void) {
#if defined(__GLIBC__)
    return mallopt(M_MXFAST, 0);
#else
    return 0;
#endif
}

// glibc's M_MMAP_THRESHOLD: blocks of at least `bytes` are mapped on their own and unmapped when freed.
// Setting it also stops glibc's dynamic threshold, which rises to the size of the largest mapped block
// freed (up to 32 MiB), after which such blocks are cut from the arenas and stay resident when freed.
// Returns 1 when applied, 0 elsewhere.
static inline int cffmpeg_set_mmap_threshold(int bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
    return 0;
#endif
}

#endif
