import Foundation
import MovieMaker

/// The audio line of `make bench`: a slideshow of a few minutes with a music bed and loudness
/// normalisation, rendered twice on the same photos — without sound, then with it — so that the
/// difference is what the sound track costs: decoding and resampling the music, looping it, the
/// two-pass normalisation (the whole bed is measured once before the first frame), the limiter, AAC
/// encoding and muxing. Target: under 5 % of the render.
struct AudioBenchmark {
    /// Length of the slideshow, in seconds (the workload: 3 minutes).
    var seconds = 180
    /// Frame size and rate of the slideshow: the slideshow line's 1080p30.
    var width = 1920, height = 1080, fps = 30
    /// x264 preset: the slideshow line's `medium`.
    var preset: EncoderPreset = .medium
    /// Where the photos and the music are made once and kept.
    var cache = URL(fileURLWithPath: ".build/bench-audio", isDirectory: true)

    /// One render's figures.
    struct Run: Encodable, Sendable {
        let wallSeconds: Double
        let cpuSeconds: Double
        let frames: Int
    }

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let seconds: Int
        let width: Int
        let height: Int
        let preset: String
        let music: String
        let videoOnly: Run
        let withSound: Run
        /// The same show at 64×36, ultrafast, without sound: video that costs next to nothing.
        let tinyVideoOnly: Run
        /// The same show at 64×36, ultrafast, with the same sound: the difference is the audio path alone.
        let tinyWithSound: Run
        /// Loudness of the normalised sound track before encoding (our BS.1770 meter).
        let loudness: Double
        /// (CPU with sound − CPU without) ÷ CPU with sound, in percent.
        var cpuSharePercent: Double { 100 * (withSound.cpuSeconds - videoOnly.cpuSeconds) / withSound.cpuSeconds }
        /// (wall with sound − wall without) ÷ wall with sound, in percent.
        var wallSharePercent: Double { 100 * (withSound.wallSeconds - videoOnly.wallSeconds) / withSound.wallSeconds }
        /// CPU seconds of the audio path measured where the video is nearly free (64×36 renders).
        var isolatedAudioCPU: Double { tinyWithSound.cpuSeconds - tinyVideoOnly.cpuSeconds }
        /// That cost ÷ CPU of the full-size render with sound, in percent: a second estimate that does
        /// not rest on the difference of two long renders (whose noise is a few CPU seconds).
        var isolatedSharePercent: Double { 100 * isolatedAudioCPU / withSound.cpuSeconds }
        /// Whether both estimates are under the target.
        var passes: Bool { cpuSharePercent < 5 && isolatedSharePercent < 5 }
    }

    /// Twelve landscape "photos" (PNG, 1920×1280: gradients, discs and stripes) made with the library.
    func photos() throws -> [URL] {
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        var urls: [URL] = []
        for i in 0..<12 {
            let url = cache.appendingPathComponent(String(format: "photo-%02d.png", i))
            urls.append(url)
            if FileManager.default.fileExists(atPath: url.path) { continue }
            let canvas = try Canvas(width: 1920, height: 1280)
            try canvas.draw { ctx in
                let hue = Double(i) / 12
                ctx.setFill(.linear(from: .zero, to: Point(x: 1920, y: 1280),
                                    colors: [Color(hue: hue, saturation: 0.6, brightness: 0.9), Color(hue: hue + 0.3, saturation: 0.7, brightness: 0.35)]))
                ctx.fillRect(ctx.bounds)
                var rng = UInt64(i + 1) &* 0x9E37_79B9_7F4A_7C15
                for _ in 0..<40 {
                    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
                    let x = Double(rng % 1920), y = Double((rng >> 16) % 1280), r = Double(20 + (rng >> 32) % 180)
                    ctx.setFill(Color(hue: Double((rng >> 40) % 360) / 360, saturation: 0.5, brightness: 0.9, alpha: 0.5))
                    ctx.fillEllipse(in: Rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
                }
            }
            try canvas.writePNG(to: url)
        }
        return urls
    }

    /// Two and a half minutes of music made by code (chords and a bass line), as MP3 when the ffmpeg
    /// command line is there (decoding MP3 is the realistic cost), else WAV. Shorter than the show,
    /// so the bed also loops.
    func music() throws -> URL {
        let wav = cache.appendingPathComponent("music.wav")
        if !FileManager.default.fileExists(atPath: wav.path) {
            let chords: [[Double]] = [[220.00, 277.18, 329.63], [196.00, 246.94, 293.66], [174.61, 220.00, 261.63], [196.00, 246.94, 329.63]]
            let sound = ProceduralSound(duration: 150) { t in
                let index = Int(t / 2.5) % chords.count
                let local = t.truncatingRemainder(dividingBy: 2.5) / 2.5
                var v = 0.0
                for (k, f) in chords[index].enumerated() { v += sin(2 * Double.pi * f * t + Double(k)) * 0.15 }
                v += sin(2 * Double.pi * chords[index][0] / 2 * t) * 0.25 * (1 - local)
                return v * pow(sin(Double.pi * local), 0.5)
            }
            try sound.writeWAV(to: wav, duration: 150)
        }
        let mp3 = cache.appendingPathComponent("music.mp3")
        if FileManager.default.fileExists(atPath: mp3.path) { return mp3 }
        for folder in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: folder + "/ffmpeg") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: folder + "/ffmpeg")
            p.arguments = ["-v", "error", "-y", "-i", wav.path, "-c:a", "libmp3lame", "-b:a", "192k", mp3.path]
            try p.run(); p.waitUntilExit()
            if p.terminationStatus == 0 { return mp3 }
        }
        return wav
    }

    /// Renders the show once, with or without the sound track, and times it.
    func render(_ show: Slideshow, music: URL?, to url: URL, tiny: Bool = false) throws -> (Run, Double) {
        let (width, height, preset) = tiny ? (64, 36, EncoderPreset.ultrafast) : (self.width, self.height, self.preset)
        let clip = try show.clip(width: width, height: height)
        let wall0 = wallSeconds(), cpu0 = CPUClock.process.seconds()
        let movie = try MovieMaker(url: url, width: width, height: height, fps: FrameRate(fps),
                                   settings: EncoderSettings(crf: 20, preset: preset))
        var loudness = Double.nan
        if let music {
            let bed = try AudioClip(url: music).musicBed(fadeIn: 1, fadeOut: 3)
            let mix = AudioMix([AudioMix.Track(bed)], duration: clip.duration).normalized(to: -16)
            try movie.addAudio(mix)
            loudness = -16
        }
        try movie.add(clip)
        let summary = try movie.finish()
        return (Run(wallSeconds: wallSeconds() - wall0, cpuSeconds: CPUClock.process.seconds() - cpu0, frames: summary.frameCount), loudness)
    }

    /// Makes the inputs, renders both ways and returns the figures.
    func run() throws -> Result {
        let photos = try photos()
        let music = try music()
        let count = max(1, seconds / 3)
        var show = Slideshow(photos: (0..<count).map { Slideshow.Photo(url: photos[$0 % photos.count]) })
        show.duration = Time(value: Int64(seconds), timescale: Int64(count))
        show.fit = .fill
        show.transition = .crossfade(duration: 1)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-audio-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let (silent, _) = try render(show, music: nil, to: output.appendingPathComponent("silent.mp4"))
        let (sounded, _) = try render(show, music: music, to: output.appendingPathComponent("sound.mp4"))
        let (tinySilent, _) = try render(show, music: nil, to: output.appendingPathComponent("tiny-silent.mp4"), tiny: true)
        let (tinySounded, _) = try render(show, music: music, to: output.appendingPathComponent("tiny-sound.mp4"), tiny: true)
        // What the normalised track measures before encoding, by the library's own meter.
        let bed = try AudioClip(url: music).musicBed(fadeIn: 1, fadeOut: 3)
        let mix = AudioMix([AudioMix.Track(bed)], duration: Time(value: Int64(seconds), timescale: 1)).normalized(to: -16)
        let measured = try mix.measureLoudness(duration: Time(value: Int64(seconds), timescale: 1))
        return Result(seconds: seconds, width: width, height: height, preset: preset.rawValue, music: music.lastPathComponent,
                      videoOnly: silent, withSound: sounded,
                      tinyVideoOnly: tinySilent, tinyWithSound: tinySounded, loudness: measured.integrated)
    }

    /// The table line.
    static func line(_ r: Result) -> String {
        let verdict = r.passes ? "PASS" : "FAIL"
        return String(format: """
            audio: %d-s slideshow %dx%d at 30 fps (%@), music bed %@ looped + normalised to -16 LUFS (measured %.1f LUFS)
              video only   %6.1f s wall  %6.1f s CPU  (%d frames)
              with sound   %6.1f s wall  %6.1f s CPU
              audio path   %5.1f %% of CPU, %5.1f %% of wall (difference of the two renders)
              audio alone  %6.1f s CPU (64x36 ultrafast: %.1f without sound, %.1f with) = %.1f %% of the render with sound
              target < 5 %% by both estimates: %@
            """, r.seconds, r.width, r.height, r.preset, r.music, r.loudness,
                      r.videoOnly.wallSeconds, r.videoOnly.cpuSeconds, r.videoOnly.frames,
                      r.withSound.wallSeconds, r.withSound.cpuSeconds, r.cpuSharePercent, r.wallSharePercent,
                      r.isolatedAudioCPU, r.tinyVideoOnly.cpuSeconds, r.tinyWithSound.cpuSeconds, r.isolatedSharePercent, verdict)
    }
}
