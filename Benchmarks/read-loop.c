/*
 * The reference for `bufprobe probe`: the bare libavformat read loop, nothing else.
 * avformat_open_input, avformat_find_stream_info, then av_read_frame until it fails, counting packets
 * and bytes per stream (corrupt packets included, as ffprobe -count_packets counts them) with one
 * reused AVPacket.
 *
 * Build: cc -O2 -o read-loop read-loop.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)
 * Usage: read-loop FILE_OR_URL
 * Exit:  0 read to end of file, 2 could not open or read stream info, 3 stopped on a read error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <libavformat/avformat.h>
#include <libavutil/avutil.h>

typedef struct {
    int64_t packets;
    int64_t bytes;
    int64_t keyframes;
    int64_t corrupt;
} StreamCount;

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE_OR_URL\n", argv[0]);
        return 64;
    }
    av_log_set_level(AV_LOG_QUIET);

    AVFormatContext *fmt = NULL;
    int ret = avformat_open_input(&fmt, argv[1], NULL, NULL);
    if (ret < 0) {
        fprintf(stderr, "error: %s: open: %s\n", argv[1], av_err2str(ret));
        return 2;
    }
    ret = avformat_find_stream_info(fmt, NULL);
    if (ret < 0) {
        fprintf(stderr, "error: %s: stream info: %s\n", argv[1], av_err2str(ret));
        avformat_close_input(&fmt);
        return 2;
    }

    /* Streams may appear while reading (AVFMTCTX_NOHEADER), so the table grows on demand. */
    size_t capacity = fmt->nb_streams > 0 ? fmt->nb_streams : 1;
    StreamCount *counts = calloc(capacity, sizeof *counts);
    AVPacket *pkt = av_packet_alloc();
    if (!counts || !pkt) {
        fprintf(stderr, "error: out of memory\n");
        return 1;
    }

    int64_t total_packets = 0, total_bytes = 0;
    while ((ret = av_read_frame(fmt, pkt)) >= 0) {
        size_t i = (size_t)pkt->stream_index;
        if (i >= capacity) {
            size_t grown = i + 1;
            StreamCount *more = realloc(counts, grown * sizeof *counts);
            if (!more) {
                fprintf(stderr, "error: out of memory\n");
                return 1;
            }
            for (size_t j = capacity; j < grown; j++) more[j] = (StreamCount){0};
            counts = more;
            capacity = grown;
        }
        counts[i].packets++;
        counts[i].bytes += pkt->size;
        if (pkt->flags & AV_PKT_FLAG_KEY) counts[i].keyframes++;
        if (pkt->flags & AV_PKT_FLAG_CORRUPT) counts[i].corrupt++;
        total_packets++;
        total_bytes += pkt->size;
        av_packet_unref(pkt);
    }

    for (size_t i = 0; i < capacity; i++) {
        const char *type = i < fmt->nb_streams
            ? av_get_media_type_string(fmt->streams[i]->codecpar->codec_type) : NULL;
        printf("stream %zu %s: packets %" PRId64 " bytes %" PRId64 " keyframes %" PRId64
               " corrupt %" PRId64 "\n",
               i, type ? type : "unknown", counts[i].packets, counts[i].bytes, counts[i].keyframes,
               counts[i].corrupt);
    }
    printf("total: packets %" PRId64 " bytes %" PRId64 "\n", total_packets, total_bytes);
    int status = ret == AVERROR_EOF ? 0 : 3;
    printf("end: %s\n", ret == AVERROR_EOF ? "end of file" : av_err2str(ret));

    av_packet_free(&pkt);
    free(counts);
    avformat_close_input(&fmt);
    return status;
}
