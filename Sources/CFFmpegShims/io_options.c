// The URL options of an I/O context bufprobe reads itself and hands to a demuxer from memory: what
// `av_opt_get(pb, name, AV_OPT_SEARCH_CHILDREN, ...)` answers for it.
//
// Why: FFmpeg 5.1's HLS and DASH demuxers copy the input's protocol options from the input's own
// `pb` (`ffio_copy_url_options`: headers, user_agent, cookies, http_proxy, referer, rw_timeout, icy)
// into every later request, and resolve relative URLs against its `location` (the last redirect's
// target). A context made with `avio_alloc_context` has no AVClass, so it answers none of these and
// every later request would go out without the user agent or the headers. The context gets an AVClass
// of its own whose one child holds those values, as an http URLContext is the child of FFmpeg's own.
#include <stddef.h>
#include <string.h>
#include <libavformat/avio.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include "CFFmpegShims.h"

typedef struct IOOptions {
    const AVClass *class;
    char *headers;
    char *user_agent;
    char *cookies;
    char *http_proxy;
    char *referer;
    char *rw_timeout;
    char *icy;
    char *location;
} IOOptions;

// The AVClass installed as the context's `av_class` comes first, so the context's class pointer leads
// back to its options (`child_next`).
typedef struct IOClassHolder {
    AVClass io_class;
    IOOptions options;
} IOClassHolder;

#define OFFSET(x) offsetof(IOOptions, x)
static const AVOption io_option_table[] = {
    { "headers", "", OFFSET(headers), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "user_agent", "", OFFSET(user_agent), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "cookies", "", OFFSET(cookies), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "http_proxy", "", OFFSET(http_proxy), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "referer", "", OFFSET(referer), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "rw_timeout", "", OFFSET(rw_timeout), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "icy", "", OFFSET(icy), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { "location", "", OFFSET(location), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, AV_OPT_FLAG_DECODING_PARAM },
    { NULL },
};

static const AVClass io_options_class = {
    .class_name = "bufprobe read-ahead",
    .item_name = av_default_item_name,
    .option = io_option_table,
    .version = LIBAVUTIL_VERSION_INT,
};

static void *io_child_next(void *obj, void *prev) {
    const AVClass *class = *(const AVClass **)obj;
    IOClassHolder *holder = (IOClassHolder *)class;
    return prev ? NULL : &holder->options;
}

int cffmpeg_io_options_attach(void *pb) {
    AVIOContext *context = pb;
    if (!context || context->av_class) return -1;
    IOClassHolder *holder = av_mallocz(sizeof(IOClassHolder));
    if (!holder) return -1;
    holder->io_class.class_name = "bufprobe read-ahead";
    holder->io_class.item_name = av_default_item_name;
    holder->io_class.version = LIBAVUTIL_VERSION_INT;
    holder->io_class.child_next = io_child_next;
    holder->options.class = &io_options_class;
    context->av_class = &holder->io_class;
    return 0;
}

int cffmpeg_io_options_set(void *pb, const char *key, const char *value) {
    AVIOContext *context = pb;
    if (!context || !context->av_class || context->av_class->child_next != io_child_next) return -1;
    IOClassHolder *holder = (IOClassHolder *)context->av_class;
    return av_opt_set(&holder->options, key, value, 0);
}

void cffmpeg_io_options_detach(void *pb) {
    AVIOContext *context = pb;
    if (!context || !context->av_class || context->av_class->child_next != io_child_next) return;
    IOClassHolder *holder = (IOClassHolder *)context->av_class;
    context->av_class = NULL;
    av_opt_free(&holder->options);
    av_free(holder);
}
