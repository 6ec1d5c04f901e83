import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Self-tests of the video fixtures (Tests/MovieMakerTestSupport/VideoFixtures.swift): the frame code
// reads back, the sound's clicks are where they were put, and every ffmpeg-made variant is what its
// name says. The video-clip tests rely on these.

/// `px` drawn into a `width` × `height` canvas on black by `place` (which sets up the transform and
/// returns the rectangle to draw the picture in).
private func redrawn(_ px: PixelBuffer, width: Int, height: Int, _ place: (DrawingContext) -> Rect) throws -> PixelBuffer {
    let image = try Image(px)
    let canvas = try Canvas(width: width, height: height)
    try canvas.draw { ctx in
        ctx.setFill(.black)
        ctx.fillRect(ctx.bounds)
        let rect = place(ctx)
        ctx.draw(image, in: rect)
    }
    return canvas.pixels()
}

/// `px` turned for display: mirrored horizontally first if `mirrored`, then rotated `degrees` clockwise.
private func turned(_ px: PixelBuffer, degrees: Int, mirrored: Bool) throws -> PixelBuffer {
    let w = Double(px.width), h = Double(px.height)
    let swapped = degrees % 180 != 0
    return try redrawn(px, width: swapped ? px.height : px.width, height: swapped ? px.width : px.height) { ctx in
        switch degrees {
        case 90: ctx.translate(x: h, y: 0); ctx.rotate(by: .pi / 2)
        case 180: ctx.translate(x: w, y: h); ctx.rotate(by: .pi)
        case 270: ctx.translate(x: 0, y: w); ctx.rotate(by: 3 * .pi / 2)
        default: break
        }
        if mirrored { ctx.translate(x: w, y: 0); ctx.scale(x: -1, y: 1) }
        return Rect(x: 0, y: 0, width: w, height: h)
    }
}

/// The fixture's audio decoded by ffmpeg, and the centres of the clicks in it (seconds of the movie).
private func clicks(in url: URL, folder: TemporaryFolder) throws -> [Double] {
    let audio = try decodeAudio(url, in: folder)
    return VideoFixtures.clickCentres(in: audio.samples, rate: audio.rate).map { $0 + audio.start }
}

@Suite("Video fixtures (self-tests)")
struct VideoFixtureTests {
    @Test("Frame code: every index 0…2047 reads back from a drawn frame, and a blend of two frames reads as none")
    func codeRoundTrips() throws {
        for index in 0...VideoFixtures.maximumIndex {
            let px = try VideoFixtures.drawnFrame(index: index, width: 96, height: 72)
            let read = VideoFixtures.frameIndex(of: px)
            if read != index { Issue.record("drawn frame \(index) reads as \(read.map { String($0) } ?? "nothing")"); break }
        }
        // A 50 % cross-fade between frames 5 (…0101) and 10 (…1010) leaves grey cells: no code.
        let a = try VideoFixtures.drawnFrame(index: 5), b = try VideoFixtures.drawnFrame(index: 10)
        let blend = PixelBuffer(width: a.width, height: a.height, bytes: zip(a.bytes, b.bytes).map { UInt8((Int($0) + Int($1)) / 2) })
        #expect(VideoFixtures.frameIndex(of: blend) == nil)
        // A plain grey picture and a black one read as nothing.
        #expect(VideoFixtures.frameIndex(of: PixelBuffer(width: 64, height: 48, bytes: [UInt8](repeating: 128, count: 64 * 48 * 4))) == nil)
        #expect(VideoFixtures.frameIndex(of: PixelBuffer(width: 64, height: 48, bytes: [UInt8](repeating: 0, count: 64 * 48 * 4))) == nil)
    }

