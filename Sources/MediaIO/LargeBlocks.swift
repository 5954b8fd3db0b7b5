internal import CFFmpeg

/// The C allocator setting for processes that read large playlists on many threads (`check`, `serve`).
///
/// A playlist near the 16 MiB read limit is read into one block, windowed and freed, at every reload of
/// every check. glibc maps such a block on its own, but once one is freed it raises its mmap threshold to
/// that size (up to 32 MiB), so later ones are cut from the thread's arena and stay resident after they are
/// freed: eight checks of playlists near the limit peaked at 252 MB in `serve` (24 MB a check), against
/// 143 MB (10 MB a check) with the threshold fixed at 1 MiB (`Benchmarks/growing-playlist-bench.sh`,
/// `START=300000 N=8`). A fixed threshold keeps blocks of 1 MiB and more mapped on their own, returned to
/// the system when freed.
public enum LargeBlocks {
    /// Blocks from this size on are mapped on their own (`M_MMAP_THRESHOLD`).
    public static let threshold = 1 << 20

    /// Applies the setting once per process; later calls do nothing. No effect without glibc.
    public static func returnToSystem() { _ = applied }

    private static let applied = cffmpeg_set_mmap_threshold(Int32(threshold)) == 1
}
