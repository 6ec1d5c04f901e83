import Foundation

/// The run of sample frames a procedural sound is asked to fill.
public struct SoundBlock: Sendable, Hashable {
    /// The first frame to fill, counted from the sound's start (frame `n` plays at `n / sampleRate`).
    public let startFrame: Int64
    /// How many frames to fill.
    public let frameCount: Int
    /// The rate and channel count of the samples (the buffer holds `frameCount × channelCount` floats).
    public let format: AudioFormat

    /// A block of `frameCount` frames from `startFrame` in `format`.
    package init(startFrame: Int64, frameCount: Int, format: AudioFormat) {
        self.startFrame = startFrame; self.frameCount = frameCount; self.format = format
    }
    /// The exact time of the block's first frame.
    public var startTime: Time { format.time(ofFrame: startFrame) }
    /// The frames the block covers, counted from the sound's start.
    public var frames: Range<Int64> { startFrame..<startFrame + Int64(frameCount) }
    /// The time in seconds of the block's frame `offset` (0 is the first), computed from its index, never accumulated.
    public func seconds(ofFrame offset: Int) -> Double { Double(startFrame + Int64(offset)) / Double(format.sampleRate) }
}
