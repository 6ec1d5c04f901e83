import Foundation
import MovieMaker

/// The command line of `moviemaker-bench`.
struct Options {
    /// Where JSON goes, when asked for.
    enum JSONDestination: Equatable {
        case standardOutput
        case file(String)
    }

    /// Frames per preset run (the standard workload is 300).
    var frames = 300
    /// Limit the whole benchmark to this many CPUs (its affinity mask: lanes, x264 threads, children).
    var cores: Int?
    /// x264 presets to measure, in order.
    var presets: [EncoderPreset] = [.medium, .veryfast]
    /// Skip the memory-flatness runs.
    var skipMemory = false
    /// Frame counts of the memory-flatness runs (short, long).
    var memoryFrames = (2_000, 20_000)
    /// Also write the results as JSON.
    var json: JSONDestination?
    /// Skip the preset table (the standard workload, phases (a)–(e)).
    var skipPresets = false
    /// Skip the slideshow line.
    var skipSlideshow = false
    /// Photos in the slideshow line (30 by the issue's definition).
    var slideshowPhotos = 30
    /// Seconds each photo of the slideshow line is shown (3 by definition).
    var slideshowSeconds = 3.0
    /// The x264 preset of the slideshow line.
    var slideshowPreset = EncoderPreset.medium
    /// Skip the slideshow memory line.
    var skipSlideshowMemory = false
    /// Photo counts of the slideshow memory runs (few, many).
    var slideshowMemoryPhotos = (20, 200)
    /// Seconds each photo of the memory runs is shown (short, so that 200 photos take 1500 frames).
    var slideshowMemorySeconds = 0.25
    /// The x264 preset of the memory runs.
    var slideshowMemoryPreset = EncoderPreset.medium
    /// Skip the audio line.
    var skipAudio = false
    /// Length of the audio line's slideshow in seconds.
    var audioSeconds = 180
    /// Frame size of the audio line's slideshow.
    var audioSize = (1920, 1080)
    /// x264 preset of the audio line's slideshow.
    var audioPreset = EncoderPreset.medium
    /// Where the generated photos are cached (nil: `.build/bench-photos`, or the temporary folder).
    var photoFolder: String?
    /// Skip the video line (ten clips stitched with crossfades, against x264 alone and ffmpeg).
    var skipVideo = false
    /// Clips stitched in the video line (10 by the issue's definition).
    var videoClips = 10
    /// Seconds of each generated clip (10 by definition).
    var videoSeconds = 10
    /// The x264 preset of the video line's movie (and of ffmpeg's).
    var videoPreset = EncoderPreset.medium
    /// Skip the reverse line (one long-GOP clip decoded backwards against forwards).
    var skipReverse = false
    /// Where the generated clips are cached (nil: `.build/bench-videos`, or the temporary folder).
    var videoFolder: String?
    /// Skip the filters line (per-filter cost on a 1080p frame, a render with and without filters).
    var skipFilters = false
    /// Timed runs per filter (the median is reported).
    var filterRuns = 15
    /// Length of the filters line's renders in seconds.
    var filterSeconds = 3
    /// Run only the filters line (every other line skipped).
    var onlyFilters = false
    /// Skip the captions line (word-by-word captions' cost per 1080p frame).
    var skipCaptions = false
    /// Run only the captions line (every other line skipped).
    var onlyCaptions = false
    /// Skip the audiogram line (an audiogram's cost per 1080p frame).
    var skipAudiogram = false
    /// Skip the transcription line (alignment accuracy and free recognition's word error rate).
    var skipTranscription = false
    /// Skip the reframe line (the reframing analysis at 1080p, and its share of a stitch's CPU).
    var skipReframe = false
    /// Run only the audiogram line (every other line skipped).
    var onlyAudiogram = false
    /// Skip the chunk line (one pass against 2, 4 and 8 chunks run two at a time).
    var skipChunks = false
    /// Length of the chunk line's movie in seconds (the targets are for 60).
    var chunkSeconds = 60
    /// Run only the chunk line (every other line skipped).
    var onlyChunks = false
    /// Skip the encoders line (each codec against the ffmpeg command line).
    var skipEncoders = false
    /// Skip the batch line (`render --batch` against separate renders).
    var skipBatch = false
    /// The batch line's rows.
    var batchRows = 40
    /// Skip the incremental line (`render --cache` after an edit against a full render).
    var skipIncremental = false
    /// The encoders line's frame count.
    var encoderFrames = 60
    /// The encoders line's pairs of runs per codec.
    var encoderRounds = 3
    /// The encoders line's codecs, in order.
    var encoderCodecs: [VideoCodec] = [.h264, .hevc, .av1, .vp9]

