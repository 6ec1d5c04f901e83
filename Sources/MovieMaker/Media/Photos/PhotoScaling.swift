internal import CCairo
import Foundation
import Synchronization

/// How large a decoded photo should be. Decoding smaller is cheaper: a JPEG is scaled in the DCT,
/// WebP while decoding, PNG while its rows stream by, so a 50-megapixel photo shown at 1080p never
/// exists at full size in memory (HEIF, TIFF, BMP and GIF are decoded whole, then reduced).
public enum PhotoScaling: Hashable, Sendable {
    /// Every pixel of the photo.
    case fullSize
    /// Large enough to show the whole photo inside a box of this size without enlarging it:
    /// at least the fitted size, at most about twice it per side, never more than the photo.
    case fitting(Size)
    /// Large enough to cover a box of this size completely (the photo is cropped to it when drawn).
    case filling(Size)

    /// The factor (≤ 1) the upright photo must keep at least. Filling a box with a very long panorama
    /// (a 36000×1300 photo covering 1080p) would need more than an image's 32767 pixels a side: it is
    /// kept to that (and drawn a little enlarged), as it failed the render, found only when drawn.
    func scale(forWidth width: Int, height: Int) -> Double {
        let w = Double(max(1, width)), h = Double(max(1, height))
        switch self {
        case .fullSize: return 1
        case let .fitting(box):
            guard box.width > 0, box.height > 0 else { return 1 }
            return min(1, min(box.width / w, box.height / h))
        case let .filling(box):
            guard box.width > 0, box.height > 0 else { return 1 }
            let largest = Double(PhotoRaster.maximumSide)
            return min(1, max(box.width / w, box.height / h), largest / w, largest / h)
        }
    }
}
