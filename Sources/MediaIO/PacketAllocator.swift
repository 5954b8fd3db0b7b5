internal import CFFmpeg

/// The C allocator setting for a packet loop. libavformat allocates and frees a buffer for every packet
/// (about 1 KiB for SD video, just above glibc's per-thread cache), and with glibc's default fast bins
/// such an allocation first consolidates the small chunks freed since the last one: on a long MP4 about
/// 5 % of the instructions went to `malloc_consolidate`. Turning fast bins off (`M_MXFAST` 0) leaves
/// small blocks to the per-thread cache and the bins, and removes the consolidation.
public enum PacketAllocator {
    /// Applies the setting once per process; later calls do nothing. No effect without glibc.
    public static func tune() { _ = applied }

    private static let applied = cffmpeg_disable_fast_bins() == 1
}
