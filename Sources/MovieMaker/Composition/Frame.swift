import Foundation

/// Where a drawing closure is in time: the frame being drawn and the time within its clip.
public struct Frame: Sendable, Hashable {
    /// Index of the frame within the current clip or `addFrames` call, from 0.
    public let index: Int
    /// Index of the frame within the whole movie.
    public let movieIndex: Int
    /// The movie's frame rate.
    public let rate: FrameRate
    /// Exact time within the clip (or `addFrames` call).
    public let exactTime: Time
    /// The clip's duration (for `addFrames`, `count` frames).
    public let duration: Time

    /// Creates a frame description.
    public init(index: Int, movieIndex: Int, rate: FrameRate, exactTime: Time, duration: Time) {
        self.index = index; self.movieIndex = movieIndex; self.rate = rate; self.exactTime = exactTime; self.duration = duration
    }
    /// Time within the clip in seconds, computed from the exact time (never accumulated).
    public var time: Double { exactTime.seconds }
    /// Time in the whole movie in seconds, computed from the movie's frame index.
    public var movieTime: Double { rate.seconds(ofFrame: movieIndex) }
    /// How far through the clip this frame is: 0 at its start, approaching 1 at its end.
    public var progress: Double { duration > .zero ? min(max(exactTime.seconds / duration.seconds, 0), 1) : 0 }

    /// The same frame seen from a clip that starts `offset` later and lasts `duration`.
    func shifted(by offset: Time, duration: Time) -> Frame {
        let local = exactTime - offset
        return Frame(index: Self.index(at: local, rate: rate, duration: duration), movieIndex: movieIndex, rate: rate, exactTime: local, duration: duration)
    }
    /// The same frame at `time` of a clip lasting `duration` (the index follows the time).
    func at(_ time: Time, duration: Time) -> Frame {
        Frame(index: Self.index(at: time, rate: rate, duration: duration), movieIndex: movieIndex, rate: rate, exactTime: time, duration: duration)
    }
    /// The index of the frame showing at `time` of a clip lasting `duration`: the one whose interval
    /// holds it (rounded down), within the clip's frames. Rounded up, a time between frames (a clip
    /// starting off the movie's frame grid, at 30000/1001 fps after a whole second; a reversed or slowed
    /// clip) got the next frame's index, one past the last on the last frame: `pictures[frame.index]` trapped.
    static func index(at time: Time, rate: FrameRate, duration: Time) -> Int {
        let count = rate.frameCount(for: duration)
        return min(max(0, rate.frameIndex(at: time)), max(0, count - 1))
    }
    /// The same frame, seen by a clip lasting `duration` that shares this clip's time.
    func with(duration: Time) -> Frame {
        Frame(index: index, movieIndex: movieIndex, rate: rate, exactTime: exactTime, duration: duration)
    }
}
