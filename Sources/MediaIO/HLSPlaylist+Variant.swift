extension HLSPlaylist.Variant {
    /// A variant declaring only its URI and `BANDWIDTH` (the other attributes set after): what another
    /// format's rendition is compared as (`check --all-variants` on a DASH representation).
    public init(uri: String, bandwidth: Int) {
        self.uri = uri
        self.bandwidth = bandwidth
    }
}
