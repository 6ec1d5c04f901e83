internal import CCairo
import Foundation

/// A copy of drawn pixels: premultiplied BGRA, 4 bytes a pixel, rows packed without padding.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// B, G, R, A bytes row by row.
    public var bytes: [UInt8]

    /// Creates a buffer from packed BGRA bytes (`bytes.count` must be width × height × 4).
    public init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "expected \(width * height * 4) bytes, got \(bytes.count)")
        self.width = width; self.height = height; self.bytes = bytes
    }
    /// The colour at a pixel, as 8-bit (red, green, blue, alpha).
    public func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let i = (y * width + x) * 4
        return (bytes[i + 2], bytes[i + 1], bytes[i], bytes[i + 3])
    }
    /// Copies a Cairo surface's visible pixels.
    init(surface: CairoSurface, width: Int, height: Int) {
        surface.flush()
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                (dst.baseAddress! + y * width * 4).update(from: surface.data + y * surface.stride, count: width * 4)
            }
        }
        self.init(width: width, height: height, bytes: out)
    }
}