    @Test("Frame code: reads after scaling, letterboxing (fit) and cropping (fill) into other sizes")
    func codeSurvivesScaling() throws {
        for index in [0, 1, 682, 1365, 2047] {
            let px = try VideoFixtures.drawnFrame(index: index)
            // Half size; fit into 16:9 (pillarboxed); fill into 3:4 (the sides cropped); fit into 1:1 (letterboxed).
            let half = try redrawn(px, width: 160, height: 120) { _ in Rect(x: 0, y: 0, width: 160, height: 120) }
            let pillar = try redrawn(px, width: 320, height: 180) { _ in Rect(x: 40, y: 0, width: 240, height: 180) }
            let crop = try redrawn(px, width: 240, height: 320) { _ in Rect(x: -93.33, y: 0, width: 426.67, height: 320) }
            let letter = try redrawn(px, width: 200, height: 200) { _ in Rect(x: 0, y: 25, width: 200, height: 150) }
            for (name, p) in [("half size", half), ("fit 16:9", pillar), ("fill 3:4", crop), ("fit 1:1", letter)] {
                #expect(VideoFixtures.frameIndex(of: p) == index, "\(name): frame \(index) reads as \(String(describing: VideoFixtures.frameIndex(of: p)))")
            }
        }
    }

    @Test("Frame code: a rotated or mirrored frame gives its index, rotation and mirroring; the upright reader refuses it")
    func codeTellsOrientation() throws {
        let px = try VideoFixtures.drawnFrame(index: 1234)
        for degrees in [0, 90, 180, 270] {
            for mirrored in [false, true] {
                let p = try turned(px, degrees: degrees, mirrored: mirrored)
                let code = VideoFixtures.frameCode(of: p)
                #expect(code == VideoFixtures.FrameCode(index: 1234, rotation: degrees, isMirrored: mirrored),
                        "turned \(degrees)° \(mirrored ? "mirrored" : ""): read \(code.map(\.description) ?? "nothing")")
                // The upright reader reads only the middle row, so a vertical flip (180° after a mirror)
                // still reads there; `frameCode` tells it apart by the band's side.
                if (degrees != 0 || mirrored) && !(degrees == 180 && mirrored) {
                    #expect(VideoFixtures.frameIndex(of: p) == nil, "the upright reader read a turned frame (\(degrees)°, mirrored \(mirrored))")
                }
            }
        }
    }

    @Test("Plain fixture: every decoded frame shows its own index, at its exact time, at each frame rate",
          arguments: [FrameRate(30), .ntsc, .ntscFilm, .pal, FrameRate(50), FrameRate(60)])
    func plainFixtureDecodes(rate: FrameRate) throws {
        let spec = VideoFixtures.Spec(frameCount: 45, rate: rate)
        let url = try VideoFixtures.movie(spec)
        let frames = try decodeAll(url)
        #expect(frames.count == spec.frameCount)
        var wrong: [String] = []
        for (k, f) in frames.enumerated() {
            let index = VideoFixtures.frameIndex(of: f.pixels)
            if index != k { wrong.append("frame \(k) shows \(index.map { String($0) } ?? "nothing")") }
            if abs(f.presentationTime.seconds - rate.seconds(ofFrame: k)) > 1e-6 {
                wrong.append("frame \(k) at \(f.presentationTime.seconds) s, not \(rate.seconds(ofFrame: k)) s")
            }
        }
        #expect(wrong.isEmpty, "\(rate) fps: \(wrong.prefix(5).joined(separator: "; "))")
        // And the decoded frame is close to the drawn one (the code, gradient and colours all there).
        let drawn = try VideoFixtures.drawnFrame(index: 17)
        let decoded = frames[17].pixels
        #expect(psnr(drawn, decoded) > 35, "decoded frame 17 vs drawn: \(psnr(drawn, decoded)) dB")
    }

    @Test("Plain fixture: long GOP (one keyframe), B-frames, and a mute variant without a sound track")
    func plainFixtureStructure() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let spec = VideoFixtures.Spec(frameCount: 90)
        let url = try VideoFixtures.movie(spec)
        let r = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type", "-of", "csv=p=0", url.path])
        let frames = r.stdout.split(separator: "\n").map { $0.split(separator: ",").map { String($0) } }
        #expect(frames.count == 90)
        #expect(frames.filter { $0.first == "1" }.count == 1, "keyframes: \(frames.filter { $0.first == "1" }.count)")
        #expect(frames.contains { $0.last == "B" }, "no B-frames in the long-GOP fixture")
        let streams = try probeStreams(url)
        #expect(streams["audio"]?["codec_name"] as? String == "aac")
        let mute = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 30, withSound: false))
        #expect(try probeStreams(mute)["audio"] == nil)
    }

    @Test("Sound: the clicks are centred 1 ms after their frames' start (±0.3 ms), and nowhere else")
    func clicksAreWhereTheyWerePut() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        for rate in [FrameRate(30), .ntsc] {
            let spec = VideoFixtures.Spec(frameCount: 90, rate: rate, clickFrames: [5, 23, 41, 77])
            let found = try clicks(in: try VideoFixtures.movie(spec), folder: folder)
            let expected = spec.clickFrames.map { VideoFixtures.clickCentre(frame: $0, rate: rate) }
            try #require(found.count == expected.count, "\(rate) fps: clicks found at \(found), expected at \(expected)")
            for (f, e) in zip(found, expected) {
                #expect(abs(f - e) <= 0.0003, "\(rate) fps: click at \(f) s, expected \(e) s (\((f - e) * 1000) ms)")
            }
        }
        // Without clicks the high-passed tone stays far below the threshold: no click found.
        let quiet = try clicks(in: try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 30)), folder: folder)
        #expect(quiet.isEmpty, "clicks found in the plain tone at \(quiet)")
    }

    @Test("Sound analysis: the decoded tone measures 440 Hz (±0.5 cent) at 0.3; its high-passed floor is 45 dB under it, a hard cut is not")
    func soundAnalysis() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        let audio = try decodeAudio(try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 60)), in: folder)
        let middle = 12_000..<72_000
        let f = VideoFixtures.toneFrequency(in: audio.samples, rate: audio.rate, range: middle)
        #expect(abs(VideoFixtures.cents(f, from: 440)) < 0.5, "measured \(f) Hz")
        let envelope = VideoFixtures.envelope(of: audio.samples, rate: audio.rate, frequency: 440, window: 480)
        let levels = envelope[middle]
        #expect(levels.min()! > 0.3 * 0.97 && levels.max()! < 0.3 * 1.03, "envelope \(levels.min()!)…\(levels.max()!)")
        let floor = VideoFixtures.highPassedPeak(audio.samples, range: middle).value
        let floorDB = 20 * log10(Double(floor) / Double(VideoFixtures.toneAmplitude))
        #expect(floorDB < -45, "high-passed floor \(floorDB) dB under the tone")
        // Splicing the tone about 1/4 period out of phase (as a cut without a crossfade would) is loud.
        var spliced = Array(audio.samples[0..<30_000]) + Array(audio.samples[30_027..<60_000])
        let cut = VideoFixtures.highPassedPeak(spliced, range: 29_000..<31_000).value
        #expect(20 * log10(Double(cut) / Double(VideoFixtures.toneAmplitude)) > -20, "a hard cut measures \(cut)")
        spliced.removeAll()
        // And a 4 ms window separates 500 Hz from 750 Hz (whole periods of both).
        let mix = (0..<48_000).map { n in Float(0.2 * sin(2 * Double.pi * 500 * Double(n) / 48_000) + 0.1 * sin(2 * Double.pi * 750 * Double(n) / 48_000)) }
        let e500 = VideoFixtures.envelope(of: mix, rate: 48_000, frequency: 500, window: 192)[1000..<47_000]
        let e750 = VideoFixtures.envelope(of: mix, rate: 48_000, frequency: 750, window: 192)[1000..<47_000]
        #expect(abs(e500.min()! - 0.2) < 1e-3 && abs(e500.max()! - 0.2) < 1e-3 && abs(e750.min()! - 0.1) < 1e-3 && abs(e750.max()! - 0.1) < 1e-3)
        print("sound analysis: tone \(f) Hz, envelope \(levels.min()!)…\(levels.max()!), high-passed floor \(floorDB) dB, hard cut \(20 * log10(Double(cut) / 0.3)) dB")
    }

    @Test("Crossfade measurement: recovers synthetic equal-power fades (centre ±0.05 ms, length ±0.3 ms), tells linear ones and hard cuts")
    func crossfadeMeasurement() throws {
        let rate = 48_000, cut = 24_000
        /// 500 Hz fading into 750 Hz over `length` s centred on `cut` (phases 0.7 and 2.1), by `curve`.
        func fade(_ length: Double, equalPower: Bool = true) -> [Float] {
            (0..<2 * cut).map { k in
                let x = length > 0 ? min(1, max(0, (Double(k - cut) / Double(rate) + length / 2) / length)) : (k >= cut ? 1 : 0)
                let (g1, g2) = equalPower ? (cos(.pi / 2 * x), sin(.pi / 2 * x)) : (1 - x, x)
                let t = Double(k) / Double(rate)
                return Float(0.3 * g1 * sin(2 * .pi * 500 * t + 0.7) + 0.3 * g2 * sin(2 * .pi * 750 * t + 2.1))
            }
        }
        for length in [0.010, 0.020, 0.030] {
            let m = try #require(VideoFixtures.measureCrossfade(fade(length), rate: rate, cut: cut, outgoing: 500, incoming: 750))
            #expect(abs(m.centre - 0.5) < 0.00005 && abs(m.length - length) < 0.0003 && abs(m.levelAtCentre - 0.7071) < 0.01 && m.powerDeviation < 0.03,
                    "\(length * 1000) ms fade measured as \(m)")
        }
        let linear = try #require(VideoFixtures.measureCrossfade(fade(0.020, equalPower: false), rate: rate, cut: cut, outgoing: 500, incoming: 750))
        #expect(abs(linear.levelAtCentre - 0.5) < 0.02 && linear.powerDeviation > 0.4, "linear fade measured as \(linear)")
        let hard = try #require(VideoFixtures.measureCrossfade(fade(0), rate: rate, cut: cut, outgoing: 500, incoming: 750))
        #expect(hard.length < 0.003, "hard cut measured as \(hard)")
        #expect(VideoFixtures.highPassedPeak(fade(0), range: cut - 100..<cut + 100).value > 0.1)
        #expect(VideoFixtures.highPassedPeak(fade(0.010), range: cut - 1000..<cut + 1000).value < 0.3 * 0.01)
    }

    @Test("VFR variant: timestamps irregular, the dropped frames missing, each kept frame at its jittered time")
    func variableFrameRateVariant() throws {
        let spec = VideoFixtures.Spec(frameCount: 60)
        let url = try VideoFixtures.require(spec, .variableFrameRate)
        let frames = try decodeAll(url)
        let drops = VideoFixtures.variableFrameRateDrops(frameCount: spec.frameCount)
        let kept = (0..<spec.frameCount).filter { !drops.contains($0) }
        let indices = frames.map { VideoFixtures.frameIndex(of: $0.pixels) }
        #expect(indices == kept.map { Optional($0) }, "decoded indices \(indices.map { $0.map { String($0) } ?? "?" })")
        // Each frame at its source time moved by the jitter (setpts rounds it to the plain file's time
        // base, 1/15360 s for MovieMaker's MP4; then to 1/90000 s): within 0.1 ms.
        var late: [String] = []
        for (f, k) in zip(frames, kept) {
            let expected = spec.rate.seconds(ofFrame: k) + VideoFixtures.variableFrameRateJitter(k, rate: spec.rate)
            if abs(f.presentationTime.seconds - expected) > 0.0001 { late.append("#\(k) at \(f.presentationTime.seconds) s, not \(expected) s") }
        }
        #expect(late.isEmpty, "\(late)")
        // Irregular: many different frame durations, the shortest and longest far apart.
        let gaps = zip(frames.dropFirst(), frames).map { ($0.presentationTime - $1.presentationTime).seconds }
        #expect(Set(gaps.map { ($0 * 90_000).rounded() }).count > 10, "frame durations: \(gaps)")
        #expect(gaps.min()! < 0.030 && gaps.max()! > 0.1, "frame durations from \(gaps.min()!) to \(gaps.max()!) s")
        // The stream says it is 30 fps on average (or less) but is not constant: r_frame_rate ≠ avg_frame_rate.
        let stream = try probeStreams(url)["video"]
        #expect(stream?["r_frame_rate"] as? String != stream?["avg_frame_rate"] as? String, "\(String(describing: stream))")
        #expect(try probeStreams(url)["audio"] != nil)
    }

    @Test("Rotated variants: a display matrix turning the picture 90°, 180°, 270° clockwise, which ffmpeg applies",
          arguments: [90, 180, 270])
    func rotatedVariants(degrees: Int) throws {
        let spec = VideoFixtures.Spec(frameCount: 20)
        let url = try VideoFixtures.require(spec, .rotated(degrees))
        // ffprobe gives the matrix's rotation counter-clockwise: −90 for a quarter turn clockwise.
        let rotation = try #require(try VideoFixtures.ffprobeRotation(url), "no display matrix")
        let clockwise = (Int(-rotation.rounded()) % 360 + 360) % 360
        #expect(clockwise == degrees, "ffprobe rotation \(rotation)")
        // The coded frames are the plain ones; ffmpeg's auto-rotated ones read turned by `degrees`.
        let rotated = try VideoFixtures.ffmpegFrames(url)
        let raw = try VideoFixtures.ffmpegFrames(url, autorotate: false)
        #expect(rotated.count == spec.frameCount && raw.count == spec.frameCount)
        for (k, (p, q)) in zip(rotated, raw).enumerated() {
            #expect(VideoFixtures.frameCode(of: p) == VideoFixtures.FrameCode(index: k, rotation: degrees, isMirrored: false),
                    "auto-rotated frame \(k) reads \(VideoFixtures.frameCode(of: p).map(\.description) ?? "nothing")")
            #expect(VideoFixtures.frameIndex(of: q) == k)
        }
        let swapped = degrees != 180
        #expect(rotated.first?.width == (swapped ? 240 : 320) && rotated.first?.height == (swapped ? 320 : 240))
    }

    @Test("Mirrored variant: a display matrix flipping the picture horizontally, which ffmpeg applies")
    func mirroredVariant() throws {
        let spec = VideoFixtures.Spec(frameCount: 20)
        let url = try VideoFixtures.require(spec, .mirrored)
        // The matrix has a negative determinant; ffprobe 5.1 reports it as a rotation of ±180 …
        let matrix = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=displaymatrix",
                                               "-of", "default=nw=1", url.path]).stdout
        #expect(matrix.contains("-65536"), "display matrix: \(matrix)")
        // … and its auto-rotation flips it horizontally only.
        let frames = try VideoFixtures.ffmpegFrames(url)
        #expect(frames.count == spec.frameCount)
        for (k, p) in frames.enumerated() {
            #expect(VideoFixtures.frameCode(of: p) == VideoFixtures.FrameCode(index: k, rotation: 0, isMirrored: true),
                    "auto-rotated frame \(k) reads \(VideoFixtures.frameCode(of: p).map(\.description) ?? "nothing")")
        }
        // Bit for bit the plain file's pictures, mirrored: the same as ffmpeg's hflip of the plain file.
        let flipped = try VideoFixtures.ffmpegFrames(try VideoFixtures.movie(spec), filter: "hflip")
        #expect(psnr(frames[7], flipped[7]) == .infinity)
    }

    @Test("Audio-offset variant: the clicks come 21 ms later than in the plain fixture (±0.5 ms), the pictures unchanged")
    func audioOffsetVariant() throws {
        let folder = try TemporaryFolder()
        let spec = VideoFixtures.Spec(frameCount: 60, clickFrames: [10, 30, 50])
        let url = try VideoFixtures.require(spec, .audioOffset(milliseconds: 21))
        let plain = try clicks(in: try VideoFixtures.movie(spec), folder: folder)
        let offset = try clicks(in: url, folder: folder)
        try #require(offset.count == 3 && plain.count == 3, "clicks: plain \(plain), offset \(offset)")
        for (a, b) in zip(plain, offset) { #expect(abs(b - a - 0.021) <= 0.0005, "click moved by \((b - a) * 1000) ms") }
        let frames = try decodeAll(url)
        #expect(frames.map { VideoFixtures.frameIndex(of: $0.pixels) } == (0..<60).map { Optional($0) })
    }

    @Test("Broken variants: truncated, audio-only, empty and not-video are what they say")
    func brokenVariants() throws {
        let spec = VideoFixtures.Spec(frameCount: 60)
        let plain = try VideoFixtures.movie(spec)
        let truncated = try VideoFixtures.movie(spec, .truncated)
        let plainSize = try FileManager.default.attributesOfItem(atPath: plain.path)[.size] as? Int ?? 0
        let truncatedSize = try FileManager.default.attributesOfItem(atPath: truncated.path)[.size] as? Int ?? 0
        #expect(truncatedSize == plainSize * 6 / 10)
        // Today's MovieReader opens it (moov first) but cannot read all its frames.
        #expect(throws: MovieMakerError.self) { _ = try decodeAll(truncated) }
        #expect(try Data(contentsOf: try VideoFixtures.movie(spec, .empty)).isEmpty)
        #expect(throws: MovieMakerError.self) { _ = try MovieReader(url: try VideoFixtures.movie(spec, .notVideo)) }
        let audioOnly = try VideoFixtures.require(spec, .audioOnly)
        let streams = try probeStreams(audioOnly)
        #expect(streams["video"] == nil && streams["audio"]?["codec_name"] as? String == "aac", "\(streams.keys)")
    }

    @Test("Codec variants: each has the codec it claims, and ffmpeg decodes every frame with its own index",
          arguments: VideoFixtures.Codec.allCases)
    func codecVariants(codec: VideoFixtures.Codec) throws {
        let spec = VideoFixtures.Spec(frameCount: 30)
        let url = try VideoFixtures.require(spec, .encoded(codec))
        let video = try probeStreams(url)["video"]
        #expect(video?["codec_name"] as? String == codec.codecName)
        switch codec {
        case .hevc10MP4, .hevc10MOV: #expect(video?["pix_fmt"] as? String == "yuv420p10le")
        case .hdrHEVC:
            #expect(video?["color_transfer"] as? String == "smpte2084")
            #expect(video?["color_primaries"] as? String == "bt2020")
        case .interlacedH264: #expect(video?["field_order"] as? String == "tt")
        case .h264MTS:
            // MPEG-TS timestamps start at 1.4 s (plus the B-frame delay): a first frame far from 0.
            let start = double(video, "start_time") ?? 0
            #expect(start >= 1.4 && start < 1.6, "MPEG-TS video starts at \(start) s")
        default: break
        }
        let frames = try VideoFixtures.ffmpegFrames(url)
        let indices = frames.map { VideoFixtures.frameIndex(of: $0) }
        #expect(indices == (0..<spec.frameCount).map { Optional($0) }, "\(codec): \(indices.map { $0.map { String($0) } ?? "?" })")
        #expect(try probeStreams(url)["audio"] != nil, "\(codec) lost its sound")
    }
}
