package import MediaIO

/// Where a progressive MP4/MOV's index (`moov`) lies when it follows the media: the input of
/// `DownloadLayout.progressive(indexAtEnd:mode:)`, found the same way for `probe` and `simulate`.
package enum IndexAtEnd {
    /// The index after the media according to the box headers; `nil` when the file is fast start, has
    /// no index, or its boxes are unknown.
    package static func fromBoxes(_ boxes: MP4BoxLayout?) -> (offset: Int64, size: Int64)? {
        guard let boxes, boxes.isFastStart == false, let index = boxes.index else { return nil }
        return (index.offset, index.size)
    }

    /// The box headers of the local MP4/MOV file at `path` (`nil` for other formats, URLs, unreadable
    /// files), as `probe` reads them.
    package static func boxes(path: String?, formatName: String) -> MP4BoxLayout? {
        guard let path, ContainerFormat(demuxer: formatName).isMP4Family else { return nil }
        return try? MP4BoxLayout.scan(path: path)
    }
}
