import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// HLS straight from the render: the playlist read back by FFmpeg gives the frames of the same movie
/// rendered to MP4 (framemd5, lossless), every segment starts with an IDR frame and lasts the cadence,
/// the sound is segmented with the video, and the folder is written atomically.
@Suite("HLS: playlist and fMP4 segments from the render — frames, IDR cadence, sound, atomic folder")
struct HLSTests {
    /// 3.2 s at 15 fps with a tone: three 1-second segments and a short one.
    static let frames = 48
    static func draw(_ ctx: DrawingContext, _ frame: Frame) {
        ctx.clear(Color(red: 0.1, green: 0.2, blue: 0.3 + 0.5 * frame.time / 3.2))
        ctx.setFill(.white)
        ctx.fillRect(Rect(x: 10 + frame.time * 60, y: 40, width: 40, height: 30))
    }

    static func render(_ maker: MovieMaker) throws {
        try maker.addAudio(FunctionSound.sine(seconds: 4))
        try maker.addFrames(count: frames) { ctx, frame in draw(ctx, frame) }
        try maker.finish()
    }

    /// The MD5 of each decoded video frame, as `ffmpeg -f framemd5` gives them.
    static func frameHashes(_ url: URL) throws -> [String] {
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "framemd5", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Segment `n` of the stream in `hls` with the init segment before it, as a player joining there
    /// reads it: the file, and its video frames as ffprobe decodes them (`key_frame,pict_type`).
    static func segment(_ n: Int, of hls: URL, in folder: TemporaryFolder) throws -> (file: URL, frames: [String]) {
        let joined = folder.file("segment-\(n).mp4")
        let initSegment = try Data(contentsOf: hls.appendingPathComponent("init.mp4"))
        try (initSegment + Data(contentsOf: hls.appendingPathComponent(String(format: "segment-%05d.m4s", n)))).write(to: joined)
        let r = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type", "-of", "csv=p=0", joined.path])
        return (joined, r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    @Test("a lossless HLS render decodes to the MP4 render's frames; segments of 1 s each start with an IDR frame; sound in every segment")
    func stream() throws {
        let folder = try TemporaryFolder()
        var settings = EncoderSettings()
        settings.lossless = true
        let mp4 = folder.file("movie.mp4"), hls = folder.url.appendingPathComponent("stream")
        try Self.render(MovieMaker(url: mp4, width: 160, height: 120, fps: 15, settings: settings))
        let maker = try MovieMaker(hlsIn: hls, width: 160, height: 120, fps: 15, segmentDuration: 1, settings: settings)
        try maker.setChapters([Chapter("Start", at: 0), Chapter("Middle", at: Time(value: 8, timescale: 5))], movieDuration: Time(value: 16, timescale: 5))
        try Self.render(maker)

        let names = try FileManager.default.contentsOfDirectory(atPath: hls.path).sorted()
        #expect(names == ["chapters.vtt", "init.mp4", "playlist.m3u8", "segment-00000.m4s", "segment-00001.m4s", "segment-00002.m4s", "segment-00003.m4s"], "\(names)")
        let playlist = try String(contentsOf: hls.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD") && playlist.contains("#EXT-X-ENDLIST") && playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        let durations = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.map { Double($0.dropFirst(8).split(separator: ",")[0])! }
        #expect(durations.count == 4 && durations.prefix(3).allSatisfy { abs($0 - 1) < 1e-6 } && abs(durations[3] - 0.2) < 1e-6, "\(durations)")

        // The same frames as the MP4 render, bit for bit.
        let reference = try Self.frameHashes(mp4)
        #expect(reference.count == Self.frames)
        #expect(try Self.frameHashes(hls.appendingPathComponent("playlist.m3u8")) == reference)

        // Each segment, with the init segment before it, starts with an IDR frame and holds 15 frames (the last 3) and sound.
        for n in 0..<4 {
            let (joined, frames) = try Self.segment(n, of: hls, in: folder)
            #expect(frames.count == (n < 3 ? 15 : 3), "segment \(n): \(frames.count) frames")
            #expect(frames.first?.hasPrefix("1,I") == true && frames.dropFirst().allSatisfy { $0.hasPrefix("0,") }, "segment \(n): \(frames.prefix(3))")
            #expect(try probeStreams(joined)["audio"]?["codec_name"] as? String == "aac", "segment \(n) carries sound")
        }
        let sound = try decodeAudio(hls.appendingPathComponent("playlist.m3u8"), in: folder)
        let seconds: Double = Double(sound.samples.count) / 48_000
        #expect(abs(seconds - 3.2) < 0.025, "the sound lasts the stream: \(seconds) s")
        let vtt = try String(contentsOf: hls.appendingPathComponent("chapters.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT") && vtt.contains("00:00:01.600 --> 00:00:03.200\nMiddle"))
    }

    @Test("an HEVC HLS stream's segments each decode on their own: 15 frames from an IDR frame (x265's open GOPs reached back into the segment before)")
    func hevcSegmentsAreIndependent() throws {
        let folder = try TemporaryFolder()
        var settings = EncoderSettings(preset: .ultrafast)
        settings.codec = .hevc
        let hls = folder.url.appendingPathComponent("stream")
        try Self.render(MovieMaker(hlsIn: hls, width: 160, height: 120, fps: 15, segmentDuration: 1, settings: settings))
        for n in 0..<4 {
            let frames = try Self.segment(n, of: hls, in: folder).frames
            #expect(frames.count == (n < 3 ? 15 : 3), "segment \(n) decodes on its own to all its frames: \(frames.count)")
            #expect(frames.first?.hasPrefix("1,I") == true, "segment \(n) starts with a keyframe: \(frames.prefix(2))")
        }
        #expect(try Self.frameHashes(hls.appendingPathComponent("playlist.m3u8")).count == Self.frames)
    }

    @Test("lossless HEVC and VP9 decode to exactly the frames lossless H.264 does; AV1 and ProRes, which have no lossless mode here, are refused")
    func losslessInEveryCodecThatHasIt() throws {
        let folder = try TemporaryFolder()
        func render(_ codec: VideoCodec, _ name: String) throws -> URL {
            var settings = EncoderSettings(preset: .ultrafast)
            settings.codec = codec
            settings.lossless = true
            let url = folder.file(name)
            try Self.render(MovieMaker(url: url, width: 160, height: 120, fps: 15, settings: settings))
            return url
        }
        let reference = try Self.frameHashes(render(.h264, "h264.mp4"))
        #expect(reference.count == Self.frames)
        let hevc = try Self.frameHashes(render(.hevc, "hevc.mp4"))
        #expect(hevc == reference, "lossless HEVC: \(zip(hevc, reference).filter { $0 != $1 }.count) of \(reference.count) frames differ")
        let vp9 = try Self.frameHashes(render(.vp9, "vp9.webm"))
        #expect(vp9 == reference, "lossless VP9: \(zip(vp9, reference).filter { $0 != $1 }.count) of \(reference.count) frames differ")
        for (codec, name) in [(VideoCodec.av1, "av1.mp4"), (.proRes4444, "prores.mov")] {
            do {
                _ = try render(codec, name)
                Issue.record("lossless \(codec) was accepted")
            } catch let error as MovieMakerError {
                #expect(error.message.contains("lossless"), "\(error.message)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.file(name).path))
        }
    }

    @Test("an HLS folder replaces an earlier stream atomically, refuses a folder of other files, and leaves nothing when cancelled")
    func folder() throws {
        let folder = try TemporaryFolder()
        let hls = folder.url.appendingPathComponent("stream")
        try Self.render(MovieMaker(hlsIn: hls, width: 64, height: 48, fps: 15, segmentDuration: 2))
        try Self.render(MovieMaker(hlsIn: hls, width: 64, height: 48, fps: 15, segmentDuration: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: hls.path).filter { $0.hasSuffix(".m4s") }.count == 4, "the second stream replaced the first")
        let other = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: other.appendingPathComponent("holiday.jpg"))
        #expect(throws: MovieMakerError.self) { try MovieMaker(hlsIn: other, width: 64, height: 48) }
        #expect(throws: MovieMakerError.self) { try MovieMaker(hlsIn: folder.url.appendingPathComponent("x"), width: 64, height: 48, segmentDuration: 0) }
        let cancelled = try MovieMaker(hlsIn: folder.url.appendingPathComponent("never"), width: 64, height: 48)
        try cancelled.addFrames(count: 5) { ctx, _ in ctx.clear(.black) }
        cancelled.cancel()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["photos", "stream"])
    }

    /// The MD5 of each video packet as stored (no decoding): `ffmpeg -c copy -f framemd5`.
    static func packetHashes(_ url: URL) throws -> [String] {
        let r = try run(FFTools.ffmpeg, ["-v", "error", "-i", url.path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test("assemble --hls: 3 chunks become the segments without re-encoding (packet hashes), with a one-machine HLS render's frames and segments")
    func assembled() throws {
        let folder = try TemporaryFolder()
        try ProceduralSound(duration: 4) { t in 0.3 * sin(2 * .pi * 330 * t) }.writeWAV(to: folder.file("tone.wav"))
        let json = """
            {"version": 1, "output": {"size": "160x120", "fps": 15, "encoder": {"preset": "ultrafast", "lossless": true}},
             "markers": [{"name": "Intro", "at": "0s"}, {"name": "Later", "at": "2s"}],
             "tracks": [{"kind": "video", "items": [{"type": "generator", "name": "gradient", "duration": "3.2s", "params": {"rotation": 90}}]},
                        {"kind": "overlay", "items": [{"type": "title", "text": "Segments", "duration": "2s", "at": "0.5s"}]},
                        {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}]}
            """
        let composition = try Timeline(jsonText: json).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        let job = try DistributedRender(composition: composition, name: "film", hlsSegmentDuration: 1)
        let chunks = folder.url.appendingPathComponent("chunks")
        try FileManager.default.createDirectory(at: chunks, withIntermediateDirectories: true)
        var chunkPackets: [String] = []
        for k in 0..<3 {
            guard case let .rendered(url, frames) = try job.renderChunk(k, of: 3, in: chunks) else { Issue.record("chunk \(k) not rendered"); return }
            #expect(frames.lowerBound % 15 == 0, "chunk \(k) starts on a segment: \(frames)")
            chunkPackets += try Self.packetHashes(url)
        }
        let assembled = folder.url.appendingPathComponent("assembled")
        try job.assemble(from: chunks, toHLS: assembled)
        let single = folder.url.appendingPathComponent("single")
        let movie = try composition.makeMovie(hlsIn: single, segmentDuration: 1)
        try composition.render(into: movie)
        try movie.finish()

        let assembledPlaylist = assembled.appendingPathComponent("playlist.m3u8"), singlePlaylist = single.appendingPathComponent("playlist.m3u8")
        #expect(try Self.packetHashes(assembledPlaylist) == chunkPackets, "the chunks' packets, as they are")
        #expect(try Self.frameHashes(assembledPlaylist) == Self.frameHashes(singlePlaylist), "the one-machine render's frames")
        let extinf = { (url: URL) throws -> [String] in try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#EXTINF") }.map { String($0) } }
        #expect(try extinf(assembledPlaylist) == extinf(singlePlaylist) && extinf(singlePlaylist).count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: assembled.path).sorted() == FileManager.default.contentsOfDirectory(atPath: single.path).sorted())
        #expect(try String(contentsOf: assembled.appendingPathComponent("chapters.vtt"), encoding: .utf8).contains("Later"))
        #expect(try probeStreams(assembledPlaylist)["audio"]?["codec_name"] as? String == "aac")

        // Chunks rendered without a segment cannot become HLS.
        let plain = try DistributedRender(composition: composition, name: "film")
        #expect(throws: MovieMakerError.self) { try plain.assemble(from: chunks, toHLS: folder.url.appendingPathComponent("nope")) }
    }
}
