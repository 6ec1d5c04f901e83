import Foundation

// What the container says beside the pictures and sounds: chapters and metadata, set before the first frame.
extension MovieMaker {
    /// Gives the movie chapters that players list and jump to: in `.mp4` and `.mov` a QuickTime chapter
    /// track (and Nero `chpl` in MP4), in `.mkv` and `.webm` Matroska `Chapters`. Each chapter lasts
    /// until the next one starts, the last until `movieDuration`, the movie's length (chapter lengths are
    /// written before the first frame). Call it once, before the first frame.
    ///
    /// Throws `.invalidSetting(.chapters, …)` after the first frame, for a container without chapters
    /// (animated images, PNG sequences), or for chapters out of order, at the same time, before 0, at or
    /// after `movieDuration`, or without a title.
    public func setChapters(_ chapters: [Chapter], movieDuration: Time) throws(MovieMakerError) {
        try checkOpen()
        guard frameCount == 0, chaptersEnd == nil else {
            throw .invalidSetting(.chapters, value: frameCount > 0 ? "after frame \(frameCount)" : "a second time",
                                  expected: "setChapters called once, before the first frame")
        }
        guard [.mp4, .mov, .mkv, .webm, .hls].contains(container) else {
            throw .invalidSetting(.chapters, value: "\(chapters.count) chapters in a \(container == .pngSequence ? "PNG sequence" : "." + container.rawValue)",
                                  expected: "a .mp4, .mov, .mkv or .webm movie")
        }
        try Chapter.validate(chapters, end: movieDuration)
        try output.setChapters(chapters, end: movieDuration)
        chaptersEnd = chapters.last?.start
    }

    /// Records `value` under the container metadata key `key` (`comment` in MP4 and MOV, any key in
    /// Matroska), before the first frame; animated images, PNG sequences and previews keep none.
    package func setMetadata(_ key: String, _ value: String) throws(MovieMakerError) {
        try checkOpen()
        precondition(frameCount == 0, "metadata is set before the first frame (the header is written with it)")
        output.setMetadata(key, value)
    }
}
