import Foundation
import Testing
import MovieMaker
internal import CMovieMakerTestKernels

// Fixture movies for the video-clip tests, made with MovieMaker itself (and varied with the ffmpeg CLI),
// so no binary test data is committed.
//
// Every frame shows its own index as a row of black and white blocks, which `VideoFixtures.frameIndex(of:)`
// reads back from a drawn or decoded picture (after scaling, fitting, mild coding noise), and
// `VideoFixtures.frameCode(of:)` also from a rotated or mirrored one. The sound is a steady tone with
// short clicks at chosen frames, which `VideoFixtures.clickCentres(in:rate:)` finds again.
//
// The picture (W × H):
//
//     ┌──────────────────────────────┐  0
//     │ grey gradient, dark → light  │       (top 20 %: shows horizontal crops and flips)
//     ├──────────────────────────────┤  0.2 H
//     │ mid grey  ┌──────────────┐   │  0.3 H
//     │           │ 16 code cells│   │       (central half of the width, 0.3 H … 0.7 H)
//     │           └──────────────┘   │  0.7 H
//     ├───────────────┬──────────────┤  0.8 H
//     │      red      │     blue     │       (bottom 20 %: saturated, shows rotations and letterboxing)
//     └───────────────┴──────────────┘  H
//
// Code cells, left to right: white, black (start), 11 index bits (most significant first, white = 1),
// an even-parity bit, white, white (stop). The stop is not the start reversed, so a picture read in
// the wrong direction does not decode.

/// Fixture movies (cached once per test run in a temporary folder), their frame code and their sound.
public enum VideoFixtures {
    // MARK: - What a fixture is

    /// The parameters of one fixture movie.
    public struct Spec: Hashable, Sendable, CustomStringConvertible {
        /// How many frames (at most `maximumIndex` + 1).
        public var frameCount: Int
        /// The frame rate (30, 30000/1001, 24000/1001, 25, 50, 60 …).
        public var rate: FrameRate
        /// Width in pixels (even).
        public var width: Int
        /// Height in pixels (even).
        public var height: Int
        /// Frames between keyframes (250: a long GOP, where seeking must decode from far back).
        public var keyframeInterval: Int
        /// Whether the movie has a sound track (the tone with clicks).
        public var withSound: Bool
        /// Frames at whose start a click begins (empty: the tone alone).
        public var clickFrames: [Int]
        /// The tone's frequency in Hz.
        public var toneFrequency: Double

        /// A fixture description; the defaults are 60 frames at 30 fps, 320×240, GOP 250, with the tone and no clicks.
        public init(frameCount: Int = 60, rate: FrameRate = 30, width: Int = 320, height: Int = 240, keyframeInterval: Int = 250,
                    withSound: Bool = true, clickFrames: [Int] = [], toneFrequency: Double = 440) {
            precondition(frameCount > 0 && frameCount <= VideoFixtures.maximumIndex + 1, "1…\(VideoFixtures.maximumIndex + 1) frames")
            self.frameCount = frameCount; self.rate = rate; self.width = width; self.height = height
            self.keyframeInterval = keyframeInterval; self.withSound = withSound; self.clickFrames = clickFrames
            self.toneFrequency = toneFrequency
        }

        /// How long the movie lasts (frame count ÷ rate, exactly).
        public var duration: Time { rate.time(ofFrame: frameCount) }

        /// A readable summary, also the base of the file name.
        public var description: String {
            "\(frameCount)f-\(rate.numerator)_\(rate.denominator)fps-\(width)x\(height)-g\(keyframeInterval)"
                + (withSound ? "-tone\(Int(toneFrequency))" : "-mute") + (clickFrames.isEmpty ? "" : "-clicks\(fnv(clickFrames.map { String($0) }.joined(separator: ",")))")
        }
    }

    /// A way of deriving a fixture file from the plain one (all but `.plain` need the ffmpeg CLI).
    public enum Variant: Hashable, Sendable, CustomStringConvertible {
        /// The movie MovieMaker wrote: H.264 + AAC in MP4 (moov first), constant frame rate.
        case plain
        /// Re-encoded with irregular timestamps (each frame moved by up to ±18 % of a frame period) and
        /// dropped frames (see `variableFrameRateDrops(frameCount:)` and `variableFrameRateJitter(_:rate:)`),
        /// written in a 1/90000 time base. The sound is copied.
        case variableFrameRate
        /// Every frame kept, each stamped up to `microseconds` before or after its slot (`sin(1.7 n)` of
        /// it), in a 1/90000 time base, as a phone stamps frames when its sensor read them.
        case jittered(microseconds: Int)
        /// The same stream with a display matrix rotating it `degrees` clockwise (90, 180 or 270) for display.
        case rotated(Int)
        /// The same stream with a display matrix mirroring it horizontally (the MP4 `tkhd` matrix edited).
        case mirrored
        /// The same stream with a display matrix that transposes it (turned 90° clockwise, then mirrored:
        /// the top-left corner stays), as ffprobe reports rotation −90 with a flip.
        case transposed
        /// The sound delayed by `milliseconds` relative to the picture (`-itsoffset`, streams copied).
        case audioOffset(milliseconds: Int)
        /// The plain file with its last 40 % of bytes cut off (its `moov` is at the front, so it opens).
        case truncated
        /// Only the sound track (AAC in MP4, no video stream).
        case audioOnly
        /// A file of 0 bytes named like a movie.
        case empty
        /// A text file named like a movie.
        case notVideo
        /// Re-encoded or remuxed into another codec or container.
        case encoded(Codec)

        /// A short name, used in file names and test output.
        public var description: String {
            switch self {
            case .plain: "plain"
            case .variableFrameRate: "vfr"
            case .jittered(let us): "jittered-\(us)us"
            case .rotated(let d): "rotated\(d)"
            case .mirrored: "mirrored"
            case .transposed: "transposed"
            case .audioOffset(let ms): "audio-offset-\(ms)ms"
            case .truncated: "truncated"
            case .audioOnly: "audio-only"
            case .empty: "empty"
            case .notVideo: "not-video"
            case .encoded(let c): c.rawValue
            }
        }
    }