    static let usage = """
        usage: moviemaker-bench [--frames N] [--presets medium,veryfast] [--skip-memory]
                                [--memory-frames A,B] [--json [PATH]] [--skip-presets]
                                [--skip-slideshow] [--slideshow-photos N] [--slideshow-seconds S]
                                [--slideshow-preset P] [--skip-slideshow-memory]
                                [--slideshow-memory-photos A,B] [--slideshow-memory-seconds S]
                                [--slideshow-memory-preset P] [--photo-folder PATH]
                                [--skip-audio] [--audio-seconds S]
                                [--skip-video] [--video-clips N] [--video-seconds S]
                                [--video-preset P] [--skip-reverse] [--video-folder PATH]
                                [--skip-filters] [--filter-runs N] [--filter-seconds S] [--only-filters]
                                [--skip-chunks] [--chunk-seconds S] [--only-chunks] [--skip-captions] [--only-captions] [--skip-audiogram] [--only-audiogram] [--skip-reframe] [--only-reframe] [--skip-transcription] [--only-transcription]
                                [--skip-encoders] [--only-encoders] [--encoder-frames N] [--encoder-rounds N] [--encoder-codecs h264,hevc,av1,vp9]
                                [--skip-batch] [--only-batch] [--batch-rows N] [--skip-incremental] [--only-incremental]

          --frames N           frames per preset run (default 300)
          --cores N            run on N of the CPUs this process may use (its affinity mask, inherited by
                               the drawing lanes, x264's threads and child processes): how it scales
          --presets LIST       comma-separated x264 presets (default medium,veryfast)
          --skip-memory        skip the memory-flatness line
          --memory-frames A,B  frame counts of the two memory runs (default 2000,20000)
          --json [PATH]        write the figures as JSON to PATH, or to stdout after the table
          --skip-presets       skip the preset table (the standard workload)

          slideshow line (1920×1080 @ 30 fps, crossfade, Ken Burns, fill; photos of 2–24 MP):
          --skip-slideshow              skip it
          --slideshow-photos N          photos (default 30)
          --slideshow-seconds S         seconds each photo is shown (default 3; crossfade min(1, S/2) s)
          --slideshow-preset P          x264 preset (default medium)

          slideshow memory line (peak RSS of fresh processes: encoder alone, shows of A and B photos of 24 MP):
          --skip-slideshow-memory       skip it
          --slideshow-memory-photos A,B photo counts (default 20,200; A distinct files, listed B/A times for B)
          --slideshow-memory-seconds S  seconds each photo is shown (default 0.25; crossfade S/2)
          --slideshow-memory-preset P   x264 preset (default medium)

          audio line (a slideshow 1920×1080 @ 30 fps, medium, rendered without and with a music bed
          normalised to -16 LUFS: the sound track's share of the render):
          --skip-audio                  skip it
          --audio-seconds S             length of the slideshow (default 180)
          --audio-size WxH              frame size (default 1920x1080)
          --audio-preset P              x264 preset (default medium)

          video line (clips of 1920×1080 @ 30 fps H.264 with sound, stitched with 0.5 s crossfades into a
          CRF 20 movie: decoding + drawing alone, x264 alone, the whole render, the ffmpeg CLI; peak RSS):
          --skip-video                  skip it
          --video-clips N               clips stitched (default 10)
          --video-seconds S             seconds of each clip (default 10)
          --video-preset P              x264 preset of the movie, MovieMaker's and ffmpeg's (default medium)

          reverse line (the first clip, keyint 250, decoded + drawn backwards against forwards; peak RSS):
          --skip-reverse                skip it

          filters line (every filter's cost on a 1920×1080 frame; a 1080p30 medium render of a panned
          photo with a LUT + vignette + grain against the same render without them, A/B/A/B):
          --skip-filters                skip it
          --filter-runs N               timed runs per filter, median reported (default 15)
          --filter-seconds S            length of each render (default 3)
          --only-filters                run the filters line alone (make bench-filters)

          chunk line (a 1920×1080 @ 30 fps medium description with music rendered by the moviemaker tool beside
          this program: in one pass, and as 2, 4 and 8 chunks run two processes at a time, then assembled; CPU,
          bytes and assembly time against the one pass; about 4 one-pass renders of CPU):
          --skip-chunks                 skip it
          --chunk-seconds S             length of the movie (default 60, at least 8; the targets are for 60)
          --only-chunks                 run the chunk line alone (make bench-chunks)

          captions line (word-by-word captions, pop style, drawn at 1920×1080 against an empty clip):
          --skip-captions               skip it
          --only-captions               run only the captions line
          reframe line (a 1080p clip's reframing analysis: frames a second, and its share of a 9:16 stitch's CPU):
          --skip-reframe                skip it
          --only-reframe                run only the reframe line
          audiogram line (a 64-bar spectrum of a voice-like sound, drawn at 1920×1080 against an empty clip):
          --skip-audiogram              skip it
          --only-audiogram              run only the audiogram line
          transcription line (a 314-word text spoken by eSpeak NG: alignment error, free recognition's word error rate):
          --skip-transcription          skip it
          --only-transcription          run only the transcription line
          --skip-encoders               skip the encoders line (h264, hevc, av1, vp9 at 1080p against ffmpeg)
          --only-encoders               run only the encoders line
          --encoder-frames N            its frames (default 60)
          --encoder-rounds N            pairs of runs per codec, taking turns at going first; medians compared (default 3)
          --encoder-codecs LIST         its codecs, in order (default h264,hevc,av1,vp9; a codec may repeat)
          --skip-batch                  skip the batch line (a 3-slot template's rows by one render --batch process
                                        against separate render --slot processes, by the moviemaker tool beside this program)
          --only-batch                  run only the batch line (make bench-batch)
          --batch-rows N                its rows (default 40)
          --skip-incremental            skip the incremental line (a 3-minute description rendered in full, then
                                        with --cache before and after one title's edit, by the moviemaker tool)
          --only-incremental            run only the incremental line (make bench-incremental)

          --video-folder PATH  where the generated clips are kept (default .build/bench-videos when run
                               from the package, else the temporary folder); generated once
          --photo-folder PATH  where the generated photos are kept (default .build/bench-photos when
                               run from the package, else the temporary folder); generated once
        """

