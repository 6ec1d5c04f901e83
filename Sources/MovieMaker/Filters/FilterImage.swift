import Foundation

/// The pixels a filter works on, in place: premultiplied ARGB32 as Cairo stores it (bytes B, G, R, A on
/// little-endian machines), `height` rows of `width` pixels, rows `stride` bytes apart.
///
/// A filter gets the filtered clip drawn alone on a transparent layer of the frame's size (the layer is
/// then drawn over what is below), so transparent pixels are where the clip drew nothing: colour filters
/// leave them transparent; spatial filters may spread colour into them (a blur) or not.
struct FilterImage {
    /// The first byte of the first row.
    let data: UnsafeMutablePointer<UInt8>
    /// Pixels per row.
    let width: Int
    /// Rows.
    let height: Int
    /// Bytes from one row to the next (at least `width × 4`).
    let stride: Int

    /// The first byte of row `y`.
    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { data + y * stride }

    /// Runs `body` over row ranges that together cover every row, on several threads for large images
    /// (about 64 K pixels per task or more), so a filter can process rows in parallel. `body` must only
    /// write the rows it is given.
    func forEachRowRange(_ body: (Range<Int>) -> Void) {
        FilterImage.inParallel(count: height, work: width * height, body)
    }

    /// Runs `body` over ranges covering `0..<count`, split over the cores when `work` (pixels touched)
    /// is large enough to pay for the threads.
    static func inParallel(count: Int, work: Int, _ body: (Range<Int>) -> Void) {
        let threads = min(UsableCores.count, count, max(1, work / 65_536))
        guard threads > 1 else { if count > 0 { body(0..<count) }; return }
        withoutActuallyEscaping(body) { body in
            let task = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: threads) { i in
                task.value(count * i / threads ..< count * (i + 1) / threads)
            }
        }
    }
}

/// Where in time a filter is applied: the frame's time in the filtered clip, exact and in seconds,
/// and the frame's size. Filters read their keyframed amounts here; seeded filters (grain) derive their
/// pattern from the exact time, so a frame's pixels depend only on the clip and the frame.
struct FilterTime {
    /// The exact time in the filtered clip.
    let exactTime: Time
    /// The frame rate of the movie.
    let rate: FrameRate
    /// The time in seconds (computed from `exactTime`).
    var seconds: Double { exactTime.seconds }
    /// The frame's index in the filtered clip's own time (`exactTime × rate`, rounded down).
    var frameIndex: Int { rate.frameCount(for: exactTime) }
}
