import Foundation

/// A description of sound that can be played from its start: a music file, a mix, a tone made by code.
/// It is a value; `makeReader(format:)` opens what it needs for one render.
public protocol AudioSource: Sendable {
    /// How long the sound lasts, or nil when it lasts as long as it is asked to (a looping bed).
    var duration: Time? { get }
    /// How long before the movie's end the sound wants to know where that end is (to fade out over
    /// it); the writer holds back that much sound. Zero for most sounds.
    var endFadeDuration: Time { get }
    /// Opens the sound for one render, in `format`. Files are opened and checked here, so a broken
    /// file fails before any frame is drawn.
    func makeReader(format: AudioFormat) throws -> any AudioReader
}

extension AudioSource {
    /// Most sounds need not know where the movie ends.
    public var endFadeDuration: Time { .zero }
}
