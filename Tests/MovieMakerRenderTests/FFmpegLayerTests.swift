import CFFmpeg
import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The FFmpeg layer (owners, Demuxer, Decoder, Muxer, Encoder) checked on small 320×240 movies that
/// MovieMaker itself writes: every frame drained, seeks landing on the right frame, handles freed,
/// truncated files reported by name, cancellation.
@Suite("FFmpeg layer", .serialized)
struct FFmpegLayerTests {
    /// The grey level frame `index` is filled with: a different level every frame (so a decoded frame
    /// tells which frame it is), starting at 20 and rising by 3.
    static func level(ofFrame index: Int) -> Int { 20 + 3 * index }

    /// Frame `index`: a grey background at `level(ofFrame:)` with a ball moving across it (real motion,
    /// so x264 uses P and B frames).
    static func draw(_ ctx: DrawingContext, _ frame: Frame) {
        let g = UInt8(level(ofFrame: frame.index))
        ctx.setFill(Color(red8: g, green8: g, blue8: g))
        ctx.fillRect(ctx.bounds)
        ctx.setFill(.orange)
        let x = 60 + 200 * frame.progress
        ctx.fillEllipse(in: Rect(x: x - 20, y: 150, width: 40, height: 40))
    }

    /// Renders `frames` frames of `draw` at 30 fps into `name` in a new folder (keep the folder alive
    /// while using the file).
    static func render(_ name: String, frames: Int, settings: EncoderSettings = EncoderSettings()) throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder(name)
        let url = folder.file(name)
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: settings)
        try movie.addFrames(count: frames, draw)
        _ = try movie.finish()
        return (folder, url)
    }

    /// The mean grey of a patch in the top-left corner, away from the ball.
    static func cornerLevel(_ pixels: BGRAFrameConverter.Pixels) -> Double {
        var sum = 0.0
        for y in 10..<30 { for x in 10..<30 { sum += Double(pixels.rgba(x: x, y: y).green) } }
        return sum / 400
    }

    /// Resident memory of this process in bytes (/proc/self/statm's second field, in pages).
    static func residentBytes() throws -> Int {
        let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil)
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Returns freed heap memory to the system (glibc's malloc_trim, which the Glibc module does not
    /// export), so what other code freed does not count as ours.
    static func trimMalloc() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    @Test("CodecDecoder drains every frame of an H.264 movie with B-frames and lookahead")
    func decoderDrainsEveryFrame() throws {
        let frames = 48
        let (folder, url) = try Self.render("drain.mp4", frames: frames)
        defer { withExtendedLifetime(folder) {} }
        // B-frames are there: packets come in decoding order, so their presentation times are not sorted.
        let packetTimes = try MovieReader(url: url).packetTimestamps()
        #expect(packetTimes.count == frames)
        #expect(packetTimes != packetTimes.sorted(), "no B-frames: packets already in presentation order")

        let demuxer = try Demuxer(path: url.path)
        try demuxer.findStreamInfo()
        let index = try #require(demuxer.bestStream(AVMEDIA_TYPE_VIDEO))
        let decoder = try CodecDecoder(stream: demuxer.borrowedStream(index), strict: true)
        let nextPacket = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: index) }
        var times: [Time] = []
        var drained = 0
        while try decoder.receiveFrame(nextPacket: nextPacket) {
            times.append(demuxer.time(ofTimestamp: decoder.frame.pointee.best_effort_timestamp, inStream: index))
            if decoder.inputEnded { drained += 1 }
        }
        #expect(times.count == frames, "decoded \(times.count) of \(frames) frames")
        #expect(times == (0..<frames).map { FrameRate(30).time(ofFrame: $0) }, "presentation order and exact times")
        #expect(drained > 0, "the codec held frames at the end of the input, handed out only by draining")
        #expect(decoder.framesDecoded == frames)
        // Once drained it stays ended.
        #expect(try decoder.receiveFrame(nextPacket: nextPacket) == false)
        #expect(try MovieReader(url: url).decodedFrameCount() == frames)
    }

    @Test("Demuxer seek to a Time lands on the keyframe before it, and decoding from there on the right frame")
    func seekLandsOnTheRightFrame() throws {
        let (folder, url) = try Self.render("seek.mp4", frames: 60, settings: EncoderSettings(keyframeInterval: 12))
        defer { withExtendedLifetime(folder) {} }
        let rate = FrameRate(30)
        let demuxer = try Demuxer(path: url.path)
        try demuxer.findStreamInfo()
        let index = try #require(demuxer.bestStream(AVMEDIA_TYPE_VIDEO))
        for target in [37, 5, 59, 24] {
            let time = rate.time(ofFrame: target)
            try demuxer.seek(to: time, stream: index)
            let first = try #require(try demuxer.readPacket(ofStream: index))
            let landed = demuxer.time(ofTimestamp: first.pointee.pts, inStream: index)
            #expect(first.pointee.flags & AV_PKT_FLAG_KEY != 0, "frame \(target): landed on a packet that is not a keyframe")
            #expect(landed <= time && time - landed < rate.time(ofFrame: 12), "frame \(target): landed at \(landed)")

            // Decoding on from the keyframe (the packet just read first) reaches exactly the target.
            try demuxer.seek(to: time, stream: index)
            let decoder = try CodecDecoder(stream: demuxer.borrowedStream(index), strict: true)
            let targetTimestamp = demuxer.timestamp(of: time, inStream: index)
            let nextPacket = { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: index) }
            var found: Time?
            while try decoder.receiveFrame(nextPacket: nextPacket) {
                let pts = decoder.frame.pointee.best_effort_timestamp
                if pts >= targetTimestamp { found = demuxer.time(ofTimestamp: pts, inStream: index); break }
            }
            #expect(found == time, "frame \(target): first frame at or after the target is at \(String(describing: found))")
        }

        // MovieReader from a time: the first frame lent is the target, by time, index and picture.
        let reader = try MovieReader(url: url)
        var seen: [(index: Int, time: Time, level: Double)] = []
        try reader.withDecodedFrames(from: rate.time(ofFrame: 37)) { view in
            seen.append((view.index, view.presentationTime, Self.cornerLevel(view.pixels)))
            return seen.count < 3
        }
        #expect(seen.map(\.index) == [37, 38, 39])
        #expect(seen.map(\.time) == [37, 38, 39].map { rate.time(ofFrame: $0) })
        for s in seen {
            #expect(abs(s.level - Double(Self.level(ofFrame: s.index))) < 1.5, "frame \(s.index) shows grey \(s.level)")
        }
    }

    @Test("Owners free their handles: 200 open/decode/close cycles of MovieReader keep RSS flat")
    func ownersFreeTheirHandles() throws {
        let (folder, url) = try Self.render("cycles.mp4", frames: 10, settings: EncoderSettings(preset: .ultrafast))
        defer { withExtendedLifetime(folder) {} }
        /// Opens the movie, decodes two frames (decoder, scaler, pooled buffer) and lets everything go.
        func cycle() throws {
            let reader = try MovieReader(url: url)
            var n = 0
            try reader.withDecodedFrames { _ in n += 1; return n < 2 }
            #expect(n == 2)
        }
        // Warm up: libavcodec's static tables, the allocator's arenas.
        for _ in 0..<20 { try cycle() }
        // Measured: about 0.1 MB when every owner frees; leaving out avformat_close_input alone grows it by
        // about 45 MB, avcodec_free_context by 350 MB, av_frame_free by 30 MB. RSS is the whole process's,
        // and suites running at the same time (the description fuzz test renders on two threads) can
        // grow it by tens of MB in a few seconds: a leak grows it in every round of 200 cycles, so the
        // test takes the smallest growth of up to three rounds.
        var growths: [Int] = []
        for _ in 0..<3 {
            Self.trimMalloc()
            let before = try Self.residentBytes()
            for _ in 0..<200 { try cycle() }
            Self.trimMalloc()
            growths.append(try Self.residentBytes() - before)
            if growths.last! < 8 << 20 { break }
        }
        #expect(growths.min()! < 8 << 20, "RSS grew by \(growths.map { "\($0 >> 10) KiB" }) over rounds of 200 cycles")
    }

    @Test("A truncated movie is a typed error naming the file")
    func truncatedFileIsATypedError() throws {
        let (folder, url) = try Self.render("whole.mp4", frames: 60)
        defer { withExtendedLifetime(folder) {} }
        let data = try Data(contentsOf: url)
        for fraction in [0.5, 0.8] {
            let truncated = folder.file("cut-\(Int(fraction * 100)).mp4")
            try data.prefix(Int(Double(data.count) * fraction)).write(to: truncated)
            // The header (moov, written first) is intact: the file opens and the damage shows when reading.
            let reader = try MovieReader(url: truncated)
            #expect(reader.info.width == 320)
            for (what, read) in [("decoding", { () throws -> Void in _ = try reader.decodedFrameCount() }),
                                 ("reading packets", { () throws -> Void in _ = try reader.packetTimestamps() })] {
                do {
                    try read()
                    Issue.record("\(what) \(truncated.lastPathComponent) succeeded")
                } catch let error as MovieMakerError {
                    guard error.code == .movieUnreadable, let path = error.location?.file, let reason = error.reason else {
                        Issue.record("\(what): expected .movieUnreadable, got \(error)"); continue
                    }
                    #expect(path == truncated.path)
                    #expect(reason.hasPrefix("it is truncated: "), "\(what): \(reason)")
                    #expect(error.description.contains(truncated.lastPathComponent), "\(error.description)")
                }
            }
        }
        // Cut inside the header: the file does not even open.
        let stub = folder.file("stub.mp4")
        try data.prefix(100).write(to: stub)
        #expect {
            _ = try MovieReader(url: stub)
        } throws: { error in
            guard let error = error as? MovieMakerError, error.code == .movieUnreadable else { return false }
            return error.location?.file == stub.path
        }
    }

    /// FFmpeg's playlist demuxers open the files a playlist lists, wherever they are (outside the folders
    /// an agent may read, a named pipe): a playlist is refused before any of them is opened.
    @Test("An HLS playlist, a DASH manifest or a concat list given as a video or a sound is refused, naming what it is")
    func playlistsAreRefused() throws {
        let folder = try TemporaryFolder()
        let clip = folder.file("clip.mp4")
        try Clip.color(.red, duration: 0.5).render(to: clip, width: 64, height: 48, fps: 10)
        let lists = [("list.m3u8", "#EXTM3U\n#EXT-X-VERSION:3\n#EXTINF:0.5,\n\(clip.path)\n#EXT-X-ENDLIST\n", "an HLS playlist"),
                     ("list.ffconcat", "ffconcat version 1.0\nfile '\(clip.path)'\n", "an FFmpeg concat list"),
                     ("list.mpd", "<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\"></MPD>\n", "a DASH manifest")]
        for (name, text, kind) in lists {
            let url = folder.file(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            for (what, open) in [("video", { _ = try VideoFile(url: url) }), ("sound", { _ = try AudioFile(url: url) })] as [(String, () throws -> Void)] {
                do {
                    try open()
                    Issue.record("\(name) was opened as a \(what)")
                } catch {
                    #expect("\(error)".contains("playlist of other files") && "\(error)".contains(name), "\(name) (\(kind)) as a \(what): \(error)")
                }
            }
        }
        _ = try VideoFile(url: clip)   // the file it lists is still a video
    }

    @Test("Text saved with a picture's extension is a typed error, not a 0×0 stream")
    func textWithAPictureExtensionIsRefused() throws {
        let folder = try TemporaryFolder()
        for name in ["notes.jpg", "notes.png"] {
            let url = folder.file(name)
            try "hello world\nthese are notes, not a picture\n".write(to: url, atomically: true, encoding: .utf8)
            #expect {
                _ = try MovieReader(url: url)
            } throws: { error in
                guard let error = error as? MovieMakerError, error.code == .movieUnreadable else { return false }
                return error.location?.file == url.path && (error.reason ?? "").contains("no picture size")
            }
        }
    }

    @Test("A recorded clip damaged in the middle still renders whole, reframed too: the damaged packets are skipped, the frames before them are its own")
    func damagedClipRendersWhole() throws {
        let (folder, url) = try Self.render("whole.mp4", frames: 60)
        defer { withExtendedLifetime(folder) {} }
        var data = try Data(contentsOf: url)
        // Garble 4 KiB in the middle of the media data (the header stays whole), as a bad sector would.
        let mdat = try #require(data.firstRange(of: Data("mdat".utf8)))
        let start = mdat.upperBound + (data.count - mdat.upperBound) / 2
        var state: UInt32 = 12345
        for i in start..<min(start + 4096, data.count) {
            state = state &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: state >> 16)
        }
        let damaged = folder.file("damaged.mp4")
        try data.write(to: damaged)
        let out = folder.file("out.mp4")
        try Clip.video(try VideoFile(url: damaged)).render(to: out, width: 320, height: 240, fps: 30)
        var levels: [Double] = []
        try MovieReader(url: out).withDecodedFrames(from: .zero) { view in levels.append(Self.cornerLevel(view.pixels)); return true }
        #expect(levels.count == 60, "the movie has every frame of the clip")
        let early = levels.prefix(10).enumerated().filter { abs($0.element - Double(Self.level(ofFrame: $0.offset))) > 3 }.map(\.offset)
        #expect(early.isEmpty, "frames before the damage show their own picture: \(early)")

        // Reframed (`stitch --reframe 9:16`), the same clip renders whole too: the subject analysis read
        // it strictly and failed the render for every time after the damage.
        SubjectCache.forget(damaged)
        let vertical = folder.file("vertical.mp4")
        try Clip.video(try VideoFile(url: damaged)).reframed(try Reframe(aspect: "9:16")).render(to: vertical, width: 136, height: 240, fps: 30)
        #expect(try decodeAll(vertical).count == 60, "the reframed movie has every frame of the clip")
    }

    /// Damaged AAC often reads as a feature the decoder lacks (AVERROR_PATCHWELCOME) or as an odd error
    /// number, which stopped the whole render with "Not yet implemented in FFmpeg, patches welcome" where
    /// the ffmpeg tool plays on. Such packets are skipped, as invalid data is.
    @Test("a sound whose damaged AAC packets the decoder refuses with other errors than invalid data plays on past them, as ffmpeg does")
    func damagedSoundPlaysOn() throws {
        let folder = try TemporaryFolder()
        let (damaged, oracle) = try DamagedSound.write(in: folder)
        let samples = try AudioInTesting.read(try AudioFile(url: damaged).makeReader(format: .standard), frames: 4 * 48_000)
        func rms(_ range: Range<Double>) -> Double {
            let slice = samples[Int(range.lowerBound * 48_000) * 2..<Int(range.upperBound * 48_000) * 2]
            return (slice.reduce(0) { $0 + Double($1) * Double($1) } / Double(slice.count)).squareRoot()
        }
        #expect(rms(0.2..<1.0) > 0.02, "the sound before the damage: \(rms(0.2..<1.0))")
        #expect(rms(3.0..<3.8) > 0.02, "the sound after the damage (\(oracle)) plays on: \(rms(3.0..<3.8))")
    }

    @Test("Cancelling the token stops MovieReader, CodecDecoder and AudioDecoder with .cancelled")
    func cancellationThrowsCancelled() throws {
        let (folder, url) = try Self.render("cancel.mp4", frames: 30, settings: EncoderSettings(preset: .ultrafast))
        defer { withExtendedLifetime(folder) {} }

        // Cancelled after the third frame: the fourth is never handed over.
        let token = CancellationToken()
        let reader = try MovieReader(url: url, cancellation: token)
        var delivered = 0
        #expect(throws: MovieMakerError.cancelled) {
            try reader.decodeFrames { _ in
                delivered += 1
                if delivered == 3 { token.cancel() }
                return true
            }
        }
        #expect(delivered == 3)
        // Without a token the same file decodes to the end.
        #expect(try MovieReader(url: url).decodedFrameCount() == 30)

        // The CodecDecoder itself, with a token cancelled before the first frame.
        let demuxer = try Demuxer(path: url.path)
        try demuxer.findStreamInfo()
        let index = try #require(demuxer.bestStream(AVMEDIA_TYPE_VIDEO))
        let cancelled = CancellationToken()
        cancelled.cancel()
        let decoder = try CodecDecoder(stream: demuxer.borrowedStream(index), cancellation: cancelled)
        #expect(throws: MovieMakerError.cancelled) {
            _ = try decoder.receiveFrame { () throws(MovieMakerError) -> UnsafeMutablePointer<AVPacket>? in try demuxer.readPacket(ofStream: index) }
        }
        #expect(decoder.framesDecoded == 0)

        // AudioDecoder: reads until the token is cancelled, then throws at its next decoded frame.
        let wav = folder.file("tone.wav")
        try ProceduralSound.tone(frequency: 440, duration: 2).writeWAV(to: wav, sampleFormat: .int16)
        let audioToken = CancellationToken()
        let audio = try AudioDecoder(url: wav, cancellation: audioToken)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 48_000 * 2)
        defer { buffer.deallocate() }
        try audio.read(into: buffer, frameCount: 4_800)
        #expect(audio.position == 4_800)
        #expect((0..<9_600).contains { buffer[$0] != 0 }, "the tone was read")
        audioToken.cancel()
        #expect(throws: MovieMakerError.cancelled) { try audio.read(into: buffer, frameCount: 48_000) }
    }
}

