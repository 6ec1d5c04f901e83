import Foundation
import Synchronization

/// What a render did besides drawing, for tuning and benchmarks: how long drawing threads waited for
/// photos, where photos were decoded, and how many video decoders were open at once. Counted per render
/// (never process-wide, so two movies rendered at once do not mix their figures) and returned in
/// `MovieSummary.statistics`.
public struct RenderStatistics: Sendable, Hashable, Codable {
    /// Wall seconds drawing threads spent in calls that found their photo not yet decoded.
    public var photoWaitSeconds: Double
    /// How many such calls there were.
    public var photoWaits: Int
    /// Photos a drawing thread decoded itself (no read-ahead had started on them).
    public var photosDecodedOnDrawingThreads: Int
    /// Photos decoded ahead on other threads.
    public var photosDecodedAhead: Int
    /// The most video decoders open at once (what `EncoderSettings.videoDecoderLimit` bounds).
    public var peakOpenVideoDecoders: Int
    /// Frames the clip tree showed to be the same picture as the frame before, handed to the encoder
    /// again instead of being drawn and converted (a title card's hold, a still photo, a freeze).
    public var framesReused: Int
    /// Frames whose whole picture was one video's decoded frame, handed from the decoder to the encoder
    /// in YUV without being drawn (the body of each clip in a stitch), or a crossfade mixed from two.
    public var framesPassedThrough: Int

    /// Statistics of a render that did none of these things.
    package init(photoWaitSeconds: Double = 0, photoWaits: Int = 0, photosDecodedOnDrawingThreads: Int = 0,
                photosDecodedAhead: Int = 0, peakOpenVideoDecoders: Int = 0, framesReused: Int = 0,
                 framesPassedThrough: Int = 0) {
        self.photoWaitSeconds = photoWaitSeconds; self.photoWaits = photoWaits
        self.photosDecodedOnDrawingThreads = photosDecodedOnDrawingThreads; self.photosDecodedAhead = photosDecodedAhead
        self.peakOpenVideoDecoders = peakOpenVideoDecoders; self.framesReused = framesReused
        self.framesPassedThrough = framesPassedThrough
    }

    private enum CodingKeys: String, CodingKey {
        case photoWaitSeconds, photoWaits, photosDecodedOnDrawingThreads, photosDecodedAhead, peakOpenVideoDecoders
        case framesReused, framesPassedThrough
    }

    /// Decodes statistics written by this or an earlier version (whose JSON lacks the newer counts: 0).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(photoWaitSeconds: try c.decode(Double.self, forKey: .photoWaitSeconds), photoWaits: try c.decode(Int.self, forKey: .photoWaits),
                  photosDecodedOnDrawingThreads: try c.decode(Int.self, forKey: .photosDecodedOnDrawingThreads),
                  photosDecodedAhead: try c.decode(Int.self, forKey: .photosDecodedAhead),
                  peakOpenVideoDecoders: try c.decode(Int.self, forKey: .peakOpenVideoDecoders),
                  framesReused: try c.decodeIfPresent(Int.self, forKey: .framesReused) ?? 0,
                  framesPassedThrough: try c.decodeIfPresent(Int.self, forKey: .framesPassedThrough) ?? 0)
    }

    /// These and `other`'s (a later render of the same movie) together: counts and times added, the
    /// larger peak kept.
    func merged(with other: RenderStatistics) -> RenderStatistics {
        RenderStatistics(photoWaitSeconds: photoWaitSeconds + other.photoWaitSeconds, photoWaits: photoWaits + other.photoWaits,
                         photosDecodedOnDrawingThreads: photosDecodedOnDrawingThreads + other.photosDecodedOnDrawingThreads,
                         photosDecodedAhead: photosDecodedAhead + other.photosDecodedAhead,
                         peakOpenVideoDecoders: max(peakOpenVideoDecoders, other.peakOpenVideoDecoders),
                         framesReused: framesReused + other.framesReused,
                         framesPassedThrough: framesPassedThrough + other.framesPassedThrough)
    }
}

/// The photo counters of one render (or, outside any render, of one clip's photos): updated by its
/// `PhotoProvider`s from drawing and read-ahead threads.
final class PhotoCounters: Sendable {
    private let waitNanoseconds = Atomic<Int>(0)
    private let waits = Atomic<Int>(0)
    private let decodedOnDrawingThreads = Atomic<Int>(0)
    private let decodedAhead = Atomic<Int>(0)

    /// Records one call that waited from `start` (a `DispatchTime` uptime in nanoseconds) until now.
    func recordWait(since start: UInt64) {
        waitNanoseconds.add(Int(DispatchTime.now().uptimeNanoseconds &- start), ordering: .relaxed)
        waits.add(1, ordering: .relaxed)
    }
    /// Records a photo decoded by the drawing thread that asked for it.
    func recordDecodeOnDrawingThread() { decodedOnDrawingThreads.add(1, ordering: .relaxed) }
    /// Records a photo decoded ahead on a read-ahead thread.
    func recordDecodeAhead() { decodedAhead.add(1, ordering: .relaxed) }

    /// The counts so far, as render statistics (no video figures).
    var statistics: RenderStatistics {
        RenderStatistics(photoWaitSeconds: Double(waitNanoseconds.load(ordering: .relaxed)) / 1e9,
                         photoWaits: waits.load(ordering: .relaxed),
                         photosDecodedOnDrawingThreads: decodedOnDrawingThreads.load(ordering: .relaxed),
                         photosDecodedAhead: decodedAhead.load(ordering: .relaxed))
    }
}

extension Clip {
    /// The photo statistics of this clip's drawing outside any render (`draw(in:at:)` on a canvas of
    /// one's own, as the benchmark's draw-only phase does): each photo group counts its own.
    package func standalonePhotoStatistics() -> RenderStatistics {
        var seen = Set<ObjectIdentifier>()
        var total = RenderStatistics()
        forEachMediaLeaf { media in
            guard let group = media.group, seen.insert(ObjectIdentifier(group)).inserted else { return }
            total = total.merged(with: group.standaloneCounters.statistics)
        }
        return total
    }
}
