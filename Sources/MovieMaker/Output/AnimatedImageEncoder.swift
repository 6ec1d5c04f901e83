internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// Writes an animated image — GIF, APNG or animated WebP — from a movie's frames.
///
/// The frames are kept in a `FrameSpool` as they come (RGB24, RGBA with transparency) and encoded once
/// the movie ends: a GIF's palette is chosen from every frame before the first is written. For a GIF,
/// libavfilter's `palettegen` makes a palette per scene (one scene for the whole movie unless
/// `GIFPalette.perScene`, whose cuts `scdet` finds as the frames come in), then `paletteuse` maps each
/// frame onto its scene's palette with the chosen dithering; `.perFrame` lets one graph make a palette
/// for each frame. APNG frames go to libavcodec's `apng` encoder and muxer as they are; WebP frames to
/// libwebp's own animation encoder (`WebPAnimationWriter`).
///
/// Timing: every output frame is stamped in the movie's frame units and lasts until the next (the
/// last, to the movie's end), so each format's rounding (GIF centiseconds, WebP milliseconds) spreads
/// over the frames and the total stays exact to its unit.
///
/// With `maxFileSize`, a GIF or WebP larger than asked is made again from the spool, lowering the frame
/// rate (every 2nd, 3rd… frame, down to 10 fps), then the size (¾, ½, ⅜, ¼), then the colours (GIF
/// palettes of 128, 64, 32, 16; WebP quality 60, 40, 20) until it fits; `fit` says what was chosen.
/// Each attempt writes `path` again (the partial file `EncodingOutput` moves into place).
final class AnimatedImageEncoder: FrameEncoder {
    let codec: VideoCodec
    /// Where it writes (the partial file), and the file the user asked for, named in errors.
    private let path: String, destination: String
    private let width: Int32, height: Int32
    private let rate: FrameRate
    private let settings: EncoderSettings
    private var image: AnimatedImageSettings { settings.animatedImage }
    let framePixelFormat: AVPixelFormat
    private let spool: FrameSpool
    /// Finds scene cuts for `.perScene` palettes as the frames come in.
    private var sceneDetector: FilterGraph?
    /// The frame the scene detector's output is received into (made once).
    private let detected: OwnedFrame
    /// The first frame of each scene (only `[0]` unless `.perScene`).
    private(set) var sceneStarts: [Int] = [0]
    /// What `maxFileSize` made it at, when the first attempt did not fit.
    private(set) var fit: AnimatedImageFit?
    var audio: AudioEncoder? { nil }

    init(path: String, codec: VideoCodec, width: Int32, height: Int32, rate: FrameRate, settings: EncoderSettings,
         destination: String? = nil) throws(MovieMakerError) {
        precondition(codec.isAnimatedImage, "AnimatedImageEncoder writes GIF, APNG or WebP")
        self.codec = codec; self.path = path; self.destination = destination ?? path
        self.width = width; self.height = height; self.rate = rate; self.settings = settings
        try settings.animatedImage.validate()
        if settings.animatedImage.maxFileSize != nil && codec == .apng {
            throw .invalidSetting(.maxFileSize, value: "for .apng", expected: "a .gif or .webp (an APNG is lossless: write a GIF or WebP to fit a size)")
        }
        // A missing encoder or muxer fails now, before the first frame.
        if codec != .webp {
            _ = try CodecEncoder.find(name: codec.encoderName)
            _ = try Muxer(path: path, formatName: Self.muxerName(codec))
        }
        framePixelFormat = codec.pixelFormat(alpha: settings.transparency)
        spool = try FrameSpool(width: width, height: height, format: framePixelFormat)
        detected = try OwnedFrame()
        if codec == .gif && settings.animatedImage.palette == .perScene {
            sceneDetector = try FilterGraph(input: .video(width: width, height: height, pixelFormat: framePixelFormat,
                                                          timeBase: Self.timeBase(rate), sampleAspectRatio: AVRational(num: 1, den: 1)),
                                            filters: "scdet=threshold=\(Self.sceneThreshold)", output: .video(pixelFormats: []), threads: 1)
        }
    }

    /// scdet's score (0…100, the mean absolute difference from the frame before) from which a frame starts a scene.
    static let sceneThreshold = 10

    /// The muxer that writes `codec` (WebP is written by libwebp itself: its name is for errors).
    private static func muxerName(_ codec: VideoCodec) -> String {
        switch codec {
        case .gif: "gif"
        case .apng: "apng"
        default: "webp"
        }
    }

    /// The time base frames are stamped in: one movie frame.
    private static func timeBase(_ rate: FrameRate) -> AVRational {
        AVRational(num: Int32(rate.denominator), den: Int32(rate.numerator))
    }