    /// Other codecs and containers, each made from the plain fixture with the ffmpeg CLI.
    public enum Codec: String, CaseIterable, Sendable, CustomStringConvertible {
        /// HEVC Main 10 (libx265, yuv420p10le) in MP4, tagged `hvc1`.
        case hevc10MP4 = "hevc10-mp4"
        /// HEVC Main 10 (libx265) in QuickTime.
        case hevc10MOV = "hevc10-mov"
        /// VP9 (libvpx) with Opus in WebM.
        case vp9WebM = "vp9-webm"
        /// AV1 (libsvtav1, else libaom) in MP4.
        case av1MP4 = "av1-mp4"
        /// ProRes 422 (prores_ks) with PCM in QuickTime.
        case proResMOV = "prores-mov"
        /// MPEG-4 Part 2 with MP3 in AVI.
        case mpeg4AVI = "mpeg4-avi"
        /// Motion JPEG with PCM in AVI.
        case mjpegAVI = "mjpeg-avi"
        /// Theora with Vorbis in Ogg.
        case theoraOgg = "theora-ogg"
        /// The plain H.264 and AAC remuxed into Matroska.
        case h264MKV = "h264-mkv"
        /// The plain H.264 and AAC remuxed into MPEG-TS (`.mts`, whose timestamps start at 1.4 s).
        case h264MTS = "h264-mts"
        /// HEVC Main 10 tagged HDR10: BT.2020 primaries, PQ (SMPTE ST 2084) transfer, mastering metadata.
        case hdrHEVC = "hdr-hevc-pq"
        /// H.264 coded as interlaced fields, top field first.
        case interlacedH264 = "interlaced-h264"

        /// The printed name.
        public var description: String { rawValue }

        /// The file extension.
        public var fileExtension: String {
            switch self {
            case .hevc10MP4, .av1MP4, .hdrHEVC, .interlacedH264: "mp4"
            case .hevc10MOV, .proResMOV: "mov"
            case .vp9WebM: "webm"
            case .mpeg4AVI, .mjpegAVI: "avi"
            case .theoraOgg: "ogv"
            case .h264MKV: "mkv"
            case .h264MTS: "mts"
            }
        }

        /// The codec name ffprobe gives the video stream.
        public var codecName: String {
            switch self {
            case .hevc10MP4, .hevc10MOV, .hdrHEVC: "hevc"
            case .vp9WebM: "vp9"
            case .av1MP4: "av1"
            case .proResMOV: "prores"
            case .mpeg4AVI: "mpeg4"
            case .mjpegAVI: "mjpeg"
            case .theoraOgg: "theora"
            case .h264MKV, .h264MTS, .interlacedH264: "h264"
            }
        }

        /// The encoders this variant needs (any one of each inner list), as `ffmpeg -encoders` names them.
        var neededEncoders: [[String]] {
            switch self {
            case .hevc10MP4, .hevc10MOV, .hdrHEVC: [["libx265"]]
            case .vp9WebM: [["libvpx-vp9"], ["libopus"]]
            case .av1MP4: [["libsvtav1", "libaom-av1"]]
            case .proResMOV: [["prores_ks"]]
            case .mpeg4AVI: [["mpeg4"], ["libmp3lame"]]
            case .mjpegAVI: [["mjpeg"]]
            case .theoraOgg: [["libtheora"], ["libvorbis"]]
            case .h264MKV, .h264MTS: []
            case .interlacedH264: [["libx264"]]
            }
        }

        /// The ffmpeg output options (after `-i plain -map 0`).
        func ffmpegArguments(encoders: Set<String>) -> [String] {
            let x265 = ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"]
            switch self {
            case .hevc10MP4, .hevc10MOV:
                return x265 + ["-x265-params", "log-level=error", "-c:a", "copy"]
            case .hdrHEVC:
                return x265 + ["-x265-params", "log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:hdr10=1:"
                               + "max-cll=1000,400:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)",
                               "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc", "-c:a", "copy"]
            case .vp9WebM:
                return ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-crf", "20", "-b:v", "0", "-c:a", "libopus"]
            case .av1MP4:
                let video = encoders.contains("libsvtav1")
                    ? ["-c:v", "libsvtav1", "-preset", "12", "-crf", "30"]
                    : ["-c:v", "libaom-av1", "-cpu-used", "8", "-row-mt", "1", "-crf", "30", "-b:v", "0"]
                return video + ["-c:a", "copy"]
            case .proResMOV:
                return ["-c:v", "prores_ks", "-profile:v", "2", "-c:a", "pcm_s16le"]
            case .mpeg4AVI:
                return ["-c:v", "mpeg4", "-q:v", "2", "-c:a", "libmp3lame", "-q:a", "4"]
            case .mjpegAVI:
                return ["-c:v", "mjpeg", "-q:v", "2", "-pix_fmt", "yuvj420p", "-c:a", "pcm_s16le"]
            case .theoraOgg:
                return ["-c:v", "libtheora", "-q:v", "8", "-c:a", "libvorbis"]
            case .h264MKV:
                return ["-c", "copy"]
            case .h264MTS:
                return ["-c", "copy", "-f", "mpegts"]
            case .interlacedH264:
                return ["-c:v", "libx264", "-preset", "veryfast", "-flags", "+ildct+ilme", "-x264opts", "tff=1", "-field_order", "tt",
                        "-c:a", "copy"]
            }
        }
    }

    /// Why a fixture could not be made here (no ffmpeg CLI, or an encoder it lacks).
    public struct Unavailable: Error, CustomStringConvertible {
        /// What is missing.
        public let description: String
    }

    // MARK: - Making and caching fixtures

    /// The fixture file for `spec` in `variant`, made on first use and cached for the rest of the test run.
    /// Throws `Unavailable` when the ffmpeg CLI or an encoder the variant needs is missing.
    public static func movie(_ spec: Spec = Spec(), _ variant: Variant = .plain) throws -> URL {
        let name = "\(spec)-\(variant)." + fileExtension(variant)
        // One fixture is made at a time (the machine is small and a variant needs its plain file first);
        // the lock is recursive so making a variant may make the plain movie.
        store.lock.lock()
        defer { store.lock.unlock() }
        if let url = store.files[name] { return url }
        let url = store.folder.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try make(spec, variant, at: url)
        store.files[name] = url
        return url
    }

    /// The extension of a variant's file.
    private static func fileExtension(_ variant: Variant) -> String {
        if case .encoded(let codec) = variant { return codec.fileExtension }
        return "mp4"
    }

    /// The shared fixture folder and the files made in it this run.
    private final class Store: @unchecked Sendable {
        // @unchecked: `files` is only touched while `lock` is held.
        let lock = NSRecursiveLock()
        var files: [String: URL] = [:]
        let folder: URL
        init() {
            folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("mm-video-fixtures-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The folder lives for the test run: removed when the process exits.
            atexit { VideoFixtures.removeFolder() }
        }
    }
    private static let store = Store()
    /// Removes the fixture folder (at exit).
    private static func removeFolder() { try? FileManager.default.removeItem(at: store.folder) }

