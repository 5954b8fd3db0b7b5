extension Duration {
    /// The duration in seconds as a `Double`.
    package var seconds: Double {
        let (whole, atto) = components
        return Double(whole) + Double(atto) / 1e18
    }
}
