internal import CFFmpeg

extension MediaInput {
    /// The bandwidth declared for each stream that carries one, by stream index, in bit/s.
    ///
    /// FFmpeg's `dash` demuxer puts every representation of a manifest into a single program and writes
    /// each representation's `@bandwidth` into its stream's `variant_bitrate` metadata (the `hls` demuxer
    /// does the same per stream, besides one program per variant). Streams without one are left out.
    public var streamVariantBitRates: [Int: Int64] {
        var rates: [Int: Int64] = [:]
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[index],
                let entry = av_dict_get(stream.pointee.metadata, "variant_bitrate", nil, 0),
                let rate = Int64(String(cString: entry.pointee.value)), rate > 0
            else { continue }
            rates[index] = rate
        }
        return rates
    }
}
