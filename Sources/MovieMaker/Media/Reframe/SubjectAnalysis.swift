internal import CFFmpeg
import Foundation
import Synchronization

/// Where a video's subject is, sample by sample, and where its shots begin: what reframing follows.
/// Independent of the aspect ratio (`ReframePath` turns it into a window's path); cached per file
/// content (`SubjectCache`).
struct SubjectTrack: Codable, Sendable, Hashable {
    /// The displayed picture's size (after the file's rotation), in pixels: the samples' coordinates.
    var width: Int
    var height: Int
    /// The shots, in time order; the first starts at the first frame.
    var shots: [Shot]
    /// Where an analysis cut short stopped (the first frame of the shot it was in: a cut), nil when it
    /// reached the file's end. A later analysis resumes there and finds what one pass would have.
    var end: Time? = nil

    /// One shot: the frames from one cut to the next.
    struct Shot: Codable, Sendable, Hashable {
        /// The source time of its first frame.
        var start: Time
        /// What was found, in time order; the first at `start`.
        var samples: [Sample]
    }

    /// What one analysed frame showed.
    struct Sample: Codable, Sendable, Hashable {
        /// The frame's source time.
        var time: Time
        /// The subject's centre in displayed pixels: a face's, else the centre of what moved; nil when
        /// neither was found (the window holds).
        var x: Double?
        var y: Double?
        /// Whether the centre is a face's.
        var isFace: Bool
    }
}

