import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Renders split into chunks and assembled: equal to a single render (bit-exact in lossless mode; same
/// frames, timestamps and sound, and no seam, in lossy mode); chunks skipped when complete, re-rendered
/// when damaged; missing chunks named; other movies' chunks ignored. Movies are decoded, never trusted.
@Suite("Distributed renders")
struct DistributedRenderTests {
    /// A 7.2 s, 15 fps, 320×240 description: a turning gradient under 300 pieces of confetti, a title in
    /// the middle (across the chunk joins), and a tone as music. Busy everywhere, so every frame costs bits.
    static func spec(lossless: Bool, preset: String = "ultrafast") -> String {
        """
        {"version": 1, "output": {"size": "320x240", "fps": 15, "encoder": {"preset": "\(preset)"\(lossless ? ", \"lossless\": true" : "")}},
         "tracks": [
           {"kind": "video", "items": [{"type": "generator", "name": "gradient", "duration": "7.2s", "params": {"rotation": 90}}]},
           {"kind": "overlay", "items": [{"type": "generator", "name": "confetti", "duration": "7.2s", "params": {"count": 300, "seed": 3}},
                                         {"type": "title", "text": "Chunked", "duration": "3s", "at": "2s"}]},
           {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}]}
        """
    }

    /// The folder holding `tone.wav` (a 440 Hz tone with a 3 Hz tremolo, made here, 8 s).
    static func mediaFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let tone = ProceduralSound(duration: 8) { t in 0.4 * sin(2 * .pi * 440 * t) * (0.6 + 0.4 * sin(2 * .pi * 3 * t)) }
        try tone.writeWAV(to: folder.file("tone.wav"))
        return folder
    }

    /// The description resolved in `folder`, as a distributed render named `film`.
    static func job(_ json: String, in folder: TemporaryFolder) throws -> (DistributedRender, TimelineComposition) {
        let timeline = try Timeline(jsonText: json)
        let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url))
        return (try DistributedRender(composition: composition, name: "film"), composition)
    }

    /// Every decoded frame's pixels, and presentation times.
    static func frames(_ url: URL) throws -> (pixels: [PixelBuffer], times: [Time]) {
        let decoded = try decodeAll(url)
        return (decoded.map(\.pixels), decoded.map(\.presentationTime))
    }

    /// The whole sound track decoded by MovieMaker's own decoder (interleaved stereo floats).
    static func sound(_ url: URL, seconds: Double) throws -> [Float] {
        let reader = try AudioFile(url: url).makeReader(format: .standard)
        return try AudioInTesting.read(reader, frames: Int(seconds * 48_000))
    }

    /// Every packet of every stream (stream, timestamps, duration, flags, bytes) and every stream's codec
    /// parameters that a muxer writes, one line each, read by MovieMaker's own demuxer.
    static func packetsAndParameters(_ url: URL) throws -> [String] {
        let demuxer = try Demuxer(path: url.path)
        try demuxer.findStreamInfo()
        var lines: [String] = (0..<Int32(demuxer.streamCount)).map { index in
            let p = demuxer.borrowedStream(index).pointee.codecpar.pointee
            let extra = p.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.extradata_size))) } ?? []
            return "stream \(index) codec \(p.codec_id.rawValue) \(p.width)x\(p.height) \(p.sample_rate) Hz \(p.ch_layout.nb_channels) ch order \(p.ch_layout.order.rawValue) bit rate \(p.bit_rate) frame \(p.frame_size) padding \(p.initial_padding) extradata \(extra)"
        }
        while let packet = try demuxer.readPacket(ofStream: nil) {
            let p = packet.pointee
            let bytes = Array(UnsafeBufferPointer(start: p.data, count: Int(p.size)))
            var hash = SHA256()
            hash.update(Data(bytes))
            lines.append("packet \(p.stream_index) pts \(p.pts) dts \(p.dts) duration \(p.duration) flags \(p.flags) \(hash.hexDigest())")
        }
        return lines
    }

    @Test("lossless: 1, 3 and 7 chunks assembled decode to the single render's frames, timestamps and sound, every one")
    func losslessChunksAreBitExact() throws {
        let folder = try Self.mediaFolder()
        let (job, composition) = try Self.job(Self.spec(lossless: true), in: folder)
        #expect(job.settings.lossless && job.frameCount == 108)
        let single = folder.file("single.mp4")
        try composition.render(to: single)
        let reference = try Self.frames(single)
        let referenceSound = try Self.sound(single, seconds: 7.2)
        #expect(reference.pixels.count == 108)
        for n in [1, 3, 7] {
            let chunks = folder.file("chunks-\(n)")
            try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
            for k in 0..<n {
                let outcome = try job.renderChunk(k, of: n, in: chunks)
                guard case .rendered = outcome else { Issue.record("chunk \(k)/\(n): \(outcome)"); continue }
            }
            let joined = folder.file("joined-\(n).mp4")
            let summary = try job.assemble(from: chunks, to: joined)
            #expect(summary.frameCount == 108)
            let got = try Self.frames(joined)
            #expect(got.times == reference.times, "\(n) chunks: timestamps")
            let different = zip(got.pixels, reference.pixels).enumerated().filter { $0.element.0.bytes != $0.element.1.bytes }.map(\.offset)
            #expect(got.pixels.count == 108 && different.isEmpty, "\(n) chunks: frames \(different.prefix(10)) differ")
            #expect(try Self.sound(joined, seconds: 7.2) == referenceSound, "\(n) chunks: the sound track's samples")
            if FFTools.available {
                // A second decoder's opinion: ffmpeg's per-frame MD5 of the decoded YUV.
                let a = try run(FFTools.ffmpeg, ["-v", "error", "-i", single.path, "-map", "0:v", "-f", "framemd5", "-"])
                let b = try run(FFTools.ffmpeg, ["-v", "error", "-i", joined.path, "-map", "0:v", "-f", "framemd5", "-"])
                let hashes = { (s: String) in s.split(separator: "\n").filter { !$0.hasPrefix("#") } }
                #expect(hashes(a.stdout).count == 108 && hashes(a.stdout) == hashes(b.stdout), "\(n) chunks: ffmpeg framemd5 differs")
            }
        }
    }

    @Test("lossy: chunks keep the frame count, timestamps and sound; no join falls 0.5 dB below the movie's PSNR")
    func lossyChunksHaveNoSeams() throws {
        let folder = try Self.mediaFolder()
        let (job, composition) = try Self.job(Self.spec(lossless: false, preset: "veryfast"), in: folder)
        let (losslessJob, losslessComposition) = try Self.job(Self.spec(lossless: true, preset: "veryfast"), in: folder)
        #expect(losslessJob.identity != job.identity, "lossless chunks are other chunks")
        let single = folder.file("single.mp4"), source = folder.file("source.mp4")
        try composition.render(to: single)
        try losslessComposition.render(to: source)   // the drawn frames, exactly: the PSNR reference
        let chunks = folder.file("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
        for k in 0..<4 { try job.renderChunk(k, of: 4, in: chunks) }
        let joined = folder.file("joined.mp4")
        try job.assemble(from: chunks, to: joined)

        let reference = try Self.frames(source), one = try Self.frames(single), four = try Self.frames(joined)
        #expect(four.pixels.count == 108 && four.times == one.times)
        // Packets come in decode order, which B-frame choices change; the set of presentation times may not.
        #expect(try FFTools.available ? FFTools.packetTimes(joined).sorted() == FFTools.packetTimes(single).sorted() : true)
        #expect(try Self.sound(joined, seconds: 7.2) == Self.sound(single, seconds: 7.2))
        // Mean squared error per frame against the drawn frames; PSNR of a set of frames from its mean MSE.
        func mse(_ a: PixelBuffer, _ b: PixelBuffer) -> Double { pow(10, -psnr(a, b) / 10) * 255 * 255 }
        func psnrOf(_ errors: [Double]) -> Double { 10 * log10(255 * 255 / (errors.reduce(0, +) / Double(errors.count))) }
        let errors = zip(four.pixels, reference.pixels).map { mse($0, $1) }
        let average = psnrOf(errors)
        let plan = try job.plan(chunks: 4)
        let singleErrors = zip(one.pixels, reference.pixels).map { mse($0, $1) }
        // The single render's own frame pairs: x264 gives its keyframes more bits (ipratio), so pairs
        // around them stand above the average; a join (an IDR) may do the same, never more.
        let singlePeak = zip(singleErrors, singleErrors.dropFirst()).map { psnrOf([$0, $1]) }.max() ?? 0
        for join in plan.ranges.dropFirst().map(\.lowerBound) {
            let atJoin = psnrOf([errors[join - 1], errors[join]])
            #expect(atJoin >= average - 0.5, "join at frame \(join): \(atJoin) dB, below the movie's \(average) dB: a seam")
            #expect(atJoin <= singlePeak + 0.5, "join at frame \(join): \(atJoin) dB, a jump above any of the single render's own keyframes (\(singlePeak) dB)")
        }
        let singleAverage = psnrOf(singleErrors)
        #expect(abs(average - singleAverage) <= 0.5, "chunked \(average) dB, single \(singleAverage) dB")
    }

    @Test("a complete chunk is skipped; a damaged one is rendered again; a killed render leaves nothing under a chunk's name")
    func chunksAreSkippedWhenComplete() throws {
        let folder = try Self.mediaFolder()
        let (job, _) = try Self.job(Self.spec(lossless: false), in: folder)
        let chunks = folder.url
        let first = try job.renderChunk(1, of: 3, in: chunks)
        guard case let .rendered(url, frames) = first else { Issue.record("\(first)"); return }
        #expect(frames == 36..<72 && url == job.chunkURL(frames: 36..<72, in: chunks))
        #expect(url.lastPathComponent.hasPrefix("film.36-72.") && url.lastPathComponent.hasSuffix(".mp4"))
        let bytes = try Data(contentsOf: url)
        #expect(try job.renderChunk(1, of: 3, in: chunks) == .alreadyComplete(url, frames: 36..<72))
        // Cut in half (a copy that stopped): not complete, so rendered again, whole.
        try bytes.prefix(bytes.count / 2).write(to: url)
        #expect(try job.renderChunk(1, of: 3, in: chunks) == .rendered(url, frames: 36..<72))
        #expect(try decodeAll(url).count == 36)
        // Cancelled part-way: no file under the chunk's name, no partial file left.
        let token = CancellationToken()
        var seen = 0
        #expect(throws: MovieMakerError.self) {
            try job.renderChunk(2, of: 3, in: chunks, cancellation: token) { p in seen = p.framesAdded; if p.framesAdded >= 5 { token.cancel() } }
        }
        #expect(seen >= 5 && !FileManager.default.fileExists(atPath: job.chunkURL(frames: 72..<108, in: chunks).path))
        #expect(!folder.contents.contains { $0.hasPrefix(".") }, "\(folder.contents)")
        // A chunk index the movie is too short for has nothing to do.
        #expect(try job.renderChunk(8, of: 9, in: chunks) == .nothingToRender(chunk: 8, chunks: 7))
    }

    /// Issue 33, reliability 6: `assemble` joined damaged or swapped chunks without noticing (bytes flipped
    /// inside a chunk, or one chunk's file copied over another's: exit 0, wrong pictures). Each chunk's
    /// record (checksum, size, frames, packets and timestamps) is written with it and checked.
    @Test("a chunk with flipped bytes or another chunk's file in its place is refused at assembly, named, and rendered again when asked")
    func flippedAndSwappedChunksAreRefused() throws {
        let folder = try Self.mediaFolder()
        let (job, _) = try Self.job(Self.spec(lossless: false), in: folder)
        let chunks = folder.file("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        for k in 0..<3 { try job.renderChunk(k, of: 3, in: chunks) }
        let urls = (0..<3).map { job.chunkURL(frames: [0..<36, 36..<72, 72..<108][$0], in: chunks) }
        #expect(urls.allSatisfy { FileManager.default.fileExists(atPath: ChunkRecord.url(for: $0).path) }, "\((try? FileManager.default.contentsOfDirectory(atPath: chunks.path)) ?? [])")
        let movie = folder.file("film.mp4")
        try job.assemble(from: chunks, to: movie)        // intact: joins
        let original = try Data(contentsOf: urls[1])

        // A byte flipped in the middle of chunk 1 (inside a frame's data: the file still opens and decodes).
        var flipped = original
        flipped[flipped.count / 2] ^= 0x5A
        try flipped.write(to: urls[1])
        do {
            try job.assemble(from: chunks, to: folder.file("flipped.mp4"))
            Issue.record("a chunk with a flipped byte was joined")
        } catch let error as MovieMakerError {
            #expect(error.code == .chunkMismatch && error.message.contains(urls[1].lastPathComponent) && error.message.contains("not what was written"), "\(error.message)")
            // The advice is given once (it was "…; render it again; delete it and render that chunk again").
            #expect(error.message.components(separatedBy: "again").count == 2, "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("flipped.mp4").path))
        // Asked again, the worker renders it anew rather than skipping it.
        #expect(try job.renderChunk(1, of: 3, in: chunks) == .rendered(urls[1], frames: 36..<72))

        // Chunk 0's file copied over chunk 2's name (same frame count: 36 frames each).
        try FileManager.default.removeItem(at: urls[2])
        try FileManager.default.copyItem(at: urls[0], to: urls[2])
        do {
            try job.assemble(from: chunks, to: folder.file("swapped.mp4"))
            Issue.record("a chunk swapped for another was joined")
        } catch let error as MovieMakerError {
            #expect(error.code == .chunkMismatch && error.message.contains(urls[2].lastPathComponent), "\(error.message)")
        }
        // Without its record a chunk is not joined either (it cannot be vouched for).
        try FileManager.default.removeItem(at: ChunkRecord.url(for: urls[0]))
        #expect(throws: MovieMakerError.self) { try job.assemble(from: chunks, to: folder.file("unrecorded.mp4")) }
    }

    @Test("assembly names every missing chunk; chunks of other settings or descriptions in the folder are ignored")
    func missingAndForeignChunks() throws {
        let folder = try Self.mediaFolder()
        let (job, _) = try Self.job(Self.spec(lossless: false), in: folder)
        let (other, _) = try Self.job(Self.spec(lossless: false).replacingOccurrences(of: "\"Chunked\"", with: "\"Other\""), in: folder)
        let (lossless, _) = try Self.job(Self.spec(lossless: true), in: folder)
        #expect(other.identity != job.identity && lossless.identity != job.identity)
        let chunks = folder.file("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
        for k in [0, 2] { try job.renderChunk(k, of: 4, in: chunks) }
        for k in 0..<4 { try other.renderChunk(k, of: 4, in: chunks); try lossless.renderChunk(k, of: 4, in: chunks) }
        let out = folder.file("out.mp4")
        do {
            try job.assemble(from: chunks, to: out)
            Issue.record("assembly with chunks 1 and 3 missing should fail")
        } catch let error as MovieMakerError {
            #expect(error.code == .chunksMissing)
            #expect(error.message.contains("chunk 1/4 (frames 27..<54)") && error.message.contains("chunk 3/4 (frames 81..<108)"), "\(error.message)")
            #expect(error.message.contains("8 chunk files there belong to another description or other settings"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path) && !folder.contents.contains { $0.hasPrefix(".") })
        // The other movies' complete chunks were never taken for this one's.
        for k in [1, 3] { try job.renderChunk(k, of: 4, in: chunks) }
        try job.assemble(from: chunks, to: out)
        let frames = try decodeAll(out)
        let expected = try decodeAll(try { let u = folder.file("single.mp4"); try job.assemble(from: chunks, to: u, chunks: 4); return u }())
        #expect(frames.count == 108 && zip(frames, expected).allSatisfy { $0.pixels.bytes == $1.pixels.bytes })
        // Given explicitly, a chunk count whose chunks are not there is reported as such.
        #expect(throws: MovieMakerError.self) { try job.assemble(from: chunks, to: folder.file("three.mp4"), chunks: 3) }
    }

    @Test("a sound track rendered beside the chunks is copied at assembly: the movie is byte for byte the one that encodes its sound, for MP4, MOV and MKV")
    func soundTrackTaskIsCopied() throws {
        let folder = try Self.mediaFolder()
        let (job, composition) = try Self.job(Self.spec(lossless: false), in: folder)
        let single = folder.file("single.mp4")
        try composition.render(to: single)
        let chunks = folder.file("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
        for k in 0..<3 { try job.renderChunk(k, of: 3, in: chunks) }
        guard let url = job.soundTrackURL(in: chunks) else { Issue.record("the movie has music: it has a sound track"); return }
        #expect(url.lastPathComponent.hasPrefix("film.sound.") && url.pathExtension == "m4a")
        #expect(job.soundTrackStatus(in: chunks) == .missing(url))
        var encoded: [String: Data] = [:]
        for ext in ["mp4", "mov", "mkv"] {
            let out = folder.file("encoded.\(ext)")
            try job.assemble(from: chunks, to: out)
            encoded[ext] = try Data(contentsOf: out)
        }
        #expect(try job.renderSoundTrack(in: chunks) == .rendered(url))
        #expect(job.soundTrackStatus(in: chunks) == .complete(url))
        #expect(try job.renderSoundTrack(in: chunks) == .alreadyComplete(url))
        #expect(job.chunks(in: chunks).ignored == 0, "the sound track file is not taken for another movie's chunk")
        for ext in ["mp4", "mov", "mkv"] {
            let out = folder.file("copied.\(ext)")
            try job.assemble(from: chunks, to: out)
            let bytes = try Data(contentsOf: out)
            if ext == "mkv" {
                // Matroska files carry a random segment UID, so two assemblies never match byte for byte:
                // every packet and the sound stream's parameters are compared instead.
                let encodedFile = folder.file("encoded-again.mkv")
                try encoded[ext]!.write(to: encodedFile)
                #expect(try Self.packetsAndParameters(out) == Self.packetsAndParameters(encodedFile), "mkv: packets or parameters differ")
            } else {
                #expect(bytes == encoded[ext], "\(ext): \(bytes.count) bytes copied, \(encoded[ext]?.count ?? 0) encoded; first difference at \(zip(bytes, encoded[ext] ?? Data()).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
            }
        }
        // And both are the single render's sound, sample for sample.
        #expect(try Self.sound(folder.file("copied.mp4"), seconds: 7.2) == Self.sound(single, seconds: 7.2))
        #expect(try decodeAll(folder.file("copied.mp4")).count == 108)
    }

    @Test("a damaged sound track file is not used (assembly encodes the sound and leaves the file); a cancelled one leaves nothing; other sound settings name another file; a silent movie has none")
    func soundTrackTaskFailures() throws {
        let folder = try Self.mediaFolder()
        let (job, composition) = try Self.job(Self.spec(lossless: false), in: folder)
        let chunks = folder.file("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
        // Cancelled before it starts: no file, no partial file.
        let token = CancellationToken()
        token.cancel()
        #expect(throws: MovieMakerError.cancelled) { try job.renderSoundTrack(in: chunks, cancellation: token) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: chunks.path).isEmpty)
        for k in 0..<2 { try job.renderChunk(k, of: 2, in: chunks) }
        guard case let .rendered(url) = try job.renderSoundTrack(in: chunks) else { Issue.record("not rendered"); return }
        // Cut short (a copy that stopped): unusable, and assembly renders the sound itself, still exact.
        let bytes = try Data(contentsOf: url)
        let cut = bytes.prefix(bytes.count * 2 / 3)
        try cut.write(to: url)
        guard case let .unusable(unusable, reason) = job.soundTrackStatus(in: chunks) else {
            Issue.record("a cut sound track file: \(job.soundTrackStatus(in: chunks))"); return
        }
        #expect(unusable == url && !reason.isEmpty)
        let out = folder.file("out.mp4"), single = folder.file("single.mp4")
        try job.assemble(from: chunks, to: out)
        try composition.render(to: single)
        #expect(try Self.sound(out, seconds: 7.2) == Self.sound(single, seconds: 7.2))
        #expect(try Data(contentsOf: url) == cut, "the unusable file is left as it was")
        // Rendering again replaces the damaged file with a complete one.
        #expect(try job.renderSoundTrack(in: chunks) == .rendered(url))
        #expect(job.soundTrackStatus(in: chunks) == .complete(url))
        // Another bit rate, or another movie: another file.
        let (other, _) = try Self.job(Self.spec(lossless: false).replacingOccurrences(of: "\"fps\": 15,", with: "\"fps\": 15, \"audio\": {\"bitrate\": 96000},"), in: folder)
        #expect(other.audioSettings?.bitRate == 96_000 && other.soundTrackURL(in: chunks) != url)
        guard let otherURL = other.soundTrackURL(in: chunks) else { Issue.record("no sound track"); return }
        #expect(other.soundTrackStatus(in: chunks) == .missing(otherURL))
        let silent = try DistributedRender(clip: Clip(duration: 1) { ctx, _ in ctx.clear(.black) }, width: 320, height: 240, rate: 15,
                                           name: "quiet", identity: "v1")
        #expect(silent.soundTrackURL(in: chunks) == nil && silent.soundTrackStatus(in: chunks) == .silent)
        #expect(try silent.renderSoundTrack(in: chunks) == .silent)
    }

    @Test("a frame's pixels do not depend on the number of drawing threads: 1 and 3 threads give the same lossless chunk")
    func drawingThreadsDoNotChangePixels() throws {
        let folder = try Self.mediaFolder()
        let timeline = try Timeline(jsonText: Self.spec(lossless: true))
        var movies: [[PixelBuffer]] = []
        for threads in [1, 3] {
            let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url, drawingThreads: threads))
            let job = try DistributedRender(composition: composition, name: "t\(threads)")
            #expect(job.settings.drawingThreads == threads)
            let chunks = folder.file("threads-\(threads)")
            try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: false)
            guard case let .rendered(url, _) = try job.renderChunk(1, of: 2, in: chunks) else { Issue.record("not rendered"); return }
            movies.append(try decodeAll(url).map(\.pixels))
        }
        #expect(movies[0].count == 54 && movies[0].map(\.bytes) == movies[1].map(\.bytes))
    }

    @Test("a clip drawn by a closure needs an identity; frames drawn over the last frame cannot be described at all")
    func closuresNeedAnIdentity() throws {
        let clip = Clip(duration: 2) { ctx, frame in
            ctx.clear(Color(red: frame.time / 2, green: 0.2, blue: 0.4))
        }
        do {
            _ = try DistributedRender(clip: clip, width: 320, height: 240, rate: 30, name: "c")
            Issue.record("a closure without an identity should be refused")
        } catch {
            #expect(error.code == .notEncodable && error.message.contains("identity"), "\(error.message)")
        }
        let folder = try TemporaryFolder()
        let a = try DistributedRender(clip: clip, width: 320, height: 240, rate: 30, name: "c", identity: "v1")
        let b = try DistributedRender(clip: clip, width: 320, height: 240, rate: 30, name: "c", identity: "v2")
        #expect(a.identity != b.identity)
        for k in 0..<2 { try a.renderChunk(k, of: 2, in: folder.url) }
        try a.assemble(from: folder.url, to: folder.file("c.mp4"))
        #expect(try decodeAll(folder.file("c.mp4")).count == 60)
        #expect(throws: MovieMakerError.self) { try DistributedRender(clip: clip, width: 320, height: 240, rate: 30, name: "../c", identity: "v1") }
        // Chunks are joined as H.264: another codec is refused when the render is made, not at assembly.
        var hevc = EncoderSettings()
        hevc.codec = .hevc
        do {
            _ = try DistributedRender(clip: clip, width: 320, height: 240, rate: 30, settings: hevc, name: "c", identity: "v1")
            Issue.record("an HEVC distributed render was accepted")
        } catch {
            #expect(error.code == .invalidSetting && error.message.contains("hevc") && error.message.contains("one machine"), "\(error.message)")
        }
    }

    @Test("an odd-sized render's assembled summary gives the encoded (padded) size, as a single render's does")
    func oddSizeSummary() throws {
        let folder = try TemporaryFolder()
        let job = try DistributedRender(clip: .color(.blue, duration: 0.5), width: 161, height: 121, rate: 10,
                                        settings: EncoderSettings(oddSizePolicy: .pad), name: "odd")
        for k in 0..<2 { try job.renderChunk(k, of: 2, in: folder.url) }
        let summary = try job.assemble(from: folder.url, to: folder.file("odd.mp4"))
        let frames = try decodeAll(folder.file("odd.mp4"))
        #expect(frames.count == 5 && frames[0].pixels.width == 162 && frames[0].pixels.height == 122)
        #expect(summary.width == 162 && summary.height == 122, "\(summary)")
    }
}
