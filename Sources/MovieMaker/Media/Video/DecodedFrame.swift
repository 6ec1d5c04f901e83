internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// One decoded picture.
public struct DecodedFrame: Sendable {
    /// Position in presentation order, from 0.
    public let index: Int
    /// Presentation time, exact in the stream's time base.
    public let presentationTime: Time
    /// The picture converted to premultiplied BGRA (as MovieMaker draws), using the stream's own colour
    /// tags: opaque, unless the stream has alpha, whose values are then kept.
    public let pixels: PixelBuffer
}