/// Finds faces (OpenCV's cascade), motion and cuts in a video, decoding every frame once on the
/// calling thread: a grey picture whose longer side is `analysisSide` pixels for each frame (cuts are
/// found between consecutive frames by their histograms and block means), faces and motion in
/// `samplesPerSecond` of them. Memory: three grey pictures and the samples (a few bytes each).
package final class SubjectAnalyser {
    /// The analysed pictures' longer side: faces of 1/12 of the picture's height and more are found.
    /// (The face search's cost grows with the pixels; this keeps a 1080p analysis near a tenth of a
    /// reframed render's CPU: `make bench`'s reframe line.)
    static let analysisSide = 384
    /// How many frames a second are searched for faces and motion.
    static let samplesPerSecond = 6.0
    /// Changes whenever what the analysis finds changes: part of the cache's key.
    static let version = 2
    /// Analyses run in this process, by file path (a cached analysis does not count).
    private static let runCounts = Mutex<[String: Int]>([:])

    /// How many times this process has analysed the file at `url` (for tests).
    package static func runs(of url: URL) -> Int { runCounts.withLock { $0[url.standardizedFileURL.path] ?? 0 } }

    private let file: VideoFile
    private let detector: FaceDetector
    /// The analysed picture's size in the coded orientation, and displayed.
    private let codedSize: (width: Int, height: Int)
    private let shownSize: (width: Int, height: Int)
    /// Scales decoded frames to grey `codedSize` (owned), made for the stream's format and size.
    private var scaler: OwnedScaler?
    private var scalerKey: (Int32, Int32, Int32)?
    /// The current frame in grey, coded orientation and displayed.
    private var coded: [UInt8]
    private var shown: [UInt8]
    /// The previous sample's displayed picture (motion is what changed since).
    private var previousSample: [UInt8]
    private var hasPreviousSample = false
    /// The previous frame's cut signature.
    private var previousSignature: [Double]? = nil

    /// An analyser of `file` using `detector`.
    init(file: VideoFile, detector: FaceDetector) {
        self.file = file
        self.detector = detector
        let turned = file.rotation % 180 != 0
        let (dw, dh) = (file.width, file.height)
        let scale = min(1, Double(Self.analysisSide) / Double(max(dw, dh)))
        let sw = max(16, Int((Double(dw) * scale).rounded())), sh = max(16, Int((Double(dh) * scale).rounded()))
        shownSize = (sw, sh)
        codedSize = turned ? (sh, sw) : (sw, sh)
        coded = [UInt8](repeating: 0, count: sw * sh)
        shown = coded
        previousSample = coded
    }

    /// Decodes the whole file and returns what it found, calling `shotFinished` with each shot and
    /// where the next begins as soon as it does (the last with nil, at the end). Stops with `.cancelled` when `cancellation` is set.
    ///
    /// With `start` (a cut where an earlier analysis stopped), it begins there with a new shot.
    func run(from start: Time? = nil, cancellation: CancellationToken, shotFinished: (SubjectTrack.Shot, Time?) -> Void) throws(MovieMakerError) -> SubjectTrack {
        Self.runCounts.withLock { $0[file.url.standardizedFileURL.path, default: 0] += 1 }
        let reader = try MovieReader(url: file.url, cancellation: cancellation)
        let fps = file.frameRate.framesPerSecond > 0 ? file.frameRate.framesPerSecond : 30
        let every = max(1, Int((fps / Self.samplesPerSecond).rounded()))
        var shots: [SubjectTrack.Shot] = []
        var current: SubjectTrack.Shot? = nil
        var inShot = 0
        var lastFace: (x: Double, y: Double)? = nil
        do {
            // As lenient as drawing the clip: a clip damaged in the middle renders, so reframing it must
            // not stop at the damage (which failed the whole render for every time after it).
            try reader.forEachDecodedFrame(from: start.map { $0 + file.startTime }, lenient: true) { frame, _, time in
                if cancellation.isCancelled { throw MovieMakerError.cancelled }
                let sourceTime = Time.max(.zero, time - file.startTime)
                try self.grey(frame)
                let signature = self.signature()
                let isCut = previousSignature.map { Self.isCut(from: $0, to: signature) } ?? false
                previousSignature = signature
                if isCut || current == nil {
                    if let done = current { shots.append(done); shotFinished(done, sourceTime) }
                    current = SubjectTrack.Shot(start: sourceTime, samples: [])
                    inShot = 0
                    hasPreviousSample = false
                    lastFace = nil
                }
                if inShot % every == 0 {
                    let sample = try self.sample(at: sourceTime, near: lastFace)
                    if sample.isFace, let x = sample.x, let y = sample.y { lastFace = (x, y) }
                    current!.samples.append(sample)
                }
                inShot += 1
                return true
            }
        } catch let error as MovieMakerError {
            throw error
        } catch {
            throw .movieUnreadable(path: file.url.path, reason: "\(error)")
        }
        if let done = current { shots.append(done); shotFinished(done, nil) }
        return SubjectTrack(width: file.width, height: file.height, shots: shots)
    }

    /// The frame in grey at the analysed size, turned upright into `shown`.
    private func grey(_ frame: UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) {
        let f = frame.pointee
        let key = (f.width, f.height, f.format)
        if scalerKey.map({ $0 != key }) ?? true {
            scaler = try OwnedScaler(srcWidth: f.width, srcHeight: f.height, srcFormat: AVPixelFormat(rawValue: f.format),
                                     dstWidth: Int32(codedSize.width), dstHeight: Int32(codedSize.height), dstFormat: AV_PIX_FMT_GRAY8,
                                     flags: SWS_AREA)
            scalerKey = key
        }
        let w = codedSize.width
        coded.withUnsafeMutableBufferPointer { out in
            _ = scaler!.convert(UnsafePointer(frame), into: out.baseAddress!, stride: w)
        }
        Self.turn(coded, width: codedSize.width, height: codedSize.height, rotation: file.rotation, mirrored: file.isMirrored, into: &shown)
    }

    /// `picture` (coded orientation, `width`×`height`) as displayed: turned `rotation` degrees clockwise,
    /// then mirrored (as `VideoMedia.drawTurned` draws it).
    static func turn(_ picture: [UInt8], width: Int, height: Int, rotation: Int, mirrored: Bool, into out: inout [UInt8]) {
        let r = ((rotation % 360) + 360) % 360
        if r == 0 && !mirrored { out = picture; return }
        let (ow, oh) = r % 180 == 0 ? (width, height) : (height, width)
        for oy in 0..<oh {
            for ox in 0..<ow {
                // The displayed pixel's source: undo the mirror, then the rotation.
                let mx = mirrored ? ow - 1 - ox : ox
                let (x, y): (Int, Int)
                switch r {
                case 90: (x, y) = (oy, height - 1 - mx)
                case 180: (x, y) = (width - 1 - mx, height - 1 - oy)
                case 270: (x, y) = (width - 1 - oy, mx)
                default: (x, y) = (mx, oy)
                }
                out[oy * ow + ox] = picture[y * width + x]
            }
        }
    }

    /// A frame's cut signature: a 32-bin histogram (fractions of the picture) and 8×6 block means (levels).
    private func signature() -> [Double] {
        let (w, h) = shownSize
        var histogram = [Double](repeating: 0, count: 32)
        var blocks = [Double](repeating: 0, count: 48)
        var counts = [Double](repeating: 0, count: 48)
        shown.withUnsafeBufferPointer { p in
            for y in Swift.stride(from: 0, to: h, by: 2) {
                let by = min(5, y * 6 / h)
                for x in Swift.stride(from: 0, to: w, by: 2) {
                    let v = p[y * w + x]
                    histogram[Int(v) >> 3] += 1
                    let b = by * 8 + min(7, x * 8 / w)
                    blocks[b] += Double(v)
                    counts[b] += 1
                }
            }
        }
        let total = histogram.reduce(0, +)
        return histogram.map { $0 / max(1, total) } + zip(blocks, counts).map { $0 / max(1, $1) }
    }

    /// Whether two consecutive frames' signatures differ as a cut does: most of the histogram moved, or
    /// much of it and the picture's layout too. A pan or a person walking moves neither that much.
    static func isCut(from a: [Double], to b: [Double]) -> Bool {
        var moved = 0.0
        for i in 0..<32 { moved += abs(a[i] - b[i]) }
        moved /= 2
        var layout = 0.0
        for i in 32..<80 { layout += abs(a[i] - b[i]) }
        layout /= 48
        return moved > 0.5 || (moved > 0.25 && layout > 25)
    }

    /// The sample of the current frame: the face nearest `lastFace` among the large ones (the
    /// largest when there was none), else the centre of what moved since the previous sample.
    private func sample(at time: Time, near lastFace: (x: Double, y: Double)?) throws(MovieMakerError) -> SubjectTrack.Sample {
        let (w, h) = shownSize
        let sx = Double(file.width) / Double(w), sy = Double(file.height) / Double(h)
        defer {
            previousSample = shown
            hasPreviousSample = true
        }
        let faces = try shown.withUnsafeBufferPointer { p throws(MovieMakerError) in
            try detector.faces(in: p.baseAddress!, width: w, height: h, stride: w, minimumSize: max(12, min(w, h) / 12))
        }
        if let largest = faces.first {
            let candidates = faces.filter { $0.area * 2 >= largest.area }
            var chosen = largest
            if let lastFace {
                chosen = candidates.min { a, b in
                    let da = (a.center.x * sx - lastFace.x, a.center.y * sy - lastFace.y), db = (b.center.x * sx - lastFace.x, b.center.y * sy - lastFace.y)
                    return da.0 * da.0 + da.1 * da.1 < db.0 * db.0 + db.1 * db.1
                } ?? largest
            }
            return SubjectTrack.Sample(time: time, x: chosen.center.x * sx, y: chosen.center.y * sy, isFace: true)
        }
        guard hasPreviousSample else { return SubjectTrack.Sample(time: time, x: nil, y: nil, isFace: false) }
        // What moved: pixels (every second one) that changed by more than compression noise does.
        var mass = 0.0, mx = 0.0, my = 0.0, tested = 0.0
        shown.withUnsafeBufferPointer { now in
            previousSample.withUnsafeBufferPointer { before in
                for y in Swift.stride(from: 0, to: h, by: 2) {
                    for x in Swift.stride(from: 0, to: w, by: 2) {
                        tested += 1
                        let d = abs(Int(now[y * w + x]) - Int(before[y * w + x]))
                        guard d > 24 else { continue }
                        mass += Double(d); mx += Double(d * x); my += Double(d * y)
                    }
                }
            }
        }
        // Less than 0.3 % of the picture (in change-weighted pixels at full contrast) is noise.
        guard mass > 0.003 * tested * 64 else { return SubjectTrack.Sample(time: time, x: nil, y: nil, isFace: false) }
        return SubjectTrack.Sample(time: time, x: mx / mass * sx, y: my / mass * sy, isFace: false)
    }
}