    /// Writes one fixture file.
    private static func make(_ spec: Spec, _ variant: Variant, at url: URL) throws {
        switch variant {
        case .plain:
            try render(spec, to: url)
        case .empty:
            try Data().write(to: url)
        case .notVideo:
            try Data("These are notes for a film, not a film.\nShot list: 1. harbour at dawn; 2. the bridge.\n".utf8).write(to: url)
        case .mirrored, .transposed:
            var bytes = [UInt8](try Data(contentsOf: try movie(spec)))
            let patched = try mirrorDisplayMatrix(&bytes, transposing: variant == .transposed)
            guard patched == 1 else { throw Unavailable(description: "found \(patched) video tkhd boxes to mirror, expected 1") }
            try Data(bytes).write(to: url)
        case .truncated:
            let data = try Data(contentsOf: try movie(spec))
            try data.prefix(data.count * 6 / 10).write(to: url)
        default:
            try requireFFmpeg()
            let plain = try movie(spec).path
            switch variant {
            case .variableFrameRate:
                let period = spec.rate.frameDuration.seconds
                // setpts sees every source frame (N is its index); select then drops some (n is still the index).
                let drops = variableFrameRateDropExpression(frameCount: spec.frameCount)
                let filter = "setpts='PTS+\(0.18 * period)*sin(N*1.7)/TB',select='not(\(drops))'"
                try ffmpeg(["-i", plain, "-map", "0", "-vf", filter, "-fps_mode", "vfr", "-enc_time_base:v", "1/90000",
                            "-video_track_timescale", "90000", "-c:v", "libx264", "-preset", "veryfast", "-crf", "16",
                            "-g", "\(spec.keyframeInterval)", "-c:a", "copy", url.path])
            case .jittered(let microseconds):
                let filter = "setpts='PTS+\(Double(microseconds) / 1_000_000)*sin(N*1.7)/TB'"
                try ffmpeg(["-i", plain, "-map", "0", "-vf", filter, "-fps_mode", "passthrough", "-enc_time_base:v", "1/90000",
                            "-video_track_timescale", "90000", "-c:v", "libx264", "-preset", "veryfast", "-crf", "16",
                            "-g", "\(spec.keyframeInterval)", "-c:a", "copy", url.path])
            case .rotated(let degrees):
                precondition([90, 180, 270].contains(degrees), "rotations are 90, 180 or 270 degrees clockwise")
                // FFmpeg 5.1 turns the `rotate` tag into a display matrix rotating that many degrees
                // counter-clockwise, so a clockwise rotation is written as its complement.
                try ffmpeg(["-i", plain, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=\((360 - degrees) % 360)", url.path])
            case .audioOffset(let ms):
                guard spec.withSound else { throw Unavailable(description: "an audio offset needs a fixture with sound") }
                try ffmpeg(["-i", plain, "-itsoffset", String(format: "%.3f", Double(ms) / 1000), "-i", plain,
                            "-map", "0:v", "-map", "1:a", "-c", "copy", url.path])
            case .audioOnly:
                guard spec.withSound else { throw Unavailable(description: "an audio-only file needs a fixture with sound") }
                try ffmpeg(["-i", plain, "-map", "0:a", "-c", "copy", url.path])
            case .encoded(let codec):
                let encoders = try availableEncoders()
                for options in codec.neededEncoders where !options.contains(where: encoders.contains) {
                    throw Unavailable(description: "this ffmpeg has no \(options.joined(separator: " or ")) encoder (for \(codec))")
                }
                try ffmpeg(["-i", plain, "-map", "0"] + codec.ffmpegArguments(encoders: encoders) + [url.path])
            default:
                fatalError("handled above")
            }
        }
    }

    /// Draws the frames and the sound with MovieMaker (H.264 veryfast with B-frames, AAC, MP4).
    private static func render(_ spec: Spec, to url: URL) throws {
        let settings = EncoderSettings(crf: 16, preset: .veryfast, keyframeInterval: spec.keyframeInterval, threads: 1, drawingThreads: 1)
        let movie = try MovieMaker(url: url, width: spec.width, height: spec.height, fps: spec.rate, settings: settings)
        if spec.withSound {
            try movie.addAudio(ToneWithClicks(frequency: spec.toneFrequency, clickTimes: spec.clickFrames.map { spec.rate.time(ofFrame: $0) }))
        }
        try movie.addFrames(count: spec.frameCount) { ctx, frame in
            draw(index: frame.index, in: ctx, width: spec.width, height: spec.height)
        }
        try movie.finish()
    }

    /// The fixture file, or the current test skipped (cancelled, with the reason) when this machine
    /// cannot make it (no ffmpeg CLI, or an encoder missing).
    public static func require(_ spec: Spec = Spec(), _ variant: Variant = .plain) throws -> URL {
        do { return try movie(spec, variant) } catch let e as Unavailable { try Test.cancel("skipped: \(e.description)") }
    }

    /// Skips the current test (cancelled, with the reason) when the ffmpeg CLI is not installed.
    public static func skipWithoutFFmpeg() throws {
        if !FFTools.available { try Test.cancel("skipped: the ffmpeg CLI is not installed at \(FFTools.ffmpeg)") }
    }

    /// Throws `Unavailable` unless the ffmpeg CLI is installed.
    public static func requireFFmpeg() throws {
        guard FFTools.available else { throw Unavailable(description: "the ffmpeg CLI is not installed at \(FFTools.ffmpeg)") }
    }

    /// Runs the ffmpeg CLI (quiet, overwriting); throws with its error output on failure.
    static func ffmpeg(_ arguments: [String]) throws {
        let r = try run(FFTools.ffmpeg, ["-nostdin", "-v", "error", "-y"] + arguments)
        guard r.status == 0 else {
            throw FFmpegFailed(description: "ffmpeg \(arguments.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
        }
    }

    /// An ffmpeg CLI run that failed.
    public struct FFmpegFailed: Error, CustomStringConvertible {
        /// The command and its error output.
        public let description: String
    }

    /// The encoder names `ffmpeg -encoders` lists (asked once).
    private static func availableEncoders() throws -> Set<String> {
        store.lock.lock(); defer { store.lock.unlock() }
        if let e = encoderNames { return e }
        let r = try run(FFTools.ffmpeg, ["-hide_banner", "-encoders"])
        let names = Set(r.stdout.split(separator: "\n").compactMap { line -> String? in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            return f.count >= 2 && f[0].count == 6 ? String(f[1]) : nil
        })
        encoderNames = names
        return names
    }
    nonisolated(unsafe) private static var encoderNames: Set<String>?

    // MARK: - The variable-frame-rate variant's timing

    /// The source frames the variable-frame-rate variant drops: every index ≡ 3 (mod 7), and the run 20…23.
    public static func variableFrameRateDrops(frameCount: Int) -> Set<Int> {
        Set((0..<frameCount).filter { $0 % 7 == 3 || (20...23).contains($0) })
    }
    /// The same set as an ffmpeg `select` expression over the input frame number `n`.
    private static func variableFrameRateDropExpression(frameCount: Int) -> String {
        "eq(mod(n\\,7)\\,3)+between(n\\,20\\,23)"
    }
    /// How far (seconds) the variable-frame-rate variant moves source frame `n`'s timestamp (before
    /// rounding to 1/90000 s): 0.18 frame periods × sin(1.7 n).
    public static func variableFrameRateJitter(_ n: Int, rate: FrameRate) -> Double {
        0.18 * rate.frameDuration.seconds * sin(Double(n) * 1.7)
    }

    // MARK: - The MP4 display matrix

    /// Rewrites the display matrix of every video track's `tkhd` (one with a non-zero width) to a
    /// horizontal mirror: x' = width − x. Returns how many it changed.
    static func mirrorDisplayMatrix(_ bytes: inout [UInt8], transposing: Bool = false) throws -> Int {
        func u32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        func put(_ v: Int32, at: Int) { for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> (24 - 8 * k)) } }
        var changed = 0
        // Walk the boxes from `start` to `end`, descending into the containers on the way to tkhd.
        func walk(_ start: Int, _ end: Int) {
            var offset = start
            while offset + 8 <= end {
                var size = Int(u32(offset))
                let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
                var header = 8
                if size == 1 { size = Int(bytes[offset + 8..<offset + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }); header = 16 }
                if size == 0 { size = end - offset }
                guard size >= header, offset + size <= end else { return }
                if type == "moov" || type == "trak" { walk(offset + header, offset + size) }
                if type == "tkhd" {
                    let version = bytes[offset + 8]
                    let matrix = offset + 8 + 4 + (version == 1 ? 32 : 20) + 16
                    let width = Int32(bitPattern: u32(matrix + 36))
                    if width > 0 {
                        // a b u / c d v / x y w, in 16.16 (u, v, w in 2.30): a = −1, d = 1, x = width; transposing,
                        // b = c = 1.
                        let values: [Int32] = transposing ? [0, 65536, 0, 65536, 0, 0, 0, 0, 1 << 30] : [-65536, 0, 0, 0, 65536, 0, width, 0, 1 << 30]
                        for (k, v) in values.enumerated() { put(v, at: matrix + 4 * k) }
                        changed += 1
                    }
                }
                offset += size
            }
        }
        walk(0, bytes.count)
        return changed
    }

    // MARK: - Drawing the frame code

    /// How many code cells a frame shows: start (2), index bits, parity, stop (2).
    public static let codeCells = 16
    /// How many bits of the index the code holds.
    public static let indexBits = 11
    /// The largest index the code holds.
    public static let maximumIndex = (1 << indexBits) - 1

    /// Where the code is drawn in a `width` × `height` fixture frame.
    public static func codeRect(width: Int, height: Int) -> Rect {
        Rect(x: Double(width) / 4, y: Double(height) * 0.3, width: Double(width) / 2, height: Double(height) * 0.4)
    }

    /// The cells for `index`: true is white.
    public static func cells(for index: Int) -> [Bool] {
        precondition((0...maximumIndex).contains(index), "index \(index) does not fit in \(indexBits) bits")
        let bits = (0..<indexBits).map { index >> (indexBits - 1 - $0) & 1 == 1 }
        let parity = bits.filter { $0 }.count % 2 == 1
        return [true, false] + bits + [parity, true, true]
    }

    /// Draws fixture frame `index`: the gradient, the grey field with the code, the red and blue band.
    public static func draw(index: Int, in ctx: DrawingContext, width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        ctx.setFill(Color(white: 128.0 / 255))
        ctx.fillRect(Rect(x: 0, y: 0, width: w, height: h))
        ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: w, y: 0), colors: [Color(white: 0.1), Color(white: 0.9)]))
        ctx.fillRect(Rect(x: 0, y: 0, width: w, height: h * 0.2))
        ctx.setFill(.red)
        ctx.fillRect(Rect(x: 0, y: h * 0.8, width: w / 2, height: h * 0.2))
        ctx.setFill(.blue)
        ctx.fillRect(Rect(x: w / 2, y: h * 0.8, width: w / 2, height: h * 0.2))
        let code = codeRect(width: width, height: height)
        let cell = code.width / Double(codeCells)
        for (k, white) in cells(for: index).enumerated() {
            ctx.setFill(white ? .white : .black)
            ctx.fillRect(Rect(x: code.minX + Double(k) * cell, y: code.minY, width: cell, height: code.height))
        }
    }

    /// Fixture frame `index` drawn in memory (what a lossless decode of the plain fixture would show).
    public static func drawnFrame(index: Int, width: Int = 320, height: Int = 240) throws -> PixelBuffer {
        let canvas = try Canvas(width: width, height: height)
        try canvas.draw { ctx in draw(index: index, in: ctx, width: width, height: height) }
        return canvas.pixels()
    }

    // MARK: - Reading the frame code

    /// A frame code as read from a picture: the index, and how the picture is turned relative to the
    /// drawn fixture (displayed = rotated `rotation`° clockwise after a horizontal mirror if `isMirrored`).
    public struct FrameCode: Hashable, Sendable, CustomStringConvertible {
        /// The frame index the code holds.
        public let index: Int
        /// Clockwise degrees: 0, 90, 180 or 270.
        public let rotation: Int
        /// Whether the picture is mirrored (before the rotation).
        public let isMirrored: Bool
        /// A code for frame `index`, turned `rotation`° clockwise after a mirror if `isMirrored`.
        public init(index: Int, rotation: Int = 0, isMirrored: Bool = false) {
            self.index = index; self.rotation = rotation; self.isMirrored = isMirrored
        }
        /// `#12 rotated 90°`, `#12 mirrored`, `#12`.
        public var description: String {
            "#\(index)" + (rotation == 0 ? "" : " rotated \(rotation)°") + (isMirrored ? " mirrored" : "")
        }
    }

    /// The index an upright fixture frame shows (read left to right across the middle), or nil when no
    /// code reads there: no start and stop marks, an undecided cell (a blend of two frames), a wrong parity.
    public static func frameIndex(of pixels: PixelBuffer) -> Int? {
        decode(profile(pixels, .leftToRight))
    }

    /// The index an upright fixture frame shows, read from an image.
    public static func frameIndex(of image: Image) -> Int? { frameIndex(of: image.pixels()) }

    /// The code read in whichever of the four directions it reads, with the picture's rotation and
    /// mirroring (told apart by where the red and blue band is). Nil unless exactly one direction reads.
    public static func frameCode(of pixels: PixelBuffer) -> FrameCode? {
        var found: [(ReadDirection, Int)] = []
        for d in ReadDirection.allCases { if let i = decode(profile(pixels, d)) { found.append((d, i)) } }
        guard found.count == 1, let (direction, index) = found.first, let band = bandSide(pixels) else { return nil }
        let turn: (Int, Bool)? = switch (direction, band) {
        case (.leftToRight, .bottom): (0, false)
        case (.topToBottom, .left): (90, false)
        case (.rightToLeft, .top): (180, false)
        case (.bottomToTop, .right): (270, false)
        case (.rightToLeft, .bottom): (0, true)
        case (.bottomToTop, .left): (90, true)
        case (.leftToRight, .top): (180, true)
        case (.topToBottom, .right): (270, true)
        default: nil
        }
        return turn.map { FrameCode(index: index, rotation: $0.0, isMirrored: $0.1) }
    }

    /// A direction to read the code in, through the picture's centre.
    enum ReadDirection: CaseIterable { case leftToRight, rightToLeft, topToBottom, bottomToTop }
    /// A side of the picture.
    enum Side: CaseIterable { case top, bottom, left, right }

    /// Mean luma (0.299 R + 0.587 G + 0.114 B, 0…255) along a line through the centre in `direction`,
    /// each sample averaged over ±5 % of the other dimension (within the code band).
    static func profile(_ p: PixelBuffer, _ direction: ReadDirection) -> [Double] {
        precondition(p.bytes.count >= p.width * p.height * 4)
        let alongX = direction == .leftToRight || direction == .rightToLeft
        let count = alongX ? p.width : p.height, across = alongX ? p.height : p.width
        let k = max(1, across / 20), c = across / 2
        guard count > 0, c - k >= 0, c + k < across else { return [] }
        var out = [Double](repeating: 0, count: count)
        p.bytes.withUnsafeBufferPointer { bytes in
            out.withUnsafeMutableBufferPointer { o in
                // Each pixel's luma summed over the band in order, as a reduce from 0.0 would.
                mmt_luma_profile(bytes.baseAddress, Int32(p.width), alongX ? 1 : 0, Int32(count), Int32(c), Int32(k), o.baseAddress)
            }
        }
        if direction == .rightToLeft || direction == .bottomToTop { out.reverse() }
        return out
    }

    /// Decodes the code from a luma profile: finds the grey on both sides of the centre, divides what
    /// lies between into cells, and reads each cell's middle (black < 80, white > 176, else undecided).
    static func decode(_ p: [Double]) -> Int? {
        let n = p.count, centre = n / 2
        guard n >= 32 else { return nil }
        func isGrey(_ v: Double) -> Bool { v >= 96 && v <= 160 }
        let run = max(3, n / 64)
        // The first run of `run` grey samples going left, and going right, from the centre.
        var start: Int?, end: Int?
        var count = 0
        for i in stride(from: centre, through: 0, by: -1) {
            count = isGrey(p[i]) ? count + 1 : 0
            if count == run { start = i + run; break }
        }
        count = 0
        for i in centre..<n {
            count = isGrey(p[i]) ? count + 1 : 0
            if count == run { end = i - run + 1; break }
        }
        guard let start, let end, end > start else { return nil }
        let cell = Double(end - start) / Double(codeCells)
        guard cell >= 2 else { return nil }
        var bits: [Bool] = []
        for k in 0..<codeCells {
            let lo = Int((Double(start) + (Double(k) + 0.3) * cell).rounded())
            let hi = max(lo, Int((Double(start) + (Double(k) + 0.7) * cell).rounded()) - 1)
            let mean = p[lo...hi].reduce(0, +) / Double(hi - lo + 1)
            if mean < 80 { bits.append(false) } else if mean > 176 { bits.append(true) } else { return nil }
        }
        guard bits[0], !bits[1], bits[14], bits[15], bits[2...13].filter({ $0 }).count % 2 == 0 else { return nil }
        return bits[2...12].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
    }

    /// The side showing the red and blue band: the edge strip (10 % deep) with the most saturated colour,
    /// if it is clearly saturated and the others are not.
    static func bandSide(_ p: PixelBuffer) -> Side? {
        func saturation(xs: Range<Int>, ys: Range<Int>) -> Double {
            precondition(xs.lowerBound >= 0 && xs.upperBound <= p.width && ys.lowerBound >= 0 && ys.upperBound <= p.height
                         && p.bytes.count >= p.width * p.height * 4)
            let s = p.bytes.withUnsafeBufferPointer { bytes in
                mmt_saturation_sum(bytes.baseAddress, Int32(p.width), Int32(xs.lowerBound), Int32(xs.upperBound), Int32(ys.lowerBound), Int32(ys.upperBound))
            }
            return Double(s) / Double(max(1, xs.count * ys.count))
        }
        let w = p.width, h = p.height
        let middleX = w / 4..<w * 3 / 4, middleY = h / 4..<h * 3 / 4
        let levels: [(Side, Double)] = [
            (.top, saturation(xs: middleX, ys: h / 20..<h * 3 / 20)),
            (.bottom, saturation(xs: middleX, ys: h * 17 / 20..<h * 19 / 20)),
            (.left, saturation(xs: w / 20..<w * 3 / 20, ys: middleY)),
            (.right, saturation(xs: w * 17 / 20..<w * 19 / 20, ys: middleY)),
        ]
        let sorted = levels.sorted { $0.1 > $1.1 }
        guard sorted[0].1 > 100, sorted[1].1 < 40 else { return nil }
        return sorted[0].0
    }

    // MARK: - The sound

    /// The tone's peak amplitude.
    public static let toneAmplitude: Float = 0.3
    /// The click's frequency (Hz), well above the tone's, so a high-pass filter finds it.
    public static let clickFrequency = 4000.0
    /// How long a click lasts (a Hann-windowed burst).
    public static let clickLength = Time(value: 2, timescale: 1000)
    /// The click's peak amplitude (on top of the tone).
    public static let clickAmplitude: Float = 0.5

    /// The moment a click starting at frame `frame` is loudest (its centre), in seconds of the fixture.
    public static func clickCentre(frame: Int, rate: FrameRate) -> Double {
        rate.seconds(ofFrame: frame) + clickLength.seconds / 2
    }

    /// The fixture's sound: a steady sine (phase 0 at sample 0, as long as asked) plus a 2 ms
    /// Hann-windowed 4 kHz burst starting at each of `clickTimes`.
    public struct ToneWithClicks: AudioSource {
        /// The tone's frequency in Hz.
        public var frequency: Double
        /// When each click starts.
        public var clickTimes: [Time]
        /// Endless: the movie trims it to its own length.
        public var duration: Time? { nil }
        /// A tone of `frequency` with clicks at `clickTimes`.
        public init(frequency: Double = 440, clickTimes: [Time] = []) { self.frequency = frequency; self.clickTimes = clickTimes }
        /// A reader from sample 0.
        public func makeReader(format: AudioFormat) throws -> any AudioReader { Reader(sound: self, format: format) }

        /// Computes each sample from its index (nothing accumulates).
        public final class Reader: AudioReader {
            /// The format asked for.
            public let format: AudioFormat
            let frequency: Double
            let clickStarts: [Int64]
            let click: [Float]
            var position: Int64 = 0
            /// A reader of `sound` in `format`.
            init(sound: ToneWithClicks, format: AudioFormat) {
                self.format = format
                frequency = sound.frequency
                clickStarts = sound.clickTimes.map { format.frame(at: $0) }.sorted()
                let n = Int(format.frame(at: VideoFixtures.clickLength))
                click = (0..<n).map { i in
                    let window = 0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(n))
                    return VideoFixtures.clickAmplitude * Float(window * sin(2 * Double.pi * VideoFixtures.clickFrequency * Double(i) / Double(format.sampleRate)))
                }
            }
            /// Writes the next `frameCount` frames, the same on every channel.
            public func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
                let channels = format.channelCount, rate = Double(format.sampleRate)
                for i in 0..<frameCount {
                    let n = position + Int64(i)
                    var v = VideoFixtures.toneAmplitude * Float(sin(2 * Double.pi * frequency * Double(n) / rate))
                    for s in clickStarts where n >= s && n < s + Int64(click.count) { v += click[Int(n - s)] }
                    for c in 0..<channels { buffer[i * channels + c] = v }
                }
                position += Int64(frameCount)
            }
        }
    }

    /// A second difference of `x` (a high-pass: −25 dB at 440 Hz relative to 4 kHz … per stage, applied twice).
    public static func highPassed(_ x: [Float]) -> [Float] {
        guard x.count >= 3 else { return [] }
        var out = [Float](repeating: 0, count: x.count)
        for i in 1..<(x.count - 1) { out[i] = x[i + 1] - 2 * x[i] + x[i - 1] }
        return out
    }

    /// The centres (seconds from sample 0) of the clicks in `samples`: peaks of the high-passed
    /// sound's energy above half the loudest one's (at least `floor`), at least 20 ms apart, each
    /// refined to the energy's centroid over ±2 ms.
    public static func clickCentres(in samples: [Float], rate: Int, floor: Float = 0.02) -> [Double] {
        let hp = highPassed(samples)
        let energy = hp.map { $0 * $0 }
        guard let loudest = hp.map(abs).max(), loudest > floor else { return [] }
        let threshold = loudest / 2
        let gap = rate / 50, half = rate / 500
        var centres: [Double] = []
        var i = 0
        while i < hp.count {
            guard abs(hp[i]) >= threshold else { i += 1; continue }
            // The loudest sample within the next 5 ms, then the energy centroid around it.
            let window = i..<min(hp.count, i + rate / 200)
            let peak = window.max { abs(hp[$0]) < abs(hp[$1]) }!
            var sum = 0.0, weighted = 0.0
            for k in max(0, peak - half)..<min(hp.count, peak + half + 1) { sum += Double(energy[k]); weighted += Double(energy[k]) * Double(k) }
            centres.append(weighted / sum / Double(rate))
            i = peak + gap
        }
        return centres
    }

    /// The frequency (Hz) of the strongest sine in `samples[range]` between `f0` / 2.5 and `f0` × 2.5:
    /// the peak of a Hann-windowed spectrum, searched in 1 Hz steps and refined to 0.01 Hz.
    public static func toneFrequency(in samples: [Float], rate: Int, range: Range<Int>, near f0: Double = 440) -> Double {
        let n = range.count
        let window: [Double] = (0..<n).map { (i: Int) -> Double in 0.5 - 0.5 * cos(2 * Double.pi * (Double(i) + 0.5) / Double(n)) }
        let x = zip(samples[range], window).map { Double($0) * $1 }
        // Goertzel: the power of one frequency.
        func power(_ f: Double) -> Double {
            let c = 2 * cos(2 * Double.pi * f / Double(rate))
            return x.withUnsafeBufferPointer { mmt_goertzel_power($0.baseAddress, $0.count, c) }
        }
        var best = f0, bestPower = -1.0
        var f = (f0 / 2.5).rounded()
        while f <= f0 * 2.5 { let p = power(f); if p > bestPower { bestPower = p; best = f }; f += 1 }
        // Golden-section search for the maximum within ±1 Hz of the best step.
        var lo = best - 1, hi = best + 1
        let g = (5.0.squareRoot() - 1) / 2
        var a = hi - g * (hi - lo), b = lo + g * (hi - lo)
        var pa = power(a), pb = power(b)
        while hi - lo > 0.01 {
            if pa > pb { hi = b; b = a; pb = pa; a = hi - g * (hi - lo); pa = power(a) }
            else { lo = a; a = b; pa = pb; b = lo + g * (hi - lo); pb = power(b) }
        }
        return (lo + hi) / 2
    }

    /// How many cents `frequency` is above `reference` (negative: below).
    public static func cents(_ frequency: Double, from reference: Double) -> Double { 1200 * log2(frequency / reference) }

    /// The amplitude of the `frequency` Hz component around each sample: quadrature demodulation with a
    /// moving average over `window` samples centred on it (choose a whole number of periods of every
    /// frequency present, so that they do not leak into each other). Samples within half a window of
    /// either end are 0.
    public static func envelope(of samples: [Float], rate: Int, frequency: Double, window: Int) -> [Double] {
        let n = samples.count
        var i = [Double](repeating: 0, count: n + 1), q = [Double](repeating: 0, count: n + 1)
        let w = 2 * Double.pi * frequency / Double(rate)
        for k in 0..<n {
            i[k + 1] = i[k] + Double(samples[k]) * cos(w * Double(k))
            q[k + 1] = q[k] + Double(samples[k]) * sin(w * Double(k))
        }
        var out = [Double](repeating: 0, count: n)
        let half = window / 2
        guard n > window else { return out }
        for k in half..<(n - (window - half)) {
            let si = i[k - half + window] - i[k - half], sq = q[k - half + window] - q[k - half]
            out[k] = 2 / Double(window) * (si * si + sq * sq).squareRoot()
        }
        return out
    }

    /// The largest magnitude over `range` of the sound high-passed by a fourth difference
    /// (x[k−2] − 4x[k−1] + 6x[k] − 4x[k+1] + x[k+2]: −99 dB at 440 Hz, −81 dB at 750 Hz, −23 dB at
    /// 4 kHz, +24 dB at 24 kHz), and where it is. A steady tone all but vanishes; a cut that jumps
    /// (a click) or bends sharply (a fade of a millisecond) does not.
    public static func highPassedPeak(_ samples: [Float], range: Range<Int>) -> (value: Float, at: Int) {
        let lo = max(2, range.lowerBound), hi = min(samples.count - 2, range.upperBound)
        var best: (Float, Int) = (0, lo)
        guard lo < hi else { return best }
        for k in lo..<hi {
            let v = abs(samples[k - 2] - 4 * samples[k - 1] + 6 * samples[k] - 4 * samples[k + 1] + samples[k + 2])
            if v > best.0 { best = (v, k) }
        }
        return best
    }

    /// One audio crossfade as measured by `measureCrossfade`.
    public struct Crossfade: Sendable, CustomStringConvertible {
        /// Where the outgoing and incoming gains are equal, in seconds from sample 0.
        public var centre: Double
        /// The fade's length, from the incoming gain's rise from 20 % to 80 % (an equal-power fade of
        /// length L rises so in 0.462 L; these points are clear of the fade's ends, where the 2 ms fit
        /// would round its corners).
        public var length: Double
        /// The gains where they are equal (equal power: 0.71; linear: 0.5).
        public var levelAtCentre: Double
        /// The largest |outgoing² + incoming² − 1| while the incoming gain is between 20 % and 80 %.
        public var powerDeviation: Double
        /// `centre 1.0003 s, 20.1 ms, level 0.71, power ±0.02`.
        public var description: String {
            String(format: "centre %.5f s, %.1f ms, level %.2f, power ±%.2f", centre, length * 1000, levelAtCentre, powerDeviation)
        }
    }

    /// Measures the crossfade near sample `cut` from an `outgoing` Hz tone to an `incoming` Hz tone:
    /// each tone's amplitude and phase are fitted where it plays alone (40–60 ms before and after the
    /// cut), then, every 4 samples within ±`search` samples of the cut, both tones' gains are fitted
    /// together by least squares over 2 ms (each gain a straight line there), so neither leaks into the
    /// other while they change. Nil when the gains never cross or never rise to 80 %.
    public static func measureCrossfade(_ x: [Float], rate: Int, cut: Int, outgoing f1: Double, incoming f2: Double,
                                        search: Int? = nil) -> Crossfade? {
        let search = search ?? rate / 25
        let ref0 = rate / 25, ref1 = rate * 3 / 50   // 40 … 60 ms from the cut
        guard cut - ref1 >= 0, cut + ref1 <= x.count, cut - search - rate / 500 >= 0, cut + search + rate / 500 <= x.count else { return nil }
        let w1 = 2 * Double.pi * f1 / Double(rate), w2 = 2 * Double.pi * f2 / Double(rate)
        // Amplitude and phase of one tone over a range: x ≈ p sin(wk) + q cos(wk).
        func tone(_ w: Double, _ r: Range<Int>) -> (p: Double, q: Double) {
            var ss = 0.0, cc = 0.0, sc = 0.0, xs = 0.0, xc = 0.0
            for k in r { let sn = sin(w * Double(k)), cs = cos(w * Double(k)), v = Double(x[k])
                ss += sn * sn; cc += cs * cs; sc += sn * cs; xs += v * sn; xc += v * cs }
            let det = ss * cc - sc * sc
            return ((xs * cc - xc * sc) / det, (xc * ss - xs * sc) / det)
        }
        let a = tone(w1, (cut - ref1)..<(cut - ref0)), b = tone(w2, (cut + ref0)..<(cut + ref1))
        let amplitudeA = (a.p * a.p + a.q * a.q).squareRoot(), amplitudeB = (b.p * b.p + b.q * b.q).squareRoot()
        guard amplitudeA > 1e-4, amplitudeB > 1e-4 else { return nil }
        // The two tones as fitted, at unit gain, over the search range.
        let half = rate / 1000, first = cut - search - half
        let us = (first...(cut + search + half)).map { k in (a.p * sin(w1 * Double(k)) + a.q * cos(w1 * Double(k))) / amplitudeA }
        let vs = (first...(cut + search + half)).map { k in (b.p * sin(w2 * Double(k)) + b.q * cos(w2 * Double(k))) / amplitudeB }
        func u(_ k: Int) -> Double { us[k - first] }
        func v(_ k: Int) -> Double { vs[k - first] }
        var gains: [(n: Int, out: Double, in: Double)] = []
        for n in stride(from: cut - search, through: cut + search, by: 4) {
            // Basis: u, u·d, v, v·d (d in ms from n); normal equations solved by elimination.
            var m = [[Double]](repeating: [Double](repeating: 0, count: 5), count: 4)
            for k in (n - half)...(n + half) {
                let d = Double(k - n) / Double(half)
                let basis = [u(k), u(k) * d, v(k), v(k) * d]
                for i in 0..<4 { for j in 0..<4 { m[i][j] += basis[i] * basis[j] }; m[i][4] += basis[i] * Double(x[k]) }
            }
            for col in 0..<4 {
                let pivot = (col..<4).max { abs(m[$0][col]) < abs(m[$1][col]) }!
                m.swapAt(col, pivot)
                guard abs(m[col][col]) > 1e-12 else { return nil }
                for r in 0..<4 where r != col {
                    let f = m[r][col] / m[col][col]
                    for c in col..<5 { m[r][c] -= f * m[col][c] }
                }
            }
            gains.append((n, m[0][4] / m[0][0], m[2][4] / m[2][2]))
        }
        // Gains relative to each tone's level where it plays alone.
        let g = gains.map { (n: $0.n, out: $0.out / amplitudeA, in: $0.in / amplitudeB) }
        guard let cross = g.indices.dropFirst().first(where: { g[$0].in >= g[$0].out && g[$0 - 1].in < g[$0 - 1].out }) else { return nil }
        let p = g[cross - 1], q = g[cross]
        let f = (p.out - p.in) / ((p.out - p.in) - (q.out - q.in))
        let centre = Double(p.n) + f * Double(q.n - p.n)
        let level = (p.out + f * (q.out - p.out) + p.in + f * (q.in - p.in)) / 2
        // The 20 % and 80 % points of the incoming gain, interpolated.
        func rise(to level: Double) -> Double? {
            guard let i = g.indices.dropFirst().first(where: { g[$0].in >= level && g[$0 - 1].in < level }) else { return nil }
            let s = g[i - 1], t = g[i]
            return Double(s.n) + (level - s.in) / (t.in - s.in) * Double(t.n - s.n)
        }
        guard let t20 = rise(to: 0.2), let t80 = rise(to: 0.8) else { return nil }
        let span = (asin(0.8) - asin(0.2)) / (Double.pi / 2)
        var deviation = 0.0
        for s in g where Double(s.n) >= t20 && Double(s.n) <= t80 {
            let power: Double = s.out * s.out + s.in * s.in
            deviation = max(deviation, abs(power - 1))
        }
        return Crossfade(centre: centre / Double(rate), length: (t80 - t20) / span / Double(rate), levelAtCentre: level, powerDeviation: deviation)
    }

    /// PSNR in dB of the luma (BT.709 weights, as the fixtures are tagged) of two same-sized buffers:
    /// geometry without the chroma interpolation a YUV → RGB conversion chooses (which differs between
    /// converters most at saturated colour edges, as the fixture's red and blue band has).
    public static func lumaPSNR(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var sum = 0.0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            let ya = 0.2126 * Double(a.bytes[i + 2]) + 0.7152 * Double(a.bytes[i + 1]) + 0.0722 * Double(a.bytes[i])
            let yb = 0.2126 * Double(b.bytes[i + 2]) + 0.7152 * Double(b.bytes[i + 1]) + 0.0722 * Double(b.bytes[i])
            sum += (ya - yb) * (ya - yb)
        }
        let mse = sum / Double(a.width * a.height)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    // MARK: - ffmpeg's decode, the second opinion

    /// Every frame of `url` as the ffmpeg CLI decodes it (rotated and mirrored for display unless
    /// `autorotate` is false; no frames duplicated or dropped), as opaque BGRA buffers, after `filter`.
    /// The YUV → RGB conversion is ffmpeg's default unless `swsFlags` name one (e.g.
    /// "bilinear+accurate_rnd+full_chroma_int"), applied by a final `scale` filter.
    public static func ffmpegFrames(_ url: URL, autorotate: Bool = true, filter: String? = nil,
                                    swsFlags: String? = nil) throws -> [PixelBuffer] {
        try requireFFmpeg()
        let out = store.folder.appendingPathComponent("decode-\(UUID().uuidString.prefix(8)).pam")
        defer { try? FileManager.default.removeItem(at: out) }
        var args = autorotate ? [] : ["-noautorotate"]
        args += ["-i", url.path, "-map", "0:v:0", "-fps_mode", "passthrough"]
        // (The global -sws_flags option does not reach the conversion ffmpeg 5.1 inserts itself.)
        let filters = [filter, swsFlags.map { "scale=flags=\($0),format=rgba" }].compactMap { $0 }
        if !filters.isEmpty { args += ["-vf", filters.joined(separator: ",")] }
        try ffmpeg(args + ["-pix_fmt", "rgba", "-c:v", "pam", "-f", "image2pipe", out.path])
        return try parsePAM([UInt8](try Data(contentsOf: out)))
    }

    /// Splits concatenated RGBA PAM images into BGRA pixel buffers.
    static func parsePAM(_ data: [UInt8]) throws -> [PixelBuffer] {
        var frames: [PixelBuffer] = []
        var offset = 0
        while offset < data.count {
            guard let end = findHeaderEnd(data, from: offset) else { throw FFmpegFailed(description: "bad PAM header at byte \(offset)") }
            let header = String(decoding: data[offset..<end], as: UTF8.self)
            var fields: [String: Int] = [:]
            for line in header.split(separator: "\n") {
                let f = line.split(separator: " ")
                if f.count == 2, let v = Int(f[1]) { fields[String(f[0])] = v }
            }
            let headerEnd = end + "ENDHDR\n".utf8.count
            guard let w = fields["WIDTH"], let h = fields["HEIGHT"], fields["DEPTH"] == 4, headerEnd + w * h * 4 <= data.count
            else { throw FFmpegFailed(description: "unexpected PAM header: \(header)") }
            var bgra = [UInt8](repeating: 0, count: w * h * 4)
            data.withUnsafeBufferPointer { source in
                bgra.withUnsafeMutableBufferPointer { mmt_rgba_to_bgra(source.baseAddress! + headerEnd, $0.baseAddress, w * h) }
            }
            frames.append(PixelBuffer(width: w, height: h, bytes: bgra))
            offset = headerEnd + w * h * 4
        }
        return frames
    }

    /// Where "ENDHDR\n" starts at or after `from`.
    private static func findHeaderEnd(_ data: [UInt8], from: Int) -> Int? {
        let marker = Array("ENDHDR\n".utf8)
        var i = from
        while i + marker.count <= data.count && i < from + 256 {
            if data[i] == marker[0] && Array(data[i..<i + marker.count]) == marker { return i }
            i += 1
        }
        return nil
    }

    /// The presentation time (seconds) of every decoded video frame, in display order, from ffprobe.
    public static func ffprobeFrameTimes(_ url: URL) throws -> [Double] {
        try requireFFmpeg()
        let r = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                                          "-of", "csv=p=0", url.path])
        guard r.status == 0 else { throw FFmpegFailed(description: "ffprobe failed: \(r.stderr)") }
        return r.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
    }

    /// The video stream's display-matrix rotation as ffprobe reports it (counter-clockwise degrees, so
    /// −90 is a 90° clockwise turn), or nil without a display matrix.
    public static func ffprobeRotation(_ url: URL) throws -> Double? {
        try requireFFmpeg()
        let r = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=side_data_type,rotation",
                                          "-of", "json", url.path])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let sideData = ((json?["streams"] as? [[String: Any]])?.first?["side_data_list"] as? [[String: Any]]) ?? []
        for d in sideData where (d["side_data_type"] as? String) == "Display Matrix" || d["rotation"] != nil {
            if let r = d["rotation"] as? Double { return r }
            if let r = d["rotation"] as? Int { return Double(r) }
        }
        return nil
    }
}

/// FNV-1a of a string, in hex (short stable names for fixture files).
private func fnv(_ s: String) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return String(h, radix: 16)
}
