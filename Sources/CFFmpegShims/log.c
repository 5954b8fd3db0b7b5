// The av_log callback. FFmpeg calls it from whichever thread logs: `check --parallel` opens several
// inputs at once, and HLS/DASH demuxers log from their own reads. FFmpeg's default callback
// (av_log_default_callback) takes a mutex for the same reason: the "print prefix" state is shared
// between calls, and a line's parts must not interleave with another thread's.
#include "CFFmpegShims.h"

#include <libavcodec/avcodec.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static cffmpeg_log_sink current_sink = 0;
// Whether the next line starts a new message and so gets the "[h264 @ 0x...]" prefix; FFmpeg
// sends partial lines, and its default callback keeps the same flag across calls.
static int print_prefix = 1;
// The level given to cffmpeg_install_log_sink, read by the callback without a call into libavutil
// (demuxers log at trace level for every packet, so the check runs three times per MP4 packet).
static int log_level = AV_LOG_INFO;

// The codec context `context` is when it has no codec: libavformat's parsers (and its stream-info reads)
// log through a stream's internal AVCodecContext, whose name (libavcodec's context_to_name) is the opened
// codec's, else "NULL": "[NULL @ 0x...] Invalid NAL unit size" says nothing of where it came from.
static const AVCodecContext *unnamed_codec_context(void *context) {
    if (!context || *(const AVClass **)context != avcodec_get_class()) return NULL;
    const AVCodecContext *codec_context = context;
    return codec_context->codec ? NULL : codec_context;
}

// The formatting half, out of line: demuxers log at trace level for every packet (three calls per MP4
// packet), and the early return below then sets up no 1 KiB buffer and no stack guard.
static __attribute__((noinline)) void format_and_send(
    void *context, int level, const char *format, va_list arguments) {
    char line[1024];
    pthread_mutex_lock(&log_lock);
    cffmpeg_log_sink sink = current_sink;
    if (sink) {
        const AVCodecContext *unnamed = unnamed_codec_context(context);
        if (unnamed) {
            // Formatted without the context, then prefixed as FFmpeg would with the codec id's name
            // ("[h264 @ 0x...]"); print_prefix says whether this piece starts a line.
            int starts_line = print_prefix;
            char body[1024];
            av_log_format_line2(NULL, level, format, arguments, body, sizeof body, &print_prefix);
            if (starts_line) {
                snprintf(line, sizeof line, "[%s @ %p] %s", avcodec_get_name(unnamed->codec_id), context, body);
            } else {
                memcpy(line, body, sizeof body);
            }
        } else {
            av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);
        }
        sink(level, line);
    }
    pthread_mutex_unlock(&log_lock);
}

// The redirect capture (cffmpeg_redirect_capture_begin): per thread, as FFmpeg logs on the thread
// that called it.
static __thread int capturing = 0;
static __thread int captured = 0;
static __thread char captured_location[4096];

// FFmpeg 5.1's http protocol logs each response header line as av_log(h, AV_LOG_TRACE, "header='%s'\n",
// line) and nowhere else exposes a redirect's Location once max_redirects stopped it (the URLContext is
// freed with the failed open). Only that exact format is read.
static __attribute__((noinline)) void capture_location(const char *format, va_list arguments) {
    if (strcmp(format, "header='%s'\n") != 0) return;
    va_list copy;
    va_copy(copy, arguments);
    const char *line = va_arg(copy, const char *);
    va_end(copy);
    if (!line || strncasecmp(line, "Location:", 9) != 0) return;
    line += 9;
    while (*line == ' ' || *line == '\t') line++;
    size_t length = strlen(line);
    if (length >= sizeof captured_location) return;
    memcpy(captured_location, line, length + 1);
    captured = 1;
}

void cffmpeg_redirect_capture_begin(void) {
    capturing = 1;
    captured = 0;
    captured_location[0] = 0;
}

int cffmpeg_redirect_capture_end(char *buffer, size_t size) {
    capturing = 0;
    if (!captured || size == 0) return 0;
    size_t length = strlen(captured_location);
    if (length >= size) return 0;
    memcpy(buffer, captured_location, length + 1);
    captured = 0;
    return 1;
}

static void request_log_add(void *context, int status);
static __thread struct request_log *request_log;

// The request watch (cffmpeg_request_watch_take): per thread, like the redirect capture.
static __thread int request_pending = 0;
static __thread char request_location[4096];
// Whether log_trampoline is FFmpeg's log callback (cffmpeg_install_log_sink ran).
static int sink_installed = 0;

// FFmpeg 5.1's http protocol logs each request it is about to send as av_log(h, AV_LOG_DEBUG,
// "request: %s\n", headers) from http_connect, right before ffurl_write, whose retry_transfer_wrapper
// polls the interrupt callback before writing a byte. `h` is the http URLContext: its `location` option is
// the URL requested (the redirect target on a redirect's request). An unreadable location is recorded as
// pending with an empty URL, which the watcher refuses (fail closed).
static __attribute__((noinline)) void capture_request(void *context, const char *format) {
    if (strcmp(format, "request: %s\n") != 0) return;
    request_log_add(context, 0);
    request_location[0] = 0;
    request_pending = 1;
    if (!context) return;
    uint8_t *value = NULL;
    if (av_opt_get(context, "location", AV_OPT_SEARCH_CHILDREN, &value) < 0 || !value) return;
    size_t length = strlen((const char *)value);
    if (length < sizeof request_location) memcpy(request_location, value, length + 1);
    av_free(value);
}