    /// Parses `arguments` (without the program name); throws a message for people on bad input.
    init(arguments: [String]) throws(OptionError) {
        var rest = arguments[...]
        var onlyOther = false, onlyReframe = false
        while let flag = rest.popFirst() {
            if flag.hasPrefix("--only-") && flag != "--only-reframe" { onlyOther = true }
            switch flag {
            case "--skip-reframe":
                skipReframe = true
            case "--only-reframe":
                onlyReframe = true
                skipIncremental = true; skipBatch = true; skipEncoders = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipCaptions = true
                skipAudiogram = true; skipTranscription = true
            case "--frames":
                frames = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--cores":
                cores = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--presets":
                presets = try Self.presetList(rest.popFirst())
            case "--skip-memory":
                skipMemory = true
            case "--memory-frames":
                let parts = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
                guard parts.count == 2 else { throw OptionError("--memory-frames needs two counts, e.g. 2000,20000") }
                memoryFrames = (try Self.positiveInt(parts[0], flag: flag), try Self.positiveInt(parts[1], flag: flag))
            case "--json":
                if let next = rest.first, !next.hasPrefix("--") {
                    json = .file(next); rest = rest.dropFirst()
                } else {
                    json = .standardOutput
                }
            case "--skip-presets":
                skipPresets = true
            case "--skip-slideshow":
                skipSlideshow = true
            case "--slideshow-photos":
                slideshowPhotos = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--slideshow-seconds":
                slideshowSeconds = try Self.positiveSeconds(rest.popFirst(), flag: flag)
            case "--slideshow-preset":
                slideshowPreset = try Self.preset(rest.popFirst(), flag: flag)
            case "--skip-slideshow-memory":
                skipSlideshowMemory = true
            case "--slideshow-memory-photos":
                let parts = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
                guard parts.count == 2 else { throw OptionError("--slideshow-memory-photos needs two counts, e.g. 20,200") }
                slideshowMemoryPhotos = (try Self.positiveInt(parts[0], flag: flag), try Self.positiveInt(parts[1], flag: flag))
            case "--slideshow-memory-seconds":
                slideshowMemorySeconds = try Self.positiveSeconds(rest.popFirst(), flag: flag)
            case "--slideshow-memory-preset":
                slideshowMemoryPreset = try Self.preset(rest.popFirst(), flag: flag)
            case "--skip-audio":
                skipAudio = true
            case "--audio-seconds":
                audioSeconds = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--audio-size":
                let parts = (rest.popFirst() ?? "").lowercased().split(separator: "x").map(String.init)
                guard parts.count == 2 else { throw OptionError("--audio-size needs WIDTHxHEIGHT, e.g. 1280x720") }
                audioSize = (try Self.positiveInt(parts[0], flag: flag), try Self.positiveInt(parts[1], flag: flag))
            case "--audio-preset":
                audioPreset = try Self.preset(rest.popFirst(), flag: flag)
            case "--photo-folder":
                guard let path = rest.popFirst(), !path.isEmpty else { throw OptionError("--photo-folder needs a path") }
                photoFolder = path
            case "--skip-video":
                skipVideo = true
            case "--video-clips":
                videoClips = try Self.positiveInt(rest.popFirst(), flag: flag)
                guard videoClips >= 2 else { throw OptionError("--video-clips needs at least 2 clips to stitch") }
            case "--video-seconds":
                videoSeconds = try Self.positiveInt(rest.popFirst(), flag: flag)
                guard videoSeconds >= 2 else { throw OptionError("--video-seconds needs at least 2 (clips overlap by 0.5 s)") }
            case "--video-preset":
                videoPreset = try Self.preset(rest.popFirst(), flag: flag)
            case "--skip-reverse":
                skipReverse = true
            case "--skip-filters":
                skipFilters = true
            case "--filter-runs":
                filterRuns = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--filter-seconds":
                filterSeconds = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--only-filters":
                skipIncremental = true
                skipBatch = true
                skipEncoders = true
                onlyFilters = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipChunks = true; skipCaptions = true; skipAudiogram = true; skipTranscription = true
            case "--skip-encoders":
                skipEncoders = true
            case "--only-encoders":
                skipIncremental = true
                skipBatch = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipCaptions = true
                skipAudiogram = true; skipTranscription = true
            case "--encoder-frames":
                encoderFrames = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--encoder-rounds":
                encoderRounds = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--encoder-codecs":
                let names = (rest.popFirst() ?? "").split(separator: ",").map(String.init)
                let codecs = names.compactMap { VideoCodec(rawValue: $0) }.filter { [.h264, .hevc, .av1, .vp9].contains($0) }
                guard !codecs.isEmpty, codecs.count == names.count else { throw OptionError("--encoder-codecs needs a list of h264, hevc, av1, vp9") }
                encoderCodecs = codecs
            case "--skip-chunks":
                skipChunks = true
            case "--skip-batch":
                skipBatch = true
            case "--only-batch":
                skipIncremental = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipCaptions = true
                skipAudiogram = true; skipTranscription = true; skipEncoders = true
            case "--skip-incremental":
                skipIncremental = true
            case "--only-incremental":
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipCaptions = true
                skipAudiogram = true; skipTranscription = true; skipEncoders = true; skipBatch = true
            case "--batch-rows":
                batchRows = try Self.positiveInt(rest.popFirst(), flag: flag)
            case "--skip-captions":
                skipCaptions = true
            case "--skip-audiogram":
                skipAudiogram = true
            case "--only-audiogram":
                skipIncremental = true
                skipBatch = true
                skipEncoders = true
                onlyAudiogram = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipCaptions = true
                skipTranscription = true
            case "--skip-transcription":
                skipTranscription = true
            case "--only-transcription":
                skipIncremental = true
                skipBatch = true
                skipEncoders = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipCaptions = true
                skipAudiogram = true
            case "--only-captions":
                skipIncremental = true
                skipBatch = true
                skipEncoders = true
                onlyCaptions = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipChunks = true; skipAudiogram = true; skipTranscription = true
            case "--chunk-seconds":
                chunkSeconds = try Self.positiveInt(rest.popFirst(), flag: flag)
                guard chunkSeconds >= 8 else { throw OptionError("--chunk-seconds needs at least 8 (8 chunks of at least one second)") }
            case "--only-chunks":
                skipIncremental = true
                skipBatch = true
                skipEncoders = true
                onlyChunks = true
                skipPresets = true; skipMemory = true; skipSlideshow = true; skipSlideshowMemory = true
                skipAudio = true; skipVideo = true; skipReverse = true; skipFilters = true; skipCaptions = true; skipAudiogram = true; skipTranscription = true
            case "--video-folder":
                guard let path = rest.popFirst(), !path.isEmpty else { throw OptionError("--video-folder needs a path") }
                videoFolder = path
            case "-h", "--help":
                throw OptionError(Self.usage, isHelp: true)
            default:
                throw OptionError("unknown option \(flag)\n\n\(Self.usage)")
            }
        }
        // Another line's --only-… skips this one too.
        if onlyOther && !onlyReframe { skipReframe = true }
    }

