import ArgumentParser
import Foundation
import MovieMaker

/// `--music`, `--music-volume`, `--music-loop`, `--music-fade-in`, `--music-fade-out`, `--normalize`, `--loudness`: the sound track options
/// `slideshow` and `stitch` share, checked the same way in both.
struct SoundTrackOptions: ParsableArguments {
    /// Music under the movie.
    @Option(help: ArgumentHelp("A sound file to play under the movie (MP3, AAC/M4A, Ogg, Opus, FLAC, WAV, or a video's sound); faded in over --music-fade-in, looped when shorter, faded out at the end when longer.",
                               valueName: "file"))
    var music: String?

    /// Music gain.
    @Option(parsing: .unconditional, help: ArgumentHelp("Music gain in dB, e.g. -6.", valueName: "dB"))
    var musicVolume: Double = 0

    /// Whether short music repeats.
    @Flag(inversion: .prefixedNo, help: "Repeat music shorter than the movie (otherwise silence follows it).")
    var musicLoop = true

    /// How long the music fades in at its start.
    @Option(help: ArgumentHelp("Seconds the music fades in over at its start, e.g. 0.5, 2 or 0 to start at full level (on a downbeat). (default: 0.5)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try Self.fadeLength(text) })
    var musicFadeIn: Time = Time(value: 1, timescale: 2)

    /// How long the music fades out at the movie's end.
    @Option(help: ArgumentHelp("Seconds the music fades out over at the end of the movie, e.g. 2, 4.5 or 0 for a cut. (default: 2)", valueName: "seconds"),
            transform: { (text: String) throws -> Time in try Self.fadeLength(text) })
    var musicFadeOut: Time = 2

    /// A fade's length: a duration, or 0 (`0`, `0s`, `0ms`, `0.0`) for none (a duration argument is
    /// otherwise above zero).
    static func fadeLength(_ text: String) throws -> Time {
        let number = text.trimmingCharacters(in: .whitespaces).lowercased()
        let bare = number.hasSuffix("ms") ? String(number.dropLast(2)) : number.hasSuffix("s") ? String(number.dropLast()) : number
        return Double(bare) == 0 ? .zero : try DurationArgument.parse(text)
    }

    /// Loudness normalisation.
    @Flag(help: "Normalise the sound track to --loudness (EBU R128 integrated loudness, true peak ≤ -1 dBTP).")
    var normalize = false

    /// Loudness target, as given.
    @Option(name: .customLong("loudness"), parsing: .unconditional,
            help: ArgumentHelp("Loudness target for --normalize in LUFS: -16 for the web, -23 for broadcast. (default: -16)", valueName: "LUFS"))
    var loudnessGiven: Double?

    /// Loudness target for --normalize: `--loudness`, else -16 LUFS.
    var loudness: Double { loudnessGiven ?? -16 }

    /// Checks the music file exists and the gain and loudness are in range.
    func validate() throws {
        if let music, !FileManager.default.fileExists(atPath: music) {
            throw InputError("--music \(music): no such file")
        }
        guard musicVolume.isFinite, musicVolume <= 24 else {
            throw ValidationError("--music-volume \(musicVolume) dB is out of range: give a gain up to 24 dB, e.g. -6")
        }
        guard loudness >= -70, loudness <= -5 else {
            throw ValidationError("--loudness \(loudness) LUFS is out of range: give -70 to -5, e.g. -16 (web) or -23 (broadcast)")
        }
        // Options that would do nothing are said to, not silently ignored: the user expected them to act.
        if loudnessGiven != nil && !normalize {
            Terminal.writeError("moviemaker: warning: --loudness is the target of --normalize, which is not given: the sound is not normalised (add --normalize)\n")
        }
        if musicVolume != 0 && music == nil {
            Terminal.writeError("moviemaker: warning: --music-volume sets the level of --music, which is not given: it does nothing\n")
        }
    }

    /// The music bed (faded in over `--music-fade-in`, out over `--music-fade-out`, looped as asked), opened and checked now so an
    /// unreadable file fails before any picture is looked at; nil without `--music`.
    func musicBed() throws -> AudioClip? {
        guard let music else { return nil }
        let song: AudioClip
        do { song = try AudioClip(url: URL(fileURLWithPath: music)) } catch {
            // The library's message names the file already; say which option gave it.
            throw InputError("--music: \(error.message)")
        }
        let bed = song.musicBed(volume: .decibels(musicVolume), fadeIn: musicFadeIn, fadeOut: musicFadeOut, loop: musicLoop)
        // A loop joins the song's end to its start with a short crossfade, which needs a song longer than two of them.
        if musicLoop, let length = song.trimmedDuration, length <= bed.loopCrossfade.duration * 2 {
            throw InputError("--music \(music) lasts \(Self.seconds(length)) s, too short to loop (a loop needs more than "
                             + "\(Self.seconds(bed.loopCrossfade.duration * 2)) s): give a longer song, or --no-music-loop to play it once")
        }
        return bed
    }

    /// `length` in seconds for a message: `0.0001`, `2.5`.
    private static func seconds(_ length: Time) -> String {
        let s = length.seconds
        return s >= 1 ? String(format: "%.1f", s) : String(format: "%.4g", s)
    }
}
