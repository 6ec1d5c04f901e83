import ArgumentParser
import Foundation
import MovieMaker

/// `moviemaker stitch`: video clips one after another, as a phone's editor joins recorded clips.
struct StitchCommand: SingleOutputCommand {
    static let configuration = CommandConfiguration(
        commandName: "stitch",
        abstract: "Join video clips into one movie: hard cuts or transitions, their own sound, optional music.",
        discussion: """
            Clips play in the order given, each scaled to the frame by --fit. Their own sound plays \
            with them, crossfaded over --audio-crossfade at every cut so no join clicks. With --music, \
            the music plays under the whole movie and dips (by 12 dB) while the clips' own sound is \
            heard. The movie's size and rate default to the first clip's (for a variable frame rate \
            phone clip, the standard rate nearest its average).

            Every clip is checked before the first frame. A file that is not a video, or is truncated \
            or undecodable, is skipped with a warning naming it (or stops the run with --strict), and \
            listed in the summary.

            Transitions use FFmpeg xfade's names: \(Transition.knownNames.joined(separator: ", ")). \
            A transition overlaps the end of one clip with the start of the next, so the movie is \
            shorter than the clips together by the transitions' length.

            With --subtitles, the cues of an SRT or WebVTT file (timed from the movie's start) are \
            burned in over the whole movie; the file is read first, and a malformed one stops the run \
            with its line number.

            Examples:
              moviemaker stitch a.mp4 b.mov c.mp4 -o day.mp4
              moviemaker stitch *.mp4 --size 1080x1920 --fit blur -o vertical.mp4
              moviemaker stitch a.mp4 b.mp4 --transition fade --transition-duration 0.5 -o day.mp4
              moviemaker stitch a.mp4 b.mp4 --music song.mp3 --music-volume -6 --normalize -o day.mp4
              moviemaker stitch a.mp4 b.mp4 --subtitles talk.srt --subtitle-style box -o day.mp4
            """)

    /// The clips, in order.
    @Argument(help: ArgumentHelp("Video files (MP4, MOV, MKV, WebM, AVI, MTS, …), in the order they play.", valueName: "clip"))
    var clips: [String] = []

    /// Frame size (default: the first clip's).
    @Option(help: ArgumentHelp("Frame size in pixels, WIDTHxHEIGHT (even, 16…8192), or 2160p, 1080p, 720p, 480p, 360p. (default: the first clip's displayed size)",
                               valueName: "WxH"),
            transform: { (text: String) throws -> FrameSize in try FrameSize.parse(text) })
    var size: FrameSize?

    /// Frame rate (default: the first clip's).
    @Option(help: ArgumentHelp("Frames per second: 24, 25, 30, 60, 29.97 (=30000/1001) or a fraction. (default: the first clip's rate; for variable frame rate video the standard rate nearest it)",
                               valueName: "rate"),
            transform: { (text: String) throws -> FrameRate in try FrameRateArgument.parse(text) })
    var fps: FrameRate?

    /// Fit mode.
    @Option(help: ArgumentHelp("How clips of other proportions fill the frame: fill (crop to cover), fit (whole clip on --background), blur (whole clip over a blurred copy). (default: fill)",
                               valueName: "mode"))
    var fit: Slideshow.Fit = .fill

    /// Background colour around fitted clips.
    @Option(help: ArgumentHelp("Colour around clips with --fit fit (CSS). (default: black)", valueName: "color"),
            transform: { (text: String) throws -> Color in try ColorArgument.parse(text) })
    var background: Color = .black

    /// The transition between clips, by xfade name.
    @Option(help: ArgumentHelp("Transition between clips: an FFmpeg xfade name (fade, wipeleft, slideup, circleopen, dissolve, …) or none (hard cuts).",
                               valueName: "name"))
    var transition: String = "none"