/// Analyses kept by file content: in memory for the process (the last `memoryCapacity`) and on disk in
/// `$XDG_CACHE_HOME/moviemaker/subjects` (else `~/.cache/moviemaker/subjects`), one small JSON file per
/// video content (its SHA-256) and analysis version, so a re-render, in this process or the next, does
/// not analyse again.
package enum SubjectCache {
    static let memoryCapacity = 32
    private static let memory = Mutex<[(key: String, track: SubjectTrack)]>([])
    /// File hashes by path, size and modification time (hashing a 1 GB clip takes a second).
    private static let hashes = Mutex<[String: String]>([:])

    /// Names the face model an analysis used (its path and size: another cascade finds other faces), or
    /// "none" when there is none (such a key is never stored: the analysis cannot run).
    static var modelFingerprint: String {
        guard let model = try? FaceDetector.modelURL(),
              let size = (try? FileManager.default.attributesOfItem(atPath: model.path))?[.size] as? NSNumber else { return "none" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(model.path)|\(size.int64Value)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// The cache key of `file`'s content and the analysis that reads it, nil when it cannot be read.
    static func key(for file: URL) -> String? {
        let path = file.path
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let stamp = "\(path)|\(size)|\(date)"
        if let known = hashes.withLock({ $0[stamp] }) { return known }
        guard let sha = FileHash.sha256(ofFileAt: path) else { return nil }
        let key = "\(sha)-v\(SubjectAnalyser.version)-\(modelFingerprint)"
        hashes.withLock { $0[stamp] = key }
        return key
    }

    /// The folder of the disk cache (nil when none can be made).
    static func folder() -> URL? {
        for parent in SteadyVoices.cacheFolders() {
            let folder = parent.appendingPathComponent("subjects")
            if (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil { return folder }
        }
        return nil
    }

    /// The analysis stored under `key`, from memory or disk.
    static func track(for key: String) -> SubjectTrack? {
        if let hit = memory.withLock({ $0.first { $0.key == key }?.track }) { return hit }
        guard let folder = folder(), let data = try? Data(contentsOf: folder.appendingPathComponent(key + ".json")),
              let track = try? JSONDecoder().decode(SubjectTrack.self, from: data) else { return nil }
        remember(track, for: key)
        return track
    }

    /// Keeps `track` under `key` in memory and on disk (written beside, then renamed: a reader never
    /// sees half a file).
    static func store(_ track: SubjectTrack, for key: String) {
        remember(track, for: key)
        guard let folder = folder(), let data = try? JSONEncoder().encode(track) else { return }
        let final = folder.appendingPathComponent(key + ".json")
        let partial = folder.appendingPathComponent(".\(key).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).partial")
        // rename(2) replaces an older file in one step (Foundation's replaceItemAt fails on Linux when
        // there is none yet).
        guard (try? data.write(to: partial)) != nil, rename(partial.path, final.path) == 0 else {
            try? FileManager.default.removeItem(at: partial)
            return
        }
    }

    private static func remember(_ track: SubjectTrack, for key: String) {
        memory.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, track))
            if entries.count > memoryCapacity { entries.removeFirst(entries.count - memoryCapacity) }
        }
    }

    /// Forgets the analysis of `file` in memory and on disk (for tests).
    package static func forget(_ file: URL) {
        guard let key = key(for: file) else { return }
        memory.withLock { $0.removeAll { $0.key == key } }
        if let folder = folder() { try? FileManager.default.removeItem(at: folder.appendingPathComponent(key + ".json")) }
    }
}

extension SubjectAnalyser {
    /// Analyses the video at `url` on this thread, as a render's analysis thread does, and keeps the
    /// result in the cache (for the benchmark, which times it apart from the render): the samples taken.
    package static func analyseForBenchmark(_ url: URL) throws(MovieMakerError) -> Int {
        let file = try VideoFile(url: url)
        let analyser = SubjectAnalyser(file: file, detector: try FaceDetector(model: try FaceDetector.modelURL()))
        let track = try analyser.run(cancellation: CancellationToken()) { _, _ in }
        if let key = SubjectCache.key(for: url) { SubjectCache.store(track, for: key) }
        return track.shots.reduce(0) { $0 + $1.samples.count }
    }
}
