import Foundation

/// One render's worth of a sound: produces its samples in order from time 0. Owns whatever is open
/// (decoders, files); used from one thread at a time.
public protocol AudioReader: AnyObject {
    /// The format samples come in.
    var format: AudioFormat { get }
    /// Writes the next `frameCount` sample frames, interleaved (`format.channelCount` floats per frame),
    /// into `buffer`, which holds at least `frameCount * format.channelCount` floats. Past the sound's end
    /// it writes silence.
    func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws
    /// Tells the reader, before it has been read that far, that the movie ends at sample frame `frame`
    /// of the reader's own time (counted from its first sample, wherever the sound was placed), so a
    /// sound that runs past it can fade out and stop there.
    func willEnd(atFrame frame: Int64)
}

extension AudioReader {
    /// Most readers ignore the movie's end.
    public func willEnd(atFrame frame: Int64) {}
}
