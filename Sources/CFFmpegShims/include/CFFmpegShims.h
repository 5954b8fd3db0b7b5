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

/// The request watch: every HTTP request FFmpeg's http protocol is about to send on the calling thread is
/// recorded (its URL read from the request's context when FFmpeg logs the request, at debug level, which
/// the log callback sees whatever the log level), and the interrupt callback FFmpeg polls before the first
/// byte is written takes it here. Returns 0 when no request is pending; 1 with its URL copied into `buffer`
/// (NUL-terminated); -1 when one is pending but its URL could not be read or does not fit `size` (to be
/// refused). Taking clears it.
int cffmpeg_request_watch_take(char *buffer, size_t size);

/// 1 when a request is pending on the calling thread (see `cffmpeg_request_watch_take`), without taking it.
int cffmpeg_request_watch_pending(void);

/// 1 once `cffmpeg_install_log_sink` made bufprobe's callback FFmpeg's log callback: the redirect capture
/// and the request watch see nothing without it.
int cffmpeg_log_sink_installed(void);

/// The request log: from `cffmpeg_request_log_begin` on the calling thread (freed by `cffmpeg_request_log_end` or when the thread exits), every HTTP request FFmpeg's
/// http protocol sends (status 0) and every HTTP error answer it reads (the status), with the URL (the
/// request context's `location`) and the system clock's Unix time when FFmpeg logged it. Up to 256
/// entries wait to be taken; more are counted as dropped. Begin again to clear; end on the same thread.
void cffmpeg_request_log_begin(void);

/// Takes the oldest entry recorded on the calling thread: returns 1 with its URL copied into `buffer`
/// (NUL-terminated; empty when it was unreadable or does not fit), its time and status; 0 when none.
int cffmpeg_request_log_take(char *buffer, size_t size, double *unix_time, int *status);

/// How many entries the calling thread's log dropped since it began (the ring was full).
unsigned long cffmpeg_request_log_dropped(void);

/// Stops recording on the calling thread and frees its log.
void cffmpeg_request_log_end(void);

/// Gives `pb`, an AVIOContext made with `avio_alloc_context` (bytes bufprobe read itself and hands to a
/// demuxer), URL options of its own: after it, `av_opt_get(pb, key, AV_OPT_SEARCH_CHILDREN, ...)` answers
/// what `cffmpeg_io_options_set` set for headers, user_agent, cookies, http_proxy, referer, rw_timeout, icy
/// and location, as an http context answers them (`io_options.c` says why). 0, or -1 when `pb` already has
/// a class or memory ran out. Undo with `cffmpeg_io_options_detach` before freeing the context.
int cffmpeg_io_options_attach(void *pb);

/// Sets one of those options of `pb` (attached first) to `value`; an AVERROR when `key` is not one of them.
int cffmpeg_io_options_set(void *pb, const char *key, const char *value);

/// Removes and frees what `cffmpeg_io_options_attach` gave `pb` (nothing when it gave nothing).
void cffmpeg_io_options_detach(void *pb);

#endif
