import Foundation

extension AudioMix {
    /// The sound track of `film`: its clips' own sounds (as heard, where they are heard) and `sounds`
    /// over them, lasting exactly as long as the film, normalised to `loudness` LUFS when given.
    ///
    /// This is the mix `moviemaker stitch`, `slideshow --normalize` and description files make. Music
    /// added with the `.ducked` role (the default of `Track`) dips under the clips' sounds, which
    /// become the sidechain; without a ducked track they play `.unaffected`. The clips' sounds come
    /// first, then `sounds` in order.
    ///
    /// <!-- prelude: let song = URL(fileURLWithPath: "song.m4a"); let film = Clip.color(.black, duration: 5); let movie = try MovieMaker(url: URL(fileURLWithPath: "film.mp4"), width: 320, height: 240) -->
    /// ```swift
    /// let bed = try AudioClip(url: song).musicBed(volume: .decibels(-6), fadeIn: 1)
    /// let mix = AudioMix(soundOf: film, adding: [AudioMix.Track(bed)], normalizedTo: -16)
    /// try movie.addAudio(mix)
    /// ```
    ///
    /// Play `film.withoutSounds()` with this mix (or the clips are heard twice); `ducking.validate()`
    /// is the caller's (the description reader names its JSON path).
    public init(soundOf film: Clip, adding sounds: [Track] = [], ducking: Ducking = Ducking(), normalizedTo loudness: Double? = nil) {
        self.init(duration: film.duration)
        self.ducking = ducking
        let ducks = sounds.contains { $0.role == .ducked }
        // A sound that starts before the film (attached at a negative time) is heard from its start, cut
        // there with the usual short fade, as `MovieMaker.add(_:)` places it.
        for sound in film.sounds.map({ $0.limited(from: .zero, until: nil) }) where sound.isHeard {
            add(sound.heardSound, at: sound.firstHeard, role: ducks ? .sidechain : .unaffected)
        }
        tracks += sounds
        if let loudness { self = normalized(to: loudness) }
    }
}
