import MediaIO

// The DASH half of the driver: the MPD parsed by MediaIO's one DASH parser, then every segment of every
// representation read through the same workers as HLS segments.
extension StreamValidation {
    /// Whether the input's bytes are XML (an MPD, or XML that is not one) rather than a playlist: the first
    /// character after a byte-order mark and white space is `<`.
    static func isMPD(_ bytes: [UInt8]) -> Bool {
        var rest = bytes.prefix(4096)[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        return rest.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// Whether `location`'s path ends in `.mpd` (before a query): such an input is judged as an MPD even
    /// when it is not XML, so its failure says so.
    static func namesMPD(_ location: String) -> Bool {
        (location.split(separator: "?").first ?? "").lowercased().hasSuffix(".mpd")
    }

    /// Reads the MPD in `bytes` (from `location`) and every segment of its representations; a dynamic MPD is
    /// judged on its XML alone (its segments are not read). XML that is not an MPD, or a static MPD of several
    /// periods, is the run's failure; an MPD whose segments cannot be worked out (a missing
    /// `@bandwidth`, an unusable template) is read as far as it goes, and the rules say what is wrong.
    func readDASH(_ bytes: [UInt8], location: String, reader: SegmentReader, deadline: ContinuousClock.Instant)
        throws(ValidationFailure) -> StreamRead
    {
        let root: DASHManifest.Root
        do {
            root = try DASHManifest.root(bytes)
        } catch {
            throw ValidationFailure("\(source) \(error.reason).")
        }
        let mpd: XMLTree.Element
        switch root {
        case .mpd(let element): mpd = element
        case .notAnMPD(let name): throw ValidationFailure("\(source) is XML but neither an HLS playlist nor a DASH MPD (its root is <\(name)>).")
        }
        if mpd.attributes["type"] == "dynamic" {
            // Judged once on its XML: the live rules and the structure; its segments need watching, not done yet.
            var read = StreamRead(source: source)
            read.dash = DASHRead(uri: location, mpd: mpd, manifest: nil)
            read.notRead.append(
                "\(source) is a live (dynamic) MPD: its XML was judged once (the MPD and Representation rules, dvb-dash:4.7.2); its segments are not read yet (validate does not watch live MPDs).")
            return read
        }
        let periods = mpd.children("Period").count
        if periods > 1 { throw ValidationFailure("\(source) has \(periods) periods: validate reads single-period MPDs so far.") }
        var read = StreamRead(source: source)
        var dash: DASHRead
        do {
            dash = DASHRead(uri: location, mpd: mpd, manifest: try DASHManifest.parse(mpd: mpd))
        } catch {
            dash = DASHRead(uri: location, mpd: mpd, manifest: nil, manifestError: error.reason)
        }
        var tasks: [[SegmentTask]] = []
        for (set, adaptation) in (dash.manifest?.adaptationSets ?? []).enumerated() {
            for declared in adaptation.representations {
                let group = dash.representations.count
                var listed: [SegmentTask] = []
                if case .listed(let segments) = declared.addressing {
                    let map = declared.initialization.map {
                        (URLReference.resolve($0.url, against: location), Self.range($0.range), "an initialization segment")
                    }
                    listed = segments.enumerated().map { index, segment in
                        SegmentTask(
                            group: group, index: index, uri: URLReference.resolve(segment.resource.url, against: location),
                            range: Self.range(segment.resource.range), duration: segment.duration, map: map)
                    }
                } else {
                    read.notRead.append(
                        "representation \(group + 1) (id \(declared.id)) is one file indexed by its sidx box (SegmentBase): its segments are not read yet.")
                }
                dash.representations.append(
                    DASHRead.Representation(declared: declared, set: set, number: group + 1, segmentsListed: listed.count))
                tasks.append(listed)
            }
        }
        // The first segments of every representation before the second ones: a bound cuts them all alike.
        var ordered: [SegmentTask] = []
        for index in 0..<(tasks.map(\.count).max() ?? 0) {
            for listed in tasks where index < listed.count { ordered.append(listed[index]) }
        }
        let (results, stopReason) = readAll(ordered, reader: reader, deadline: deadline)
        for (position, task) in ordered.enumerated() {
            if let result = results[position] { dash.representations[task.group].segments.append(result) }
        }
        for index in dash.representations.indices {
            dash.representations[index].segments.sort { $0.index < $1.index }
            let representation = dash.representations[index]
            guard representation.segments.count < representation.segmentsListed else { continue }
            let missing = Self.missingRanges(read: representation.segments.map(\.index), count: representation.segmentsListed)
            read.notRead.append(
                "\(representation.name): \(representation.segments.count) of \(representation.segmentsListed) segments were read; not read (from 1): \(missing); \(stopWords(stopReason, deadline: deadline)).")
        }
        read.dash = dash
        return read
    }

    /// A DASH byte range as the reader takes it.
    static func range(_ range: DASHManifest.ByteRange?) -> HLSPlaylist.ByteRange? {
        range.map { HLSPlaylist.ByteRange(length: $0.length, offset: $0.first) }
    }
}
