internal import CFFmpeg
import Foundation

/// A movie rendered by several workers — processes, machines, a Slurm job array, a Kubernetes Indexed
/// Job, GNU parallel — each drawing and encoding one range of frames into a chunk file, then assembled
/// into exactly the movie one machine would have made.
///
/// <!-- prelude: let film = Clip.color(.black, duration: 5); let (k, n) = (0, 4); let chunks = URL(fileURLWithPath: "chunks") -->
/// ```swift
/// let job = try DistributedRender(clip: film, width: 1920, height: 1080, rate: 30, name: "film")
/// // on worker k of n (any machine sharing `chunks`):
/// try job.renderChunk(k, of: n, in: chunks)
/// // once every chunk is there:
/// try job.assemble(from: chunks, to: URL(fileURLWithPath: "film.mp4"))
/// ```
///
/// - **Chunks** are video only: MP4 files that start with an IDR frame and reference nothing outside
///   themselves, encoded with exactly the settings of a single render. A chunk's file name carries a
///   content hash of everything its pixels depend on: the clip tree (`Clip.contentHash()`, or the
///   `identity` given), its frame range, the size and rate, the settings that shape the bitstream,
///   the library and codec versions, and a fingerprint (size, first and last MiB) of every input file.
///   Writes are atomic (a hidden partial file renamed into place), so a complete-looking name is a
///   complete chunk, and a worker that finds its chunk already there skips it: re-running a job renders
///   only what is missing. Chunks of other descriptions or settings in the same folder are ignored.
/// - **Assembly** copies the chunks' packets into one faststart MP4 without re-encoding, with exact
///   timestamps, and the **whole sound track, rendered once** (never per chunk: per-chunk AAC priming is
///   what shifts sound at the joins), so frames, timestamps and sound equal a single render's; in
///   lossless mode (`EncoderSettings.lossless`) the decoded frames are identical too.
/// - **The sound track** is one more task beside the chunks: `renderSoundTrack(in:)` writes it whole
///   into the chunk folder (`<name>.sound.<hash>.m4a`; the CLI's worker of chunk 0 does it after its
///   frames), and assembly then copies its packets — the same packets it would encode — instead of
///   mixing and encoding the sound itself, which is most of an assembly's time. When it is missing or
///   unusable, assembly renders the sound track itself (`soundTrackStatus(in:)` says which).
/// - **Determinism**: a clip draws each frame from its time alone, so a frame's pixels depend only on
///   the clip and the frame index, never on the chunking or the number of drawing threads. A movie drawn
///   with `MovieMaker.addFrame` (each frame over the last) has no such description and cannot be chunked.
///
/// A value: build it the same way on every worker (from the same description file, the same program).
public struct DistributedRender: Sendable {
    /// The picture, rendered in chunks (its sounds are left to the assembly).
    public let picture: Clip
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// Frames per second.
    public let frameRate: FrameRate
    /// How the video is encoded (every chunk alike).
    public let settings: EncoderSettings
    /// How the sound is encoded; nil: as a single render decides (none, or the defaults when the
    /// picture has sounds).
    public let audioSettings: AudioSettings?
    /// A sound track played from time 0 besides the picture's own sounds (a description's mixed sound).
    public let soundtrack: (any AudioSource)?
    /// The chunk files' name stem (`film` → `film.0-90.<hash>.mp4`).
    public let name: String
    /// The hash of everything the video depends on except the frame range (hex).
    public let identity: String
    /// The hash of everything the video depends on except the clip tree and the files (size, rate,
    /// encoder settings, versions): with `hashesSegments`, what each chunk's own hash is mixed with.
    private var settingsIdentity = ""
    /// The files the render reads beyond its media leaves (LUTs, Lottie animations and their images):
    /// no segment hash sees them, so every segment's name holds their fingerprints.
    private var otherFiles: [URL] = []
    /// Whether each chunk is named by what its own frames show (`Clip.segmentHash(in:)` and the files
    /// its leaves read) instead of by the whole movie: a chunk whose frames an edit did not change keeps
    /// its name, so an incremental render reuses it. Falls back to the whole movie's `identity` when the
    /// frames hold something that cannot be hashed (a drawing closure).
    package var hashesSegments = false
    /// What names `soundtrack` in the sound track file's hash: "description" when the description's
    /// hash (in `identity`) covers it, else its `String(reflecting:)`.
    private var soundtrackIdentity: String

