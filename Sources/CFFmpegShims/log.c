// The av_log callback. FFmpeg calls it from whichever thread logs: `check --parallel` opens several
// inputs at once, and HLS/DASH demuxers log from their own reads. FFmpeg's default callback
// (av_log_default_callback) takes a mutex for the same reason: the "print prefix" state is shared
// between calls, and a line's parts must not interleave with another thread's.
#include "CFFmpegShims.h"

#include <libavutil/log.h>
#include <pthread.h>
#include <stdarg.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static cffmpeg_log_sink current_sink = 0;
// Whether the next line starts a new message and so gets the "[h264 @ 0x...]" prefix; FFmpeg
// sends partial lines, and its default callback keeps the same flag across calls.
static int print_prefix = 1;
// The level given to cffmpeg_install_log_sink, read by the callback without a call into libavutil
// (demuxers log at trace level for every packet, so the check runs three times per MP4 packet).
static int log_level = AV_LOG_INFO;

// The formatting half, out of line: demuxers log at trace level for every packet (three calls per MP4
// packet), and the early return below then sets up no 1 KiB buffer and no stack guard.
static __attribute__((noinline)) void format_and_send(
    void *context, int level, const char *format, va_list arguments) {
    char line[1024];
    pthread_mutex_lock(&log_lock);
    cffmpeg_log_sink sink = current_sink;
    if (sink) {
        av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);
        sink(level, line);
    }
    pthread_mutex_unlock(&log_lock);
}

static void log_trampoline(void *context, int level, const char *format, va_list arguments) {
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
}