extension FFmpegLayerTests {
    /// A sound whose timestamps jump (packets lost to damage, a join of copied streams) plays the gap as
    /// silence, so what follows stays at its time, read straight through as after a seek (straight
    /// through, it played early by the gap). A gap of 60 ms, three AAC packets a phone dropped, counts
    /// too: sound 45 ms early is noticeably out of sync (ITU-R BT.1359).
    @Test(arguments: [(0.5, 0.79), (0.5, 0.559)])
    func aGapInASoundsTimestampsIsPlayedAsSilence(_ cut: (from: Double, to: Double)) throws {
        guard FFTools.available else { return }
        let folder = try TemporaryFolder()
        let gap = folder.file("gap.mkv")
        // A quiet 440 Hz tone with a loud 1 kHz burst at 1.00 s, in 10 ms frames, some left out with
        // their timestamps kept.
        try AudioInTesting.ffmpeg(["-f", "lavfi", "-i", "aevalsrc='if(between(t,1.0,1.01),0.8*sin(2*PI*1000*t),0.1*sin(2*PI*440*t))':s=48000:d=2:n=480",
                                   "-af", "aselect='not(between(t,\(cut.from),\(cut.to)))'", "-c:a", "pcm_s16le", gap.path])
        func burstStart(_ samples: [Float]) -> Int? {
            (0..<samples.count / 2).first { abs(samples[2 * $0]) > 0.4 }
        }
        let straight = try AudioDecoder(url: gap)
        var samples = [Float](repeating: 0, count: 96_000 * 2)
        try samples.withUnsafeMutableBufferPointer { try straight.read(into: $0.baseAddress!, frameCount: 96_000) }
        let burst = try #require(burstStart(samples), "the burst is heard")
        #expect(abs(burst - 48_000) <= 48, "the burst at 1.00 s, where its timestamp puts it: sample \(burst)")
        let holeStart = Int(cut.from * 48_000) + 500, holeEnd = Int(cut.to * 48_000) - 500
        let hole = samples[(2 * holeStart)..<(2 * holeEnd)]
        #expect(hole.allSatisfy { abs($0) < 0.001 }, "the gap is silent")
        let resumed = Int(cut.to * 48_000) + 2_000
        #expect(samples[(2 * resumed)..<(2 * resumed + 200)].contains { abs($0) > 0.05 }, "the tone resumes after the gap")

        let sought = try AudioDecoder(url: gap)
        try sought.seek(toFrame: 43_200)
        var after = [Float](repeating: 0, count: 9_600 * 2)
        try after.withUnsafeMutableBufferPointer { try sought.read(into: $0.baseAddress!, frameCount: 9_600) }
        let found = burstStart(after)
        #expect(found == burst - 43_200, "a seek finds the burst where reading straight through does: \(String(describing: found))")
    }
}
