/// How a movie's frames are split into chunks that separate workers render: `count` balanced,
/// contiguous frame ranges, each at least one second long.
///
/// Chunks count from 0, as Slurm array indices (`$SLURM_ARRAY_TASK_ID`) and Kubernetes completion
/// indices (`$JOB_COMPLETION_INDEX`) do. A movie too short for the chunk count asked gets fewer chunks
/// (one per whole second, at least one); `range(ofChunk:)` is then nil for the indices beyond, whose
/// workers have nothing to do. The plan depends only on the frame count, the rate and the count asked,
/// so every worker and the assembly compute the same ranges.
package struct ChunkPlan: Sendable, Hashable, CustomStringConvertible {
    /// The movie's frame count.
    package let frameCount: Int
    /// The movie's frame rate.
    package let frameRate: FrameRate
    /// The number of chunks asked for (`N` in `--chunk K/N`).
    package let requestedCount: Int
    /// The frame ranges, in order; they cover `0..<frameCount` without gaps or overlaps.
    package let ranges: [Range<Int>]

    /// The most chunks a plan may have.
    package static let maximumCount = 100_000

    /// Splits `frameCount` frames at `frameRate` into `count` balanced ranges of at least one second
    /// each (fewer when the movie is shorter than `count` seconds). Throws `.invalidSetting` for a
    /// count below 1 or above `maximumCount`, or a movie without frames.
    ///
    /// With `alignment`, every chunk but the last starts and ends on a multiple of `alignment` frames
    /// (an HLS stream's segment), so there may be fewer chunks.
    package init(frameCount: Int, frameRate: FrameRate, count: Int, alignment: Int = 1) throws(MovieMakerError) {
        guard (1...Self.maximumCount).contains(count) else {
            throw .invalidSetting(.chunk, value: "\(count) chunks", expected: "1…\(Self.maximumCount) chunks")
        }
        guard frameCount > 0 else {
            throw .invalidSetting(.frameRange, value: "\(frameCount) frames", expected: "a movie with at least one frame")
        }
        self.frameCount = frameCount
        self.frameRate = frameRate
        requestedCount = count
        let second = max(1, frameRate.frameCount(for: Time(integerLiteral: 1)))
        let n = max(1, min(count, frameCount / second))
        let step = max(1, alignment)
        // Boundaries rounded to the nearest multiple of `step` (the movie's end stays where it is).
        var bounds = (0...n).map { k in k == n ? frameCount : min(frameCount, (k * frameCount / n + step / 2) / step * step) }
        bounds = bounds.enumerated().filter { $0.offset == 0 || $0.element > bounds[$0.offset - 1] }.map(\.element)
        ranges = zip(bounds, bounds.dropFirst()).map { $0 ..< $1 }
    }

    /// The number of chunks that have frames (at most `requestedCount`).
    package var count: Int { ranges.count }

    /// The frames of chunk `index` (0-based), or nil when the index is within the count asked but the
    /// movie is too short to give that chunk frames. Throws `.invalidSetting` for an index outside
    /// `0..<requestedCount`.
    package func range(ofChunk index: Int) throws(MovieMakerError) -> Range<Int>? {
        guard (0..<requestedCount).contains(index) else {
            throw .invalidSetting(.chunk, value: "\(index)/\(requestedCount)",
                                  expected: "a chunk index from 0 to \(requestedCount - 1) (chunks count from 0, as Slurm array and Kubernetes completion indices do)")
        }
        return index < ranges.count ? ranges[index] : nil
    }

    /// The index of the chunk whose range is exactly `range`, if any.
    package func index(of range: Range<Int>) -> Int? { ranges.firstIndex(of: range) }

    /// `4 chunks of 90…91 frames (361 frames at 30 fps)`.
    package var description: String {
        let sizes = ranges.map(\.count)
        let spread = sizes.min() == sizes.max() ? "\(sizes[0])" : "\(sizes.min()!)…\(sizes.max()!)"
        return "\(count) chunk\(count == 1 ? "" : "s") of \(spread) frames (\(frameCount) frames at \(frameRate) fps)"
    }
}