    func makeFrame() throws(MovieMakerError) -> OwnedFrame {
        try OwnedFrame(width: width, height: height, format: framePixelFormat)
    }

    func addAudio(codec: AudioCodec, settings: AudioSettings) throws(MovieMakerError) -> AudioEncoder {
        throw .audioUnsupported(container: "an animated image (.\(Self.muxerName(self.codec)))")
    }

    func writeHeader() throws(MovieMakerError) {}

    func setChapters(_ chapters: [Chapter], end: Time) throws(MovieMakerError) {
        throw .invalidSetting(.chapters, value: "\(chapters.count) chapters in a .\(Self.muxerName(codec))", expected: "a .mp4, .mov, .mkv or .webm movie (animated images have no chapters)")
    }

    func setMetadata(_ key: String, _ value: String) {}

    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MovieMakerError) {
        guard let frame else { return }
        try spool.append(frame)
        if let sceneDetector {
            frame.pointee.pts = Int64(spool.count - 1)
            try sceneDetector.send(frame)
            while try sceneDetector.receive(into: detected) == .frame {
                if av_dict_get(detected.pointer.pointee.metadata, "lavfi.scd.time", nil, 0) != nil, detected.pointer.pointee.pts > 0 {
                    sceneStarts.append(Int(detected.pointer.pointee.pts))
                }
            }
        }
    }

    // MARK: Writing

    /// One way of writing the image: every `step`th frame, scaled to `width`×`height`, with `colors`
    /// (a GIF's palette size, a WebP's quality).
    struct Attempt: Equatable {
        var step: Int
        var width: Int32, height: Int32
        var colors: Int
    }

    /// The attempts `maxFileSize` goes through, in order: the movie as asked (a GIF at 50 fps at most,
    /// `gifStep`), then a lower frame rate (down to 10 fps), a smaller picture (down to a quarter), fewer
    /// colours.
    func ladder() -> [Attempt] {
        let fps = Double(rate.numerator) / Double(rate.denominator)
        let base = codec == .gif ? Self.gifStep(fps: fps) : 1
        let first = Attempt(step: base, width: width, height: height, colors: codec == .webp ? image.webpQuality : image.colors)
        guard image.maxFileSize != nil else { return [first] }
        var attempts = [first]
        for step in (base + 1)...max(base + 1, 6) where fps / Double(step) >= 10 - 1e-9 {
            attempts.append(Attempt(step: step, width: width, height: height, colors: first.colors))
        }
        let step = attempts.last!.step
        for (num, den) in [(3, 4), (1, 2), (3, 8), (1, 4)] {
            let w = Int32((Int(width) * num + den / 2) / den), h = Int32((Int(height) * num + den / 2) / den)
            guard min(w, h) >= 16 else { break }
            attempts.append(Attempt(step: step, width: w, height: h, colors: first.colors))
        }
        let size = (attempts.last!.width, attempts.last!.height)
        // A lossless WebP has no quality to lower: the last steps would make the same file again.
        let lower = codec == .webp ? (settings.lossless ? [] : [60, 40, 20]) : [128, 64, 32, 16]
        for colors in lower where colors < first.colors {
            attempts.append(Attempt(step: step, width: size.0, height: size.1, colors: colors))
        }
        return attempts
    }

    /// How many frames a GIF at `fps` keeps one of: at most 50 a second. A GIF's delays are whole
    /// centiseconds, and browsers (and FFmpeg's own reader) play a delay of 1 cs or less as 10 cs: a
    /// 60 fps GIF's delays of 2, 1, 2, 2, 1 cs played 2 s as 5.6 s, and above 100 fps two frames
    /// fell in one centisecond and the muxer refused the file after every frame was drawn.
    static func gifStep(fps: Double) -> Int { max(1, Int((fps / 50 - 1e-9).rounded(.up))) }

    func finish(cancellation: CancellationToken?) throws(MovieMakerError) {
        // The palettes and encoding run after the last frame is drawn, for as long again: Ctrl-C must
        // stop them too, before the file is moved into place.
        if let sceneDetector {
            try sceneDetector.send(nil)
            self.sceneDetector = nil
        }
        guard spool.count > 0 else { throw .noFrames }
        let attempts = ladder()
        if codec == .gif, attempts[0].step > 1 {
            let fps = Double(rate.numerator) / Double(rate.denominator), step = attempts[0].step
            LibraryWarnings.warn("\(destination): a GIF plays at most 50 frames a second (its delays are whole centiseconds, and browsers slow shorter ones): every \(step == 2 ? "2nd" : step == 3 ? "3rd" : "\(step)th") frame of \(String(format: "%g", fps)) fps is kept (\(String(format: "%g", fps / Double(step))) fps); make it at 25 or 30 fps (--fps) to choose for yourself")
        }
        var written = 0
        for (n, attempt) in attempts.enumerated() {
            written = try write(attempt, cancellation: cancellation)
            guard let budget = image.maxFileSize else { return }
            if written <= budget {
                if n > 0 {
                    fit = AnimatedImageFit(frameRate: FrameRate(numerator: rate.numerator, denominator: rate.denominator * attempt.step) ?? rate,
                                           width: Int(attempt.width), height: Int(attempt.height), colors: attempt.colors,
                                           isWebPQuality: codec == .webp, maxFileSize: budget)
                }
                return
            }
        }
        let last = attempts.last!
        throw .invalidSetting(.maxFileSize, value: "\(image.maxFileSize!) bytes",
                              expected: "at least \(written) bytes, the smallest this movie makes as a .\(Self.muxerName(codec)) (every \(last.step) frame\(last.step == 1 ? "" : "s"), \(last.width)×\(last.height), \(codec == .webp ? (settings.lossless ? "lossless" : "quality \(last.colors)") : "\(last.colors) colours")); shorten the movie or make it smaller"
                              + (codec == .webp && settings.lossless ? ", or leave out lossless to let the quality go down" : ""))
    }

    /// Writes the whole image at `path` as `attempt` says; returns its size in bytes.
    private func write(_ attempt: Attempt, cancellation: CancellationToken?) throws(MovieMakerError) -> Int {
        let timeBase = Self.timeBase(rate)
        let frameCount = spool.count
        let picked = Array(stride(from: 0, to: frameCount, by: attempt.step))
        if codec == .webp {
            let writer = try WebPAnimationWriter(width: attempt.width, height: attempt.height, lossless: settings.lossless,
                                                 quality: attempt.colors, plays: image.plays)
            let milliseconds = { (index: Int64) in Int(av_rescale_q(index, timeBase, AVRational(num: 1, den: 1000))) }
            try encodeFrames(picked, attempt: attempt, outputFormat: AV_PIX_FMT_BGRA, total: frameCount, cancellation: cancellation) { (frame) throws(MovieMakerError) in
                try writer.add(frame, at: milliseconds(frame.pointee.pts))
            }
            try writer.finish(endingAt: milliseconds(Int64(frameCount)), writingTo: path, destination: destination)
            return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        // mux.c's order: the output context, the encoder and its stream, open the encoder, the file, the header.
        let muxer = try Muxer(path: path, formatName: Self.muxerName(codec), destination: destination)
        let encoder = try CodecEncoder(codec: try CodecEncoder.find(name: codec.encoderName))
        let stream = try muxer.addStream()
        let outputFormat = codec == .gif ? AV_PIX_FMT_PAL8 : framePixelFormat
        let c = encoder.context
        c.pointee.width = attempt.width
        c.pointee.height = attempt.height
        c.pointee.pix_fmt = outputFormat
        c.pointee.time_base = timeBase
        c.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator * attempt.step))
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // Drawn RGB is sRGB: APNG writes the `sRGB` chunk from these; GIF and WebP have no tags (sRGB
        // is what every viewer assumes).
        c.pointee.color_primaries = AVCOL_PRI_BT709
        c.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
        if muxer.needsGlobalHeader { c.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }
        try encoder.open(options: nil,
                         operation: "avcodec_open2 (\(codec.encoderName) \(attempt.width)×\(attempt.height))")
        try encoder.describe(stream)
        try muxer.openFile()
        let lastPTS = Int64(picked.last!)
        let header = OwnedDictionary()
        switch codec {
        case .gif:
            // GIF counts repeats after the first play (-1: no loop block, play once).
            header.set("loop", image.plays == 0 ? "0" : image.plays == 1 ? "-1" : "\(image.plays - 1)")
            // The last frame lasts to the movie's end, rounded as the others are.
            let centiseconds = { (pts: Int64) in av_rescale_q(pts, timeBase, AVRational(num: 1, den: 100)) }
            header.set("final_delay", "\(max(1, centiseconds(Int64(frameCount)) - centiseconds(lastPTS)))")
        case .apng:
            header.set("plays", "\(image.plays)")
            let last = (Int64(frameCount) - lastPTS) * Int64(rate.denominator)
            header.set("final_delay", "\(last)/\(rate.numerator)")
        default:
            break
        }
        try muxer.writeHeader(options: header, description: Self.muxerName(codec))

        let write = { (packet: UnsafeMutablePointer<AVPacket>) throws(MovieMakerError) in
            try muxer.write(packet, from: timeBase, to: stream)
        }
        try encodeFrames(picked, attempt: attempt, outputFormat: outputFormat, total: frameCount, cancellation: cancellation) { (frame) throws(MovieMakerError) in
            try encoder.encode(frame, write: write)
        }
        try encoder.drain(write: write)
        try muxer.finish()
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Reads `picked` frames from the spool, scales them, maps a GIF's onto its palettes, and hands
    /// each to `encode` stamped with its movie frame (its duration: up to the next picked frame).
    private func encodeFrames(_ picked: [Int], attempt: Attempt, outputFormat: AVPixelFormat, total: Int, cancellation: CancellationToken?,
                              encode: (UnsafeMutablePointer<AVFrame>) throws(MovieMakerError) -> Void) throws(MovieMakerError) {
        let timeBase = Self.timeBase(rate)
        let input = FilterGraph.Input.video(width: width, height: height, pixelFormat: framePixelFormat, timeBase: timeBase,
                                            sampleAspectRatio: AVRational(num: 1, den: 1))
        let scale = attempt.width == width && attempt.height == height ? "" : "scale=\(attempt.width):\(attempt.height):flags=lanczos,"
        let dither = "dither=\(image.dither.filterName)"
        let stats = image.palette == .movingParts ? "diff" : "full"
        let palettegen = "palettegen=max_colors=\(attempt.colors):stats_mode=\(stats):reserve_transparent=0"

        // A GIF's palettes, one per scene, each from every picked frame of its scene.
        var palettes: [OwnedFrame] = []
        if codec == .gif && image.palette != .perFrame {
            for (n, start) in sceneStarts.enumerated() {
                let end = n + 1 < sceneStarts.count ? sceneStarts[n + 1] : total
                let frames = picked.filter { $0 >= start && $0 < end }
                // A scene none of whose frames is picked keeps the scene before's palette (frame 0, which
                // starts the first scene, is always picked).
                guard !frames.isEmpty else { palettes.append(palettes.last!); continue }
                let graph = try FilterGraph(input: input, filters: "\(scale)\(palettegen)", output: .video(pixelFormats: []), threads: 1)
                for index in frames {
                    if cancellation?.isCancelled == true { throw .cancelled }
                    let frame = try spool.frame(index)
                    frame.pointer.pointee.pts = Int64(index)
                    try graph.send(frame.pointer)
                }
                try graph.send(nil)
                let palette = try OwnedFrame()
                guard try graph.receive(into: palette) == .frame else {
                    throw .ffmpeg(operation: "palettegen", code: averrorEOF, message: "libavfilter made no palette")
                }
                palettes.append(palette)
            }
        }

        let graph: FilterGraph
        var paletteInput = false
        switch codec {
        case .gif where image.palette == .perFrame:
            graph = try FilterGraph(input: input, filters: "[in]\(scale)split[a][b];[b]\(palettegen.replacingOccurrences(of: "stats_mode=full", with: "stats_mode=single"))[p];[a][p]paletteuse=\(dither):new=1",
                                    output: .video(pixelFormats: [outputFormat]), threads: 1)
        case .gif:
            let p = palettes[0].pointer.pointee
            let chain = scale.isEmpty ? "[in]" : "[in]\(scale.dropLast())[scaled];[scaled]"
            graph = try FilterGraph(input: input, filters: "\(chain)[palette]paletteuse=\(dither):diff_mode=rectangle:new=1",
                                    output: .video(pixelFormats: [outputFormat]), threads: 1,
                                    secondInput: ("palette", .video(width: p.width, height: p.height, pixelFormat: AVPixelFormat(rawValue: p.format),
                                                                   timeBase: timeBase, sampleAspectRatio: AVRational(num: 1, den: 1))))
            paletteInput = true
        default:
            graph = try FilterGraph(input: input, filters: scale.isEmpty ? "null" : String(scale.dropLast()),
                                    output: .video(pixelFormats: [outputFormat]), threads: 1)
        }

        let out = try OwnedFrame()
        func drain() throws(MovieMakerError) {
            while try graph.receive(into: out) == .frame {
                let f = out.pointer
                f.pointee.pict_type = AV_PICTURE_TYPE_NONE
                f.pointee.color_primaries = AVCOL_PRI_BT709
                f.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
                try encode(f)
            }
        }
        var scene = 0
        for index in picked {
            if cancellation?.isCancelled == true { throw .cancelled }
            let frame = try spool.frame(index)
            frame.pointer.pointee.pts = Int64(index)
            if paletteInput {
                while scene + 1 < sceneStarts.count && sceneStarts[scene + 1] <= index { scene += 1 }
                // The scene's palette, stamped with this frame's time: paletteuse (new=1) pairs them.
                let palette = try OwnedFrame()
                try ffCheck(av_frame_ref(palette.pointer, palettes[scene].pointer), "av_frame_ref (palette)")
                palette.pointer.pointee.pts = Int64(index)
                try graph.sendToSecondInput(palette.pointer)
            }
            try graph.send(frame.pointer)
            try drain()
        }
        if paletteInput { try graph.sendToSecondInput(nil) }
        try graph.send(nil)
        try drain()
    }
}