    private static func positiveInt(_ text: String?, flag: String) throws(OptionError) -> Int {
        guard let text, let n = Int(text), n > 0 else { throw OptionError("\(flag) needs a positive whole number, got \(text ?? "nothing")") }
        return n
    }

    private static func positiveSeconds(_ text: String?, flag: String) throws(OptionError) -> Double {
        guard let text, let s = Double(text), s.isFinite, s >= 0.1 else {
            throw OptionError("\(flag) needs seconds of at least 0.1, got \(text ?? "nothing")")
        }
        return s
    }

    private static func preset(_ text: String?, flag: String) throws(OptionError) -> EncoderPreset {
        guard let text, let preset = EncoderPreset(rawValue: text) else {
            throw OptionError("\(flag): unknown preset \(text ?? "nothing"); one of \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return preset
    }

    private static func presetList(_ text: String?) throws(OptionError) -> [EncoderPreset] {
        let names = (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty else { throw OptionError("--presets needs a list, e.g. medium,veryfast") }
        return try names.map { name throws(OptionError) in
            guard let preset = EncoderPreset(rawValue: name) else {
                throw OptionError("unknown preset \(name); one of \(EncoderPreset.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return preset
        }
    }
}

/// A command-line mistake (or `--help`), with the text to show.
struct OptionError: Error {
    let message: String
    let isHelp: Bool
    init(_ message: String, isHelp: Bool = false) { self.message = message; self.isHelp = isHelp }
}
