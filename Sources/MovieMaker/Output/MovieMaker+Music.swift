import Foundation

extension MovieMaker {
    /// How long a looping music bed may run: longer than any movie (it stops at the movie's end).
    static let endlessLoop = Time(value: 48 * 3600, timescale: 1)

    /// Adds a music bed under the whole movie from `url` (MP3, AAC/M4A, Ogg Vorbis, Opus, FLAC, WAV,
    /// or a video's sound), starting at time 0.
    ///
    /// - `volume`: `.decibels(-12)` (sits under speech) or `.factor(0.5)`; as recorded by default.
    /// - `fadeIn`: rise from silence at the start.
    /// - `fadeOut`: fall to silence over the movie's last seconds when the music runs past the end
    ///   (it is cut exactly at the movie's end).
    /// - `loop`: repeat the music (with short crossfades at the joins) when it is shorter than the
    ///   movie; otherwise silence follows it.
    ///
    /// The file is opened and checked now: an unreadable file, one without sound, or an unsupported
    /// codec throws here, before any frame is drawn. Call it before the first frame (see `addAudio`).
    /// Returns the clip used, for reference.
    @discardableResult
    public func addMusic(_ url: URL, volume: Volume = .unchanged, fadeIn: Time = .zero, fadeOut: Time = 2,
                         loop: Bool = true) throws(MovieMakerError) -> AudioClip {
        try volume.check(.musicVolume)
        guard fadeIn >= .zero, fadeOut >= .zero else {
            throw .invalidSetting(.musicFade, value: "in \(fadeIn), out \(fadeOut)", expected: "0 seconds or more")
        }
        let music = try AudioClip(url: url).musicBed(volume: volume, fadeIn: fadeIn, fadeOut: fadeOut, loop: loop)
        try addAudio(music)
        return music
    }
}

extension AudioClip {
    /// This clip as a music bed at `volume` (`.decibels(-6)` or `.factor(0.5)`), rising over `fadeIn`,
    /// looped without end when `loop`, and fading out over the movie's last `fadeOut` when it runs past the end.
    public func musicBed(volume: Volume = .unchanged, fadeIn: Time = .zero, fadeOut: Time = 2, loop: Bool = true) -> AudioClip {
        var clip = self
        let gain = volume.decibelValue
        if gain != 0 { clip.amplify(by: gain.isFinite ? gain : -200) }
        if fadeIn > .zero { clip.fadeIn(over: fadeIn) }
        if loop { clip.loop(toFill: MovieMaker.endlessLoop) }
        // Never a hard cut at the movie's end: at least the 10 ms that keeps it from clicking.
        clip.fadeOutAtMovieEnd(over: Time.max(fadeOut, AudioClip.minimumCrossfade))
        return clip
    }
}

extension MovieMaker {
    /// Adds `source` to the sound track, playing from `time` (movie time) until its end or the
    /// movie's. Sounds added more than once, or overlapping, are summed (and clamped to ±1).
    ///
    /// The source's reader is opened now, so a broken file fails here, before any frame is drawn;
    /// then the call throws and changes nothing. The first call creates the sound track (unless
    /// `audioSettings` was given to init) and must come before the first frame
    /// (`.audioAfterFirstFrame`). Sound is encoded a little behind the video (by the longest
    /// `endFadeDuration` of the sounds, at least 0.1 s), so after frames have been drawn a sound may
    /// start up to that much before the movie's current end, not earlier (`.audioTooLate`). Throws
    /// `.audioUnsupported` for a PNG sequence, and `.encoderUnavailable` when the codec is missing.
    public func addAudio(_ source: any AudioSource, at time: Time = .zero) throws(MovieMakerError) {
        try addAudio([(source, time)])
    }

    /// Adds every sound (each from its movie time), or, when one fails, none: a clip's sounds go in
    /// together, so a clip that cannot be added leaves the sound track as it was.
    func addAudio(_ sounds: [(source: any AudioSource, time: Time)]) throws(MovieMakerError) {
        try checkOpen()
        guard !sounds.isEmpty else { return }
        let audioCodec = try container.audioCodec()
        if let early = sounds.first(where: { $0.time < .zero }) {
            throw .invalidSetting(.soundStartTime, value: "\(early.time)", expected: "0 or later (movie time)")
        }
        if !hasAudio && frameCount > 0 { throw .audioAfterFirstFrame(framesDrawn: frameCount) }
        try output.addAudio(sounds, frameCount: frameCount, codec: audioCodec)
    }
}
