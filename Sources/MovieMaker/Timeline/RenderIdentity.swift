internal import CFFmpeg
import Foundation

/// What a movie was made from, recorded in its metadata so that a later render of the same thing can
/// be skipped (`TemplateBatch`'s resumable rows, `moviemaker render --batch` without `--force`).
///
/// The identity is a SHA-256 over what the movie shows and plays (the picture's `Clip.contentHash()` and
/// the mixed sound track as data; for pictures drawn by code, the filled description's hash), its size,
/// rate and chapters, the encoder and sound settings, MovieMaker's and its libraries' versions, and the
/// size and modification time of every file the composition reads, so replacing a photo under the same
/// name renders again.
/// It is written as the container's `comment` (`©cmt` in MP4 and MOV, a `COMMENT` tag in Matroska),
/// `MovieMaker render <hex>`. Animated images and HLS streams keep no metadata: they have no identity
/// and are always rendered again.
package enum RenderIdentity {
    /// The metadata key the identity is written under.
    static let key = "comment"
    /// What the recorded value starts with.
    static let prefix = "MovieMaker render "
    /// Bumped when what goes into the identity changes, so older movies are rendered again.
    static let version = 2

    /// The identity recorded in the movie at `url`, or nil when it has none (not a MovieMaker render, an
    /// animated image, an unreadable file, one cut short after its header).
    package static func recorded(in url: URL) -> String? {
        // A movie cut short (a full disk, a copy interrupted) keeps its header and so its identity: it is
        // not what the render made, so it records none.
        guard let demuxer = try? Demuxer(path: url.path), let comment = demuxer.metadata(key), comment.hasPrefix(prefix),
              demuxer.indexesEndWithinFile, !demuxer.formatName.hasPrefix("matroska") || matroskaSegmentIsWhole(url) else { return nil }
        return String(comment.dropFirst(prefix.count))
    }

    /// Whether the Matroska (or WebM) file at `url` holds all of its Segment: the muxer writes the
    /// Segment's size when it finishes, so a file cut short declares more than it has, and one never
    /// finished declares an unknown size. (Its Cues would tell too, but libavformat reads them only at
    /// the first seek, and a seek builds an index from the clusters it reads when they are missing.)
    static func matroskaSegmentIsWhole(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 128), let fileSize = try? handle.seekToEnd() else { return false }
        let bytes = [UInt8](head)
        var offset = 0
        /// An EBML variable-length integer at `offset`: its value (the length marker removed unless
        /// `keepMarker`, as element IDs are written) and whether every value bit is set (an unknown size).
        func vint(keepMarker: Bool) -> (value: UInt64, unknown: Bool)? {
            guard offset < bytes.count, bytes[offset] != 0 else { return nil }
            let length = bytes[offset].leadingZeroBitCount + 1
            guard offset + length <= bytes.count else { return nil }
            var value = UInt64(keepMarker ? bytes[offset] : bytes[offset] & (0xFF >> length))
            var allOnes = value == UInt64(0xFF >> length)
            for k in 1..<length {
                value = value << 8 | UInt64(bytes[offset + k])
                allOnes = allOnes && bytes[offset + k] == 0xFF
            }
            offset += length
            return (value, allOnes)
        }
        guard vint(keepMarker: true)?.value == 0x1A45_DFA3, let headerSize = vint(keepMarker: false) else { return false }
        offset += Int(clamping: headerSize.value)
        guard vint(keepMarker: true)?.value == 0x1853_8067, let segment = vint(keepMarker: false), !segment.unknown else { return false }
        return UInt64(offset) + segment.value <= fileSize
    }

    /// Whether `container` keeps the identity in its metadata.
    package static func isRecorded(in container: Container) -> Bool { [.mp4, .mov, .mkv, .webm].contains(container) }
}

extension TimelineComposition {
    /// This composition's render identity (`RenderIdentity`): equal for two compositions exactly when
    /// they make the same movie from the same files with the same settings.
    package var renderIdentity: String {
        var hash = SHA256()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // What the movie shows and plays, as data: the picture's clip tree and the mixed sound track, so
        // two descriptions that make the same movie (a template and its saved, filled copy elsewhere; an
        // OpenTimelineIO round trip) have the same identity. A picture or sound made by code has no
        // content of its own: the description's hash stands in for it.
        let content: String
        if let tree = try? picture.contentHash(), let sound = soundtrack.map({ try? encoder.encode($0) }) ?? Data("none".utf8) {
            var soundHash = SHA256()
            soundHash.update(sound)
            content = "picture \(tree)\nsound \(soundHash.hexDigest())"
        } else {
            content = "description \(descriptionHash)"
        }
        hash.update(Data("moviemaker render identity \(RenderIdentity.version)\n\(content)\nsize \(width)x\(height) rate \(frameRate)\n".utf8))
        for chapter in chapters { hash.update(Data("chapter \(chapter.start) \(chapter.title)\n".utf8)) }
        // What changes the encoded movie (the bit-rate ceiling a platform preset sets included; not the
        // thread counts, which change no frame), and the versions that draw and encode it.
        hash.update(Data("encoder \(encoderSettings.bitstreamDescription)\nmoviemaker \(MovieMaker.version)\nlibraries \(LibraryVersions.current.description)\n".utf8))
        if let audioSettings {
            hash.update(Data("\naudio \(audioSettings.sampleRate) \(audioSettings.channelCount) \(audioSettings.bitRate)".utf8))
        }
        for file in inputFiles.map(\.path).sorted() {
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            hash.update(Data("\nfile \(file) \(size) \(String(format: "%.6f", modified))".utf8))
        }
        return hash.hexDigest()
    }

    /// Records `renderIdentity` in `movie`'s metadata (before its first frame), where its container
    /// keeps metadata.
    package func recordIdentity(in movie: MovieMaker) throws(MovieMakerError) {
        guard RenderIdentity.isRecorded(in: movie.container) else { return }
        try movie.setMetadata(RenderIdentity.key, RenderIdentity.prefix + renderIdentity)
    }
}
