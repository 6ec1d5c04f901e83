internal import CCairo
import Foundation
import Synchronization

/// A decoded photo: upright, in sRGB, as an image ready to draw, with what its file said.
public struct DecodedPhoto: Sendable {
    /// The pixels: premultiplied BGRA in sRGB, upright. Its size is the decoded size, which depends
    /// on the `PhotoScaling` asked for (see `PhotoScaling`).
    public let image: Image
    /// The file's header facts (full upright size, orientation, capture date, colour profile).
    public let info: PhotoInfo
}
