extension MediaInput {
    /// The protocols a memory input may open on its own behalf (playlist segments) when the caller
    /// sets no `protocol_whitelist`: only `data:` URIs, whose bytes are in the playlist itself. Bytes
    /// in memory have no location, so a relative or `file:` reference must not resolve to a local file.
    public static let memoryProtocolWhitelist = "data"

    /// Opens media held in memory: libavformat reads `bytes` through a custom I/O context (read and
    /// seek callbacks), probes the format from the content and `name`'s extension, and reads enough to
    /// know its streams, exactly as `init(url:options:interrupter:)` does for a file.
    ///
    /// - Parameters:
    ///   - bytes: the whole input.
    ///   - name: names the input in `url` and messages; no file of that name is opened.
    ///   - options: libavformat AVOptions; `protocol_whitelist` defaults to `memoryProtocolWhitelist`.
    ///   - interrupter: enforces timeouts and cancellation on every blocking call.
    /// - Throws: `FFmpegError` naming the step that failed.
    public convenience init(
        bytes: [UInt8], name: String, options: [String: String] = [:], interrupter: Interrupter? = nil
    ) throws(FFmpegError) {
        var options = options
        if options["protocol_whitelist"] == nil { options["protocol_whitelist"] = Self.memoryProtocolWhitelist }
        try self.init(url: name, options: options, interrupter: interrupter, memory: try MemoryIO(bytes: bytes))
    }
}

extension MediaInput {
    /// Opens media that arrives in memory while it is read (`StreamingMemoryIO`: an LL-HLS client appending
    /// the parts it fetched): libavformat probes the format from the first bytes, and every read waits for
    /// more, bounded by `interrupter`'s timeout. No other resource may be opened on its behalf but `data:`
    /// URIs (`memoryProtocolWhitelist`), unless `options` or `interrupter` say otherwise.
    ///
    /// - Parameters:
    ///   - streaming: the growing stream; `self` keeps it alive while the format context reads it.
    ///   - name: names the input in `url` and messages; no file of that name is opened.
    ///   - options: libavformat AVOptions.
    ///   - interrupter: enforces timeouts and cancellation on every blocking call, the waits for bytes too.
    /// - Throws: `FFmpegError` naming the step that failed.
    public convenience init(
        streaming: StreamingMemoryIO, name: String, options: [String: String] = [:], interrupter: Interrupter? = nil
    ) throws(FFmpegError) {
        var options = options
        if options["protocol_whitelist"] == nil { options["protocol_whitelist"] = Self.memoryProtocolWhitelist }
        try self.init(url: name, options: options, interrupter: interrupter, memory: nil, streaming: streaming)
    }
}