    /// The revision of the chunk format and of what goes into the hash; bumped when either changes.
    package static let formatVersion = 1

    /// A distributed render of `clip`. `identity` names what the clip draws when it holds drawing
    /// closures (which have no content hash): a string you change whenever the drawing code changes,
    /// e.g. a version or a hash of the program. Clips made only of data hash themselves, and `identity`
    /// is then mixed into their hash. `inputFiles` adds files the clip reads that are not its photos
    /// and videos (fonts, LUTs, stickers), so changing one changes the chunks' names.
    ///
    /// Throws `.notEncodable` when the clip holds a closure and no `identity` is given, and
    /// `.invalidSetting` for a bad name or a codec other than H.264; size, rate and settings are checked as `MovieMaker` checks them
    /// when a chunk is rendered.
    ///
    /// `hlsSegmentDuration`, for a render assembled into an HLS stream (`assemble(from:toHLS:)`): chunks
    /// start on segment boundaries and have an IDR frame at each one (and no other), so their packets
    /// become the segments as they are.
    public init(clip: Clip, width: Int, height: Int, rate: FrameRate, settings: EncoderSettings = EncoderSettings(),
                audioSettings: AudioSettings? = nil, soundtrack: (any AudioSource)? = nil, name: String,
                identity: String? = nil, inputFiles: [URL] = [], hlsSegmentDuration: Time? = nil) throws(MovieMakerError) {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw .invalidSetting(.chunk, value: "name \"\(name)\"", expected: "a file name stem without \"/\" that does not start with \".\", e.g. \"film\"")
        }
        // Chunks are joined without re-encoding, and only H.264's joins are checked and stitched here.
        if let codec = settings.codec, codec != .h264 {
            throw .invalidSetting(.videoCodec, value: codec.messageName,
                                  expected: "h264 for a render split into chunks (they are joined as H.264 without re-encoding); render \(codec.messageName) on one machine")
        }
        var settings = settings
        if let segment = hlsSegmentDuration { settings.hlsSegmentFrames = try MovieMaker.segmentFrames(segment, rate: rate) }
        picture = clip
        self.width = width; self.height = height; frameRate = rate
        self.settings = settings; self.audioSettings = audioSettings; self.soundtrack = soundtrack
        self.name = name
        soundtrackIdentity = soundtrack.map { String(reflecting: $0) } ?? "none"
        let tree: String
        do {
            tree = try clip.contentHash()
        } catch let error as MovieMakerError {
            guard let identity else {
                throw .notEncodable(what: "the clip", reason: "\(error.message). A chunked render names its chunks by a hash of what they show: give DistributedRender an identity string that changes whenever the drawing code changes")
            }
            tree = "closure:" + identity
        } catch {
            throw .notEncodable(what: "the clip", reason: "\(error)")
        }
        var files = Set(inputFiles.map(\.standardizedFileURL))
        var mediaFiles = Set<URL>()
        for placement in clip.mediaLeaves(in: .zero..<clip.duration) {
            if case let .media(media) = placement.clip.node { mediaFiles.insert(media.url.standardizedFileURL) }
        }
        // The sound track's files change no picture: a new song must not rename every segment.
        otherFiles = files.subtracting(mediaFiles).subtracting(Self.soundFiles(of: soundtrack)).sorted { $0.path < $1.path }
        files.formUnion(mediaFiles)
        let settingsLines = [
            "size \(width)x\(height) rate \(rate.numerator)/\(rate.denominator)",
            "encoder \(settings.bitstreamDescription)",
            "libraries \(LibraryVersions.current.description)",
            // Drawing code changes between releases: chunks of another build are not this render's.
            "moviemaker \(MovieMaker.version)",
        ]
        var settingsHash = SHA256()
        settingsHash.update(Data((["moviemaker chunk format \(Self.formatVersion)"] + settingsLines).joined(separator: "\n").utf8))
        settingsIdentity = settingsHash.hexDigest()
        var lines = [
            "moviemaker chunk format \(Self.formatVersion)",
            "tree \(tree)", identity.map { "identity \($0)" } ?? "",
        ] + settingsLines
        lines += files.sorted { $0.path < $1.path }.map { "file \($0.path) \(Self.fingerprint(of: $0))" }
        var hash = SHA256()
        hash.update(Data(lines.joined(separator: "\n").utf8))
        self.identity = hash.hexDigest()
    }

    /// A distributed render of a resolved description: its picture (or `picture`, e.g. the picture with
    /// burned-in subtitles), size, rate, encoder settings and sound track; chunks named after `name`.
    /// The description's hash (`TimelineComposition.descriptionHash`) names what its generators draw;
    /// `identity` adds whatever else changes `picture` (e.g. a subtitle style).
    public init(composition: TimelineComposition, picture: Clip? = nil, name: String, identity: String? = nil,
                inputFiles: [URL] = [], hlsSegmentDuration: Time? = nil) throws(MovieMakerError) {
        try self.init(clip: picture ?? composition.picture, width: composition.width, height: composition.height,
                      rate: composition.frameRate, settings: composition.encoderSettings, audioSettings: composition.audioSettings,
                      soundtrack: composition.soundtrack, name: name,
                      identity: "description \(composition.descriptionHash)" + (identity.map { " \($0)" } ?? ""),
                      inputFiles: composition.inputFiles + inputFiles, hlsSegmentDuration: hlsSegmentDuration)
        soundtrackIdentity = "description"
        chapters = composition.chapters
    }

    /// The chapters the assembled movie gets (a description's markers); the chunks have none.
    public var chapters: [Chapter] = []

    /// The movie's frame count.
    public var frameCount: Int { frameRate.frameCount(for: picture.duration) }

    /// The plan for `count` chunks of this movie.
    package func plan(chunks count: Int) throws(MovieMakerError) -> ChunkPlan {
        try ChunkPlan(frameCount: frameCount, frameRate: frameRate, count: count, alignment: settings.hlsSegmentFrames ?? 1)
    }

    /// The hash in the name of the chunk holding `frames` (hex, 16 digits).
    package func chunkHash(frames: Range<Int>) -> String {
        var hash = SHA256()
        hash.update(Data("\(segmentIdentity(frames: frames) ?? identity)\nframes \(frames.lowerBound)..<\(frames.upperBound)".utf8))
        return String(hash.hexDigest().prefix(16))
    }

    /// With `hashesSegments`, what the chunk holding `frames` depends on: its frames' segment hash, the
    /// fingerprints of the files its leaves read, and the settings; nil without it, or when the frames
    /// cannot be hashed on their own.
    private func segmentIdentity(frames: Range<Int>) -> String? {
        guard hashesSegments else { return nil }
        let window = frameRate.time(ofFrame: frames.lowerBound)..<frameRate.time(ofFrame: frames.upperBound)
        guard let shown = try? picture.segmentHash(in: window) else { return nil }
        var files = Set<URL>()
        for placement in picture.mediaLeaves(in: window) {
            if case let .media(media) = placement.clip.node { files.insert(media.url.standardizedFileURL) }
        }
        var lines = ["segment \(shown)", "settings \(settingsIdentity)", "start \(window.lowerBound)"]
        lines += files.sorted { $0.path < $1.path }.map { "file \($0.path) \(Self.fingerprint(of: $0))" }
        lines += otherFiles.map { "other file \($0.path) \(Self.fingerprint(of: $0))" }
        var hash = SHA256()
        hash.update(Data(lines.joined(separator: "\n").utf8))
        return hash.hexDigest()
    }

    /// The sound files `source` plays (a mix's tracks, clips of files), as far as it tells.
    static func soundFiles(of source: (any AudioSource)?) -> Set<URL> {
        switch source {
        case let mix as AudioMix: return mix.tracks.reduce(into: Set<URL>()) { $0.formUnion(soundFiles(of: $1.source)) }
        case let clip as AudioClip: return soundFiles(of: clip.source)
        case let file as AudioFile: return [file.url.standardizedFileURL]
        default: return []
        }
    }

    /// The file in `folder` that holds `frames` once rendered: `<name>.<first>-<end>.<hash>.mp4`
    /// (`end` exclusive).
    package func chunkURL(frames: Range<Int>, in folder: URL) -> URL {
        folder.appendingPathComponent("\(name).\(frames.lowerBound)-\(frames.upperBound).\(chunkHash(frames: frames)).mp4")
    }

    /// What rendering one chunk did.
    public enum ChunkOutcome: Sendable, Equatable {
        /// The chunk was rendered into the file.
        case rendered(URL, frames: Range<Int>)
        /// A complete chunk was already there (an earlier run, a retried worker): nothing was done.
        case alreadyComplete(URL, frames: Range<Int>)
        /// The movie is too short to give this chunk index frames (see `ChunkPlan`): nothing to do.
        case nothingToRender(chunk: Int, chunks: Int)
    }

    /// Renders chunk `index` (0-based) of `count` into `folder` (which must exist), unless it is already
    /// there and complete. See `renderFrames(_:in:cancellation:progress:)`.
    @discardableResult
    public func renderChunk(_ index: Int, of count: Int, in folder: URL, cancellation: CancellationToken? = nil,
                            progress: ((RenderProgress) -> Void)? = nil) throws -> ChunkOutcome {
        let plan = try plan(chunks: count)
        guard let range = try plan.range(ofChunk: index) else { return .nothingToRender(chunk: index, chunks: plan.count) }
        return try renderFrames(range, in: folder, cancellation: cancellation, progress: progress)
    }

    /// Renders the movie frames `frames` into a chunk file in `folder`, unless a complete one is already
    /// there. The chunk starts with an IDR frame and holds the video only. A failed or cancelled render
    /// leaves nothing under the chunk's name. Throws `.invalidSetting` for a range outside the movie.
    @discardableResult
    public func renderFrames(_ frames: Range<Int>, in folder: URL, cancellation: CancellationToken? = nil,
                             progress: ((RenderProgress) -> Void)? = nil) throws -> ChunkOutcome {
        guard frames.lowerBound >= 0, frames.upperBound <= frameCount, !frames.isEmpty else {
            throw MovieMakerError.invalidSetting(.frameRange, value: "\(frames.lowerBound)..<\(frames.upperBound)",
                                                 expected: "a non-empty range within the movie's \(frameCount) frames, 0..<\(frameCount)")
        }
        let url = chunkURL(frames: frames, in: folder)
        if FileManager.default.fileExists(atPath: url.path) {
            if (try? checkChunk(at: url, frames: frames, readingEveryPacket: true)) != nil, ChunkRecord.problem(with: url, frames: frames) == nil {
                return .alreadyComplete(url, frames: frames)
            }
            // Not what its name says or what was written (copied in part, damaged, another chunk's file):
            // render it again over it.
        }
        let movie = try MovieMaker(url: url, width: width, height: height, fps: frameRate, settings: settings, audioSettings: nil)
        movie.cancellation = cancellation
        movie.progressHandler = progress
        movie.expectedFrameCount = frames.count
        do {
            try movie.add(picture, frames: frames, withSound: false)
            try movie.finish()
        } catch {
            movie.cancel()
            throw error
        }
        // What was written, beside it: assembly joins the chunk only while the file still matches.
        do { try ChunkRecord.write(for: url, frames: frames) } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return .rendered(url, frames: frames)
    }

    /// Opens the chunk at `url` and checks it holds `frames.count` frames of H.264 video; returns the
    /// demuxer (positioned at the start) and its video stream. `readingEveryPacket` also reads every
    /// packet (no decoding: a fraction of a second per minute of video), so a file cut short after its
    /// index was written is caught.
    private func checkChunk(at url: URL, frames: Range<Int>, readingEveryPacket: Bool = false, checkingRecord: Bool = false) throws(MovieMakerError) -> (Demuxer, Int32) {
        // A named pipe called like a chunk would block the open for good.
        if let problem = RegularFile.problem(url.path) { throw .chunkMismatch(path: url.path, reason: problem) }
        if checkingRecord, let problem = ChunkRecord.problem(with: url, frames: frames) { throw .chunkMismatch(path: url.path, reason: problem) }
        let demuxer: Demuxer
        do {
            // Every read failure names the chunk (a damaged or truncated chunk is rendered again).
            demuxer = try Demuxer(path: url.path, detectsTruncation: true,
                                  describe: { .chunkMismatch(path: url.path, reason: "it cannot be read: \($0.ffmpegError.message)") })
        } catch {
            throw .chunkMismatch(path: url.path, reason: "it cannot be opened (\(error.message))")
        }
        guard let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { throw .chunkMismatch(path: url.path, reason: "it has no video stream") }
        let s = demuxer.borrowedStream(stream)
        guard s.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_H264 else {
            throw .chunkMismatch(path: url.path, reason: "it is not H.264")
        }
        guard s.pointee.nb_frames == Int64(frames.count) else {
            throw .chunkMismatch(path: url.path, reason: "it holds \(s.pointee.nb_frames) frames, its name says \(frames.count) (frames \(frames.lowerBound)..<\(frames.upperBound))")
        }
        guard Int(s.pointee.codecpar.pointee.width) == width + width % 2, Int(s.pointee.codecpar.pointee.height) == height + height % 2 else {
            throw .chunkMismatch(path: url.path, reason: "its frames are \(s.pointee.codecpar.pointee.width)×\(s.pointee.codecpar.pointee.height), the movie's \(width)×\(height)")
        }
        if readingEveryPacket {
            var count = 0
            while try demuxer.readPacket(ofStream: stream) != nil { count += 1 }
            guard count == frames.count else { throw .chunkMismatch(path: url.path, reason: "it holds \(count) packets, its name says \(frames.count)") }
        }
        return (demuxer, stream)
    }

    /// The complete chunks of this movie found in `folder`, by frame range, and how many chunk files of
    /// other movies or settings were there.
    package func chunks(in folder: URL) -> (found: [Range<Int>: URL], ignored: Int) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var found: [Range<Int>: URL] = [:]
        var ignored = 0
        for name in names where !name.hasPrefix(".") && name.hasSuffix(".mp4") {
            let parts = name.dropLast(4).split(separator: ".")
            guard parts.count >= 3 else { continue }
            let bounds = parts[parts.count - 2].split(separator: "-")
            guard bounds.count == 2, let a = Int(bounds[0]), let b = Int(bounds[1]), a < b else { continue }
            let stem = parts.dropLast(2).joined(separator: ".")
            if stem == self.name && String(parts[parts.count - 1]) == chunkHash(frames: a..<b) && b <= frameCount {
                found[a..<b] = folder.appendingPathComponent(name)
            } else {
                ignored += 1
            }
        }
        return (found, ignored)
    }

    /// The chunks `assemble` would join, in order: the ranges of `count` chunks when given, else the
    /// chunk plan most of the chunks found follow (or any chain of them covering the movie). Throws
    /// `.chunksMissing` naming every missing chunk, or saying that none of this movie's is there.
    package func chunkSequence(in folder: URL, chunks count: Int? = nil) throws(MovieMakerError) -> [(frames: Range<Int>, url: URL)] {
        let (found, ignored) = chunks(in: folder)
        if found.isEmpty { throw .noChunks(folder: folder.path, frameCount: frameCount, ignored: ignored) }
        var plan: ChunkPlan?
        if let count {
            plan = try self.plan(chunks: count)
        } else {
            // The plan that most found chunks belong to (workers ran `--chunk K/N`).
            var best: (plan: ChunkPlan, hits: Int)?
            for n in Set(found.keys.compactMap({ range -> Int? in
                // A plan of n chunks has ranges of about frameCount / n frames.
                let n = Int((Double(frameCount) / Double(range.count)).rounded())
                return n >= 1 ? n : nil
            })) {
                for candidate in [n - 1, n, n + 1] where candidate >= 1 && candidate <= ChunkPlan.maximumCount {
                    guard let p = try? self.plan(chunks: candidate) else { continue }
                    let hits = p.ranges.filter { found[$0] != nil }.count
                    if hits > (best?.hits ?? 0) || (hits == best?.hits && p.count < best!.plan.count) { best = (p, hits) }
                }
            }
            plan = best?.plan
            // Chunks rendered with --frames may follow no plan: a chain of them from 0 to the end will do.
            if let chain = Self.chain(found, frameCount: frameCount), plan.map({ p in p.ranges.contains { found[$0] == nil } }) ?? true {
                return chain.map { ($0, found[$0]!) }
            }
        }
        guard let plan else {
            throw .chunksMissing(folder: folder.path, missing: ["every chunk (none of this movie's \(frameCount) frames is there)"], ignored: ignored)
        }
        let missing = plan.ranges.enumerated().filter { found[$0.element] == nil }
            .map { "chunk \($0.offset)/\(plan.requestedCount) (frames \($0.element.lowerBound)..<\($0.element.upperBound))" }
        guard missing.isEmpty else { throw .chunksMissing(folder: folder.path, missing: missing, ignored: ignored) }
        return plan.ranges.map { ($0, found[$0]!) }
    }

    /// A sequence of found ranges covering `0..<frameCount` end to end (the longest step first), or nil.
    private static func chain(_ found: [Range<Int>: URL], frameCount: Int) -> [Range<Int>]? {
        let byStart = Dictionary(grouping: found.keys, by: \.lowerBound)
        var memo: [Int: [Range<Int>]?] = [:]
        func from(_ start: Int) -> [Range<Int>]? {
            if start == frameCount { return [] }
            if let known = memo[start] { return known }
            var result: [Range<Int>]? = nil
            for range in (byStart[start] ?? []).sorted(by: { $0.count > $1.count }) {
                if let rest = from(range.upperBound) { result = [range] + rest; break }
            }
            memo[start] = result
            return result
        }
        return from(0)
    }

    /// The sound track a single render has — the soundtrack from 0 and the picture's own sounds — and
    /// the settings it is encoded with; nil when the movie is silent.
    private var soundTrack: (settings: AudioSettings, sounds: [(source: any AudioSource, at: Time)])? {
        var sounds: [(source: any AudioSource, at: Time)] = soundtrack.map { [($0, .zero)] } ?? []
        for sound in picture.sounds.map({ $0.limited(from: .zero, until: nil) }) where sound.isHeard {
            sounds.append((sound.heardSource, sound.firstHeard))
        }
        guard let settings = audioSettings ?? (sounds.isEmpty ? nil : AudioSettings()) else { return nil }
        return (settings, sounds)
    }

    /// The sample frame where the sound track ends: the video's exact end.
    private func soundTrackEnd(_ settings: AudioSettings) -> Int64 {
        settings.format.frame(at: frameRate.time(ofFrame: frameCount))
    }

    /// The file in `folder` that holds the movie's whole sound track once rendered
    /// (`<name>.sound.<hash>.m4a`), or nil when the movie is silent. Its hash covers what the video's
    /// does (`identity`: the picture with its sounds, input files, versions), the frame count, the sound
    /// settings and the soundtrack: a soundtrack given to `init(clip:…)` is named by its
    /// `String(reflecting:)`, so one made by a closure must change `identity` when the closure changes.
    package func soundTrackURL(in folder: URL) -> URL? {
        guard let track = soundTrack else { return nil }
        let s = track.settings
        let lines = [
            "moviemaker sound track format \(Self.formatVersion)", "movie \(identity)", "frames \(frameCount)",
            "audio aac \(s.sampleRate) Hz \(s.channelCount) channels \(s.bitRate) b/s", "soundtrack \(soundtrackIdentity)",
        ]
        var hash = SHA256()
        hash.update(Data(lines.joined(separator: "\n").utf8))
        return folder.appendingPathComponent("\(name).sound.\(hash.hexDigest().prefix(16)).m4a")
    }

    /// What rendering the sound track did.
    public enum SoundTrackOutcome: Sendable, Equatable {
        /// The sound track was rendered into the file.
        case rendered(URL)
        /// A complete sound track was already there: nothing was done.
        case alreadyComplete(URL)
        /// The movie is silent: there is no sound track to render.
        case silent
    }

    /// Renders the movie's whole sound track into `folder` (`soundTrackURL(in:)`), unless a complete one
    /// is already there, so that `assemble` copies it instead of encoding it: one more task beside the
    /// chunks, for any worker (the CLI's worker of chunk 0 does it after its frames). It is what a single
    /// render encodes, packet for packet. A failed or cancelled render leaves nothing under its name.
    @discardableResult
    public func renderSoundTrack(in folder: URL, cancellation: CancellationToken? = nil) throws -> SoundTrackOutcome {
        guard let track = soundTrack, let url = soundTrackURL(in: folder) else { return .silent }
        if case .complete = soundTrackStatus(in: folder) { return .alreadyComplete(url) }
        try SoundTrackFile.render(to: url, settings: track.settings, sounds: track.sounds, frameCount: frameCount,
                                  rate: frameRate, cancellation: cancellation)
        return .rendered(url)
    }

    /// Whether the sound track file is in a folder, for assembly.
    package enum SoundTrackStatus: Sendable, Equatable {
        /// The movie is silent.
        case silent
        /// No sound track file for this movie is there: assembly renders the sound itself.
        case missing(URL)
        /// A complete sound track file is there: assembly copies it.
        case complete(URL)
        /// The file is there but cannot be used (`reason`: damaged, cut short): assembly renders the
        /// sound itself and leaves the file alone.
        case unusable(URL, reason: String)
    }

    /// Whether `folder` holds a complete sound track file for this movie (its packets read, not decoded).
    package func soundTrackStatus(in folder: URL) -> SoundTrackStatus {
        guard let track = soundTrack, let url = soundTrackURL(in: folder) else { return .silent }
        guard FileManager.default.fileExists(atPath: url.path) else { return .missing(url) }
        do {
            _ = try SoundTrackFile.open(url, settings: track.settings, end: soundTrackEnd(track.settings))
            return .complete(url)
        } catch {
            return .unusable(url, reason: error.message)
        }
    }

    /// Joins the chunks in `folder` into the movie at `url` (`.mp4`, `.mov` or `.mkv`): checks that every
    /// chunk is there and complete (`.chunksMissing` names the missing ones; `.chunkMismatch` one that is
    /// damaged or encoded differently), copies their packets without re-encoding, adds the whole sound
    /// track (copied from the sound track file in `folder` when there is a complete one, see
    /// `renderSoundTrack(in:)`; otherwise rendered here, once), and writes the file atomically (a failed assembly leaves `url` as it was). `count`:
    /// the chunk count the workers used, when known (otherwise found from the chunks).
    @discardableResult
    public func assemble(from folder: URL, to url: URL, chunks count: Int? = nil, cancellation: CancellationToken? = nil,
                         progress: ((RenderProgress) -> Void)? = nil) throws -> MovieSummary {
        let started = Date()
        guard let container = Container(fileExtension: url.pathExtension), [.mp4, .mov, .mkv].contains(container) else {
            throw MovieMakerError.unsupportedContainer(extension: url.pathExtension, supported: ["mp4", "m4v", "mov", "mkv"])
        }
        let destinationFolder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destinationFolder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MovieMakerError.destinationFolderMissing(path: destinationFolder.path)
        }
        let sequence = try chunkSequence(in: folder, chunks: count)
        try PartialFiles.writeAtomically(to: url, extension: url.pathExtension) { (temporary) throws(MovieMakerError) in
            try join(sequence, soundFrom: folder, into: temporary.path, destination: url.path, container: container,
                     cancellation: cancellation, started: started, progress: progress)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        // H.264 chunks are encoded at even sizes (an odd side padded by one), as a single render's are.
        return MovieSummary(url: url, width: width + width % 2, height: height + height % 2, frameCount: frameCount, frameRate: frameRate,
                            duration: frameRate.time(ofFrame: frameCount), fileSize: size, renderSeconds: Date().timeIntervalSince(started))
    }

    /// Joins the chunks in `folder` into an HLS stream in the folder `hlsFolder` (`playlist.m3u8`,
    /// `init.mp4`, `segment-N.m4s`, and `chapters.vtt` with chapters), as `MovieMaker(hlsIn:…)` writes
    /// one: the chunks' packets become the segments without re-encoding. The render must have been made
    /// with `hlsSegmentDuration` (its chunks then start on segment boundaries with an IDR frame at each
    /// one); otherwise `.invalidSetting(.segmentDuration)`. The folder is written atomically, as a
    /// single render's is, with the same checks as `assemble(from:to:)`.
    @discardableResult
    public func assemble(from folder: URL, toHLS hlsFolder: URL, chunks count: Int? = nil, cancellation: CancellationToken? = nil,
                         progress: ((RenderProgress) -> Void)? = nil) throws -> MovieSummary {
        let started = Date()
        guard let segmentFrames = settings.hlsSegmentFrames else {
            throw MovieMakerError.invalidSetting(.segmentDuration, value: "none",
                                                 expected: "chunks rendered for HLS: give the render an HLS segment duration (render --chunk … --segment 4s, DistributedRender(…, hlsSegmentDuration:))")
        }
        var destination = MovieDestination(url: hlsFolder, isPNGSequence: false)
        destination.isHLS = true
        try destination.checkFolder()
        try destination.checkWritable()
        let sequence = try chunkSequence(in: folder, chunks: count)
        let (partial, playlist) = try destination.makePartial()
        do {
            try join(sequence, soundFrom: folder, into: playlist, destination: hlsFolder.path, container: .hls,
                     hls: (segmentFrames, frameRate, partial.path), cancellation: cancellation, started: started, progress: progress)
            if !chapters.isEmpty { try destination.writeHLSChapters(chapters, end: frameRate.time(ofFrame: frameCount), into: partial) }
            try destination.moveIntoPlace(from: partial)
        } catch {
            destination.removePartial(partial)
            throw error
        }
        return MovieSummary(url: hlsFolder, width: width + width % 2, height: height + height % 2, frameCount: frameCount, frameRate: frameRate,
                            duration: frameRate.time(ofFrame: frameCount), fileSize: destination.writtenSize(),
                            renderSeconds: Date().timeIntervalSince(started))
    }

    /// Copies the chunks' packets in order into a new file at `path` of `container` (an HLS playlist
    /// with `hls`), with the sound track (copied from `folder`'s sound track file when complete,
    /// otherwise encoded here) and the chapters.
    private func join(_ sequence: [(frames: Range<Int>, url: URL)], soundFrom folder: URL, into path: String, destination: String,
                      container: Container, hls: (segmentFrames: Int, rate: FrameRate, folder: String)? = nil,
                      cancellation: CancellationToken?, started: Date, progress: ((RenderProgress) -> Void)?) throws(MovieMakerError) {
        let sound: ChunkJoiner.Sound
        if let track = soundTrack {
            if let url = soundTrackURL(in: folder),
               let file = try? SoundTrackFile.open(url, settings: track.settings, end: soundTrackEnd(track.settings)) {
                sound = .copy(file)
            } else {
                sound = .encode(track.settings, track.sounds)
            }
        } else {
            sound = .none
        }
        var (demuxer, stream) = try checkChunk(at: sequence[0].url, frames: sequence[0].frames, checkingRecord: true)
        let joiner = try ChunkJoiner(path: path, destination: destination, container: container, rate: frameRate,
                                     first: demuxer.borrowedStream(stream), sound: sound,
                                     chapters: hls == nil ? chapters : [], end: frameRate.time(ofFrame: sequence.last!.frames.upperBound), hls: hls)
        for (index, chunk) in sequence.enumerated() {
            if index > 0 {
                (demuxer, stream) = try checkChunk(at: chunk.url, frames: chunk.frames, checkingRecord: true)
                if let reason = joiner.mismatch(demuxer.borrowedStream(stream)) {
                    throw MovieMakerError.chunkMismatch(path: chunk.url.path, reason: reason)
                }
            }
            let copied = try joiner.append(demuxer, stream: stream, start: chunk.frames.lowerBound, path: chunk.url.path,
                                           cancellation: cancellation)
            guard copied == chunk.frames.count else {
                throw MovieMakerError.chunkMismatch(path: chunk.url.path, reason: "it gave \(copied) frames, its name says \(chunk.frames.count)")
            }
            progress?(RenderProgress(framesEncoded: joiner.framesWritten, framesAdded: joiner.framesWritten,
                                     totalFrames: frameCount, elapsed: Date().timeIntervalSince(started)))
        }
        try joiner.finish()
    }

    /// A cheap fingerprint of a file's content: its size and a hash of its first and last MiB ("missing"
    /// when it cannot be read). Equal on every machine holding the same file.
    static func fingerprint(of url: URL) -> String {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return "missing" }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return "unreadable" }
        let window: UInt64 = 1 << 20
        var hash = SHA256()
        try? handle.seek(toOffset: 0)
        hash.update((try? handle.read(upToCount: Int(window))) ?? Data())
        if size > window {
            try? handle.seek(toOffset: max(window, size - window))
            hash.update((try? handle.read(upToCount: Int(window))) ?? Data())
        }
        return "\(size) \(hash.hexDigest().prefix(16))"
    }
}
