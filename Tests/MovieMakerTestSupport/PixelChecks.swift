import Foundation
import Testing
import MovieMaker
internal import CMovieMakerTestKernels

/// The bounding box of pixels brighter than `threshold` (text is white on a dark background): red,
/// green, blue and alpha all above it.
public func inkBox(_ px: PixelBuffer, threshold: UInt8 = 128, in area: (x: Range<Int>, y: Range<Int>)? = nil) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
    guard threshold < 255 else { return nil }
    let above = (threshold + 1)...255
    return colorBox(px, red: above, green: above, blue: above, alpha: above, in: area)
}

/// The bounding box and count of the pixels (in `area`, else the whole picture) whose red, green, blue
/// and alpha bytes each lie in the range given.
public func colorBox(_ px: PixelBuffer, red: ClosedRange<UInt8> = 0...255, green: ClosedRange<UInt8> = 0...255,
                     blue: ClosedRange<UInt8> = 0...255, alpha: ClosedRange<UInt8> = 0...255,
                     in area: (x: Range<Int>, y: Range<Int>)? = nil) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
    let xs = area?.x ?? 0..<px.width, ys = area?.y ?? 0..<px.height
    precondition(xs.lowerBound >= 0 && xs.upperBound <= px.width && ys.lowerBound >= 0 && ys.upperBound <= px.height
                 && px.bytes.count >= px.width * px.height * 4, "colorBox: \(xs), \(ys) outside \(px.width)x\(px.height)")
    // The bytes are B, G, R, A.
    let lo = [blue.lowerBound, green.lowerBound, red.lowerBound, alpha.lowerBound]
    let hi = [blue.upperBound, green.upperBound, red.upperBound, alpha.upperBound]
    var box = [Int](repeating: 0, count: 4)
    let count = px.bytes.withUnsafeBufferPointer { bytes in
        box.withUnsafeMutableBufferPointer {
            mmt_color_box(bytes.baseAddress, Int32(px.width), Int32(xs.lowerBound), Int32(xs.upperBound),
                          Int32(ys.lowerBound), Int32(ys.upperBound), lo, hi, $0.baseAddress)
        }
    }
    return count == 0 ? nil : (box[0], box[1], box[2], box[3], count)
}

/// The lowest and highest value of red, green and blue over the whole picture (nil when it has no pixels).
public func channelRanges(_ px: PixelBuffer) -> (red: ClosedRange<Int>?, green: ClosedRange<Int>?, blue: ClosedRange<Int>?) {
    precondition(px.bytes.count >= px.width * px.height * 4)
    var lo = [UInt8](repeating: 0, count: 3), hi = [UInt8](repeating: 0, count: 3)
    px.bytes.withUnsafeBufferPointer { mmt_channel_ranges($0.baseAddress, px.width * px.height, &lo, &hi) }
    // Bytes are B, G, R.
    func range(_ c: Int) -> ClosedRange<Int>? { lo[c] <= hi[c] ? Int(lo[c])...Int(hi[c]) : nil }
    return (range(2), range(1), range(0))
}
