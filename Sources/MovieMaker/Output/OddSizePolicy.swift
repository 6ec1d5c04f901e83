internal import CFFmpeg
internal import CMovieMakerShim
import Foundation

/// What to do with an odd width or height, which 4:2:0 video cannot store.
public enum OddSizePolicy: Sendable {
    /// Throw `MovieMakerError.oddSize` (the default: the caller decides).
    case reject
    /// Encode one extra black row/column; drawing still sees the requested size.
    case pad
}