int cffmpeg_request_watch_take(char *buffer, size_t size) {
    if (!request_pending) return 0;
    request_pending = 0;
    size_t length = strlen(request_location);
    if (size == 0 || length == 0 || length >= size) {
        if (size > 0) buffer[0] = 0;
        return -1;
    }
    memcpy(buffer, request_location, length + 1);
    return 1;
}

int cffmpeg_request_watch_pending(void) { return request_pending; }

// The request log (cffmpeg_request_log_begin): per thread, like the watch. A ring of fixed entries,
// allocated when a thread first records and freed by cffmpeg_request_log_end on that thread (or when the
// thread exits); the reader
// takes entries from the same thread after each libavformat call, so the ring only has to hold what one
// call requests (FFmpeg 5.1's DASH demuxer can request many missing segments in one read: the rest are
// counted as dropped).
#define REQUEST_LOG_ENTRIES 256
#define REQUEST_LOG_URL 1024
struct request_log_entry {
    double unix_time;
    int status;
    char url[REQUEST_LOG_URL];
};
struct request_log {
    struct request_log_entry entries[REQUEST_LOG_ENTRIES];
    unsigned head;
    unsigned count;
    unsigned long dropped;
};
static __thread struct request_log *request_log = NULL;

static void request_log_add(void *context, int status) {
    struct request_log *log = request_log;
    if (!log) return;
    if (log->count == REQUEST_LOG_ENTRIES) {
        log->dropped++;
        return;
    }
    struct request_log_entry *entry = &log->entries[(log->head + log->count) % REQUEST_LOG_ENTRIES];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    entry->unix_time = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
    entry->status = status;
    entry->url[0] = 0;
    uint8_t *value = NULL;
    if (context && av_opt_get(context, "location", AV_OPT_SEARCH_CHILDREN, &value) >= 0 && value) {
        size_t length = strlen((const char *)value);
        // A URL that does not fit is recorded empty (the reader counts it as unnamed).
        if (length < sizeof entry->url) memcpy(entry->url, value, length + 1);
        av_free(value);
    }
    log->count++;
}

// Frees a thread's log when the thread exits without cffmpeg_request_log_end (a check that failed).
static pthread_key_t request_log_key;
static pthread_once_t request_log_key_once = PTHREAD_ONCE_INIT;
static void request_log_key_create(void) { pthread_key_create(&request_log_key, free); }

void cffmpeg_request_log_begin(void) {
    if (!request_log) {
        pthread_once(&request_log_key_once, request_log_key_create);
        request_log = calloc(1, sizeof *request_log);
        pthread_setspecific(request_log_key, request_log);
    }
    if (request_log) {
        request_log->head = 0;
        request_log->count = 0;
        request_log->dropped = 0;
    }
}

int cffmpeg_request_log_take(char *buffer, size_t size, double *unix_time, int *status) {
    struct request_log *log = request_log;
    if (!log || log->count == 0 || size == 0) return 0;
    struct request_log_entry *entry = &log->entries[log->head];
    log->head = (log->head + 1) % REQUEST_LOG_ENTRIES;
    log->count--;
    size_t length = strlen(entry->url);
    if (length >= size) length = 0;
    memcpy(buffer, entry->url, length);
    buffer[length] = 0;
    *unix_time = entry->unix_time;
    *status = entry->status;
    return 1;
}

unsigned long cffmpeg_request_log_dropped(void) { return request_log ? request_log->dropped : 0; }

void cffmpeg_request_log_end(void) {
    if (!request_log) return;
    pthread_setspecific(request_log_key, NULL);
    free(request_log);
    request_log = NULL;
}

int cffmpeg_log_sink_installed(void) { return __atomic_load_n(&sink_installed, __ATOMIC_RELAXED); }

// FFmpeg 5.1's http protocol logs an error answer as av_log(h, AV_LOG_WARNING, "HTTP error %d %s\n",
// code, text) from http_read_header, with `h` the request's URLContext: the status goes to the request log
// with the URL it answered.
static __attribute__((noinline)) void capture_http_error(void *context, const char *format, va_list arguments) {
    if (strncmp(format, "HTTP error %d", 13) != 0) return;
    va_list copy;
    va_copy(copy, arguments);
    int status = va_arg(copy, int);
    va_end(copy);
    request_log_add(context, status > 0 ? status : -1);
}

static void log_trampoline(void *context, int level, const char *format, va_list arguments) {
    if (level == AV_LOG_WARNING && request_log && format) capture_http_error(context, format, arguments);
    if (level == AV_LOG_TRACE && capturing && format) capture_location(format, arguments);
    if (level == AV_LOG_DEBUG && format) capture_request(context, format);
    // The level is checked before taking the lock, as FFmpeg's default callback does: most debug
    // lines end here without contention.
    if (level > __atomic_load_n(&log_level, __ATOMIC_RELAXED)) return;
    format_and_send(context, level, format, arguments);
}

void cffmpeg_install_log_sink(cffmpeg_log_sink sink, int level) {
    pthread_mutex_lock(&log_lock);
    current_sink = sink;
    pthread_mutex_unlock(&log_lock);
    __atomic_store_n(&log_level, level, __ATOMIC_RELAXED);
    av_log_set_level(level);
    av_log_set_callback(log_trampoline);
    __atomic_store_n(&sink_installed, 1, __ATOMIC_RELAXED);
}
