internal import CFFmpeg
import Foundation

/// What a movie was made from, recorded in its metadata so that a later render of the same thing can
/// be skipped (`TemplateBatch`'s resumable rows, `moviemaker render --batch` without `--force`).
///
/// The identity is a SHA-256 over the filled description in canonical form (`descriptionHash`: slot
/// values, media folder, preview, size), the encoder and sound settings, and the size and modification
/// time of every file the composition reads, so replacing a photo under the same name renders again.
/// It is written as the container's `comment` (`©cmt` in MP4 and MOV, a `COMMENT` tag in Matroska),
/// `MovieMaker render <hex>`. Animated images and HLS streams keep no metadata: they have no identity
/// and are always rendered again.
package enum RenderIdentity {
    /// The metadata key the identity is written under.
    static let key = "comment"
    /// What the recorded value starts with.
    static let prefix = "MovieMaker render "
    /// Bumped when what goes into the identity changes, so older movies are rendered again.
    static let version = 1

    /// The identity recorded in the movie at `url`, or nil when it has none (not a MovieMaker render, an
    /// animated image, an unreadable file).
    package static func recorded(in url: URL) -> String? {
        guard let demuxer = try? Demuxer(path: url.path), let comment = demuxer.metadata(key), comment.hasPrefix(prefix) else { return nil }
        return String(comment.dropFirst(prefix.count))
    }

    /// Whether `container` keeps the identity in its metadata.
    package static func isRecorded(in container: Container) -> Bool { [.mp4, .mov, .mkv, .webm].contains(container) }
}

extension TimelineComposition {
    /// This composition's render identity (`RenderIdentity`): equal for two compositions exactly when
    /// they make the same movie from the same files with the same settings.
    package var renderIdentity: String {
        var hash = SHA256()
        hash.update(Data("moviemaker render identity \(RenderIdentity.version)\ndescription \(descriptionHash)\n".utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        hash.update((try? encoder.encode(encoderSettings)) ?? Data("settings \(UUID())".utf8))
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