    /// How long each transition takes.
    @Option(help: ArgumentHelp("Seconds each transition takes; it overlaps the neighbouring clips. (default: 0.5)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var transitionDuration: Time = Time(value: 1, timescale: 2)

    /// The crossfade of the clips' sound at cuts.
    @Option(help: ArgumentHelp("How long the clips' sound crossfades at each cut, at least 10ms, e.g. 20ms or 0.1. (default: 20ms)", valueName: "duration"),
            transform: { (text: String) throws -> Time in try DurationArgument.parse(text) })
    var audioCrossfade: Time = Time(value: 1, timescale: 50)

    @OptionGroup(title: "Sound track") var sound: SoundTrackOptions
    @OptionGroup(title: "Subtitles") var subtitles: SubtitleOptions

    /// Fail on the first unreadable clip instead of skipping it.
    @Flag(help: "Stop with an error at the first clip that cannot be read, instead of skipping it.")
    var strict = false

    /// x264 constant rate factor.
    @Option(help: ArgumentHelp("Quality, 0…51: lower is better and larger; 18 is visually lossless.", valueName: "0-51"))
    var crf: Int = 18

    /// x264 preset.
    @Option(help: ArgumentHelp("Encoder speed: \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", ")); slower makes smaller files. (default: medium)",
                               valueName: "name"),
            transform: { (text: String) throws -> EncoderPreset in try PresetArgument.parse(text) })
    var preset: EncoderPreset = .medium

    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Progress") var progress: ProgressOptions

    func validate() throws {
        guard !clips.isEmpty else {
            throw ValidationError("give the video clips to join, in order, e.g. moviemaker stitch a.mp4 b.mp4 -o day.mp4")
        }
        for clip in clips where !FileManager.default.fileExists(atPath: clip) {
            throw InputError("\(clip): no such file")
        }
        guard !output.isStill else {
            throw ValidationError("stitched clips make a movie: use -o day.mp4 (or .mov, .mkv, .webm), not .\(output.fileExtension)")
        }
        if transition.lowercased() != "none" {
            do { _ = try Transition(xfadeName: transition) } catch { throw ValidationError("--transition: \(error)") }
        }
        guard audioCrossfade >= Time(value: 1, timescale: 100), audioCrossfade <= 5 else {
            throw ValidationError("--audio-crossfade \(audioCrossfade.seconds) s is out of range: give 10ms to 5 s, e.g. 20ms (shorter ones click)")
        }
        guard (0...51).contains(crf) else {
            throw ValidationError("--crf \(crf) is out of range: expected 0…51 (18 is visually lossless, 23 is x264's default)")
        }
    }

    /// A readable clip: its probe, and the clip with and without its sound.
    struct Readable {
        /// The probed file.
        let file: VideoFile
        /// The clip with its own sound (if it has one).
        let clip: Clip
        /// The same picture, silent.
        let picture: Clip
    }

    /// Probes every clip, in order; unreadable ones are reported through `skip` (or thrown under `--strict`).
    func readClips(skip: (MovieMakerError) -> Void) throws -> [Readable] {
        var readable: [Readable] = []
        for path in clips {
            let url = URL(fileURLWithPath: path)
            do {
                let file = try VideoFile(url: url)
                // Clip.video(url:) also refuses what cannot be shown faithfully (HDR).
                let clip = try Clip.video(url, fit: fit, background: background, withSound: true)
                readable.append(Readable(file: file, clip: clip, picture: Clip.video(file, fit: fit, background: background, withSound: false)))
            } catch {
                if strict { throw error }
                skip(error)
            }
        }
        return readable
    }


    /// The sound track of `film` with `bed` ducked under its clips' sounds, lasting as long as the film,
    /// normalised when asked. The clips' sounds are the sidechain: the music dips while they are heard.
    static func soundtrack(of film: Clip, bed: AudioClip?, normalize: Bool, loudness: Double) -> AudioMix {
        var mix = AudioMix(duration: film.duration)
        if let bed { mix.add(bed, role: .ducked) }
        for sound in film.sounds where sound.isHeard {
            mix.add(sound.heardSound, at: sound.firstHeard, role: bed == nil ? .unaffected : .sidechain)
        }
        return normalize ? mix.normalized(to: loudness) : mix
    }

    func run() throws {
        let subtitleTrack = try subtitles.load()
        let bed = try sound.musicBed()
        var skipped: [MovieMakerError] = []
        let warn: (MovieMakerError) -> Void = { error in
            skipped.append(error)
            Terminal.writeError("moviemaker: warning: skipping \(Self.shortReason(error))\n")
        }
        if progress.showsProgress { Terminal.writeError("stitch: checking \(clips.count) clip\(clips.count == 1 ? "" : "s")…\n") }
        let readable = try readClips(skip: warn)
        guard let first = readable.first else {
            let which = clips.count == 1 ? "the clip \(clips[0]) could not be read" : "none of the \(clips.count) clips could be read"
            throw MovieMakerError(code: .movieUnreadable, message: "nothing to stitch: \(which) (see the warnings above); give video files such as MP4, MOV or MKV",
                                  reason: which)
        }

        // The movie's size and rate: as asked, else the first clip's (even sides, as H.264 needs).
        let width = size?.width ?? max(16, first.file.width - first.file.width % 2)
        let height = size?.height ?? max(16, first.file.height - first.file.height % 2)
        let rate = fps ?? (first.file.isVariableFrameRate ? first.file.standardFrameRate : first.file.frameRate)

        let join = transition.lowercased() == "none" ? nil : try Transition(xfadeName: transition, duration: transitionDuration)
        let film = Clip.stitched(readable.map(\.clip), transition: join, audioCrossfade: audioCrossfade)
        /// The picture with the subtitles burned in, when asked for.
        func withSubtitles(_ clip: Clip) -> Clip { subtitleTrack.map { clip.subtitled($0, style: subtitles.style) } ?? clip }
        if case let .sequence(track) = film.node, let join {
            for (i, used) in track.transitions.enumerated() where (used?.duration ?? .zero) != join.duration {
                Terminal.writeError("moviemaker: warning: the transition between clip \(i + 1) and clip \(i + 2) is \(String(format: "%.2f", (used?.duration ?? .zero).seconds)) s, not \(join.duration.seconds) s: it has to fit in both clips\n")
            }
        }
        let hasSound = bed != nil || !film.sounds.isEmpty
        if sound.normalize && !hasSound {
            Terminal.writeError("moviemaker: warning: --normalize ignored: the clips have no sound and no --music was given\n")
        }

        let reporter = ProgressReporter(label: "stitch", output: output.output, options: progress)
        let movie = try Interruption.shared.makeMovie {
            try MovieMaker(url: output.url, width: width, height: height, fps: rate, settings: EncoderSettings(crf: crf, preset: preset))
        }
        try reporter.render(movie) {
            if bed != nil || (sound.normalize && hasSound) {
                // One mix: the clips' own sound (the sidechain) over the ducked music, then the picture alone.
                if sound.normalize && progress.showsProgress { Terminal.writeError("stitch: measuring the sound's loudness…\n") }
                try movie.addAudio(Self.soundtrack(of: film, bed: bed, normalize: sound.normalize, loudness: sound.loudness))
                try movie.add(withSubtitles(Clip.stitched(readable.map(\.picture), transition: join, audioCrossfade: audioCrossfade)))
            } else {
                try movie.add(withSubtitles(film))
            }
        }
        if progress.showsProgress {
            var line = "stitch: \(readable.count) clip\(readable.count == 1 ? "" : "s") used, \(skipped.count) skipped"
            line += skipped.isEmpty ? "" : ":"
            Terminal.printLine(line)
            for error in skipped { Terminal.printLine("  \(Self.shortReason(error))") }
        }
    }

    /// `path: reason` for a skipped clip, without the advice the full error gives.
    static func shortReason(_ error: Error) -> String {
        guard let error = error as? MovieMakerError else { return "\(error)" }
        switch (error.code, error.location?.file, error.reason) {
        case let (.movieUnreadable, path?, reason?): return "\(path): \(reason)"
        case let (.movieTruncated, path?, reason?): return "\(path): truncated (\(reason))"
        case let (.noVideoStream, path?, reason?): return "\(path): no video stream (\(reason))"
        case let (.videoUnsupported, path?, reason?): return "\(path): \(reason)"
        default: return error.description
        }
    }
}
