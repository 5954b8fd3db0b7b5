/// bufprobe's version, shown by `--version` and written into JSON reports.
package enum BufprobeVersion {
    /// The release string.
    package static let string = "0.1.0"
}
