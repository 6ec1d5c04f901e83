import Foundation
import Testing
import MovieMaker
internal import CMovieMakerTestKernels

/// The bounding box of pixels brighter than `threshold` (text is white on a dark background).
public func inkBox(_ px: PixelBuffer, threshold: UInt8 = 128, in area: (x: Range<Int>, y: Range<Int>)? = nil) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
    let xs = area?.x ?? 0..<px.width, ys = area?.y ?? 0..<px.height
    precondition(xs.lowerBound >= 0 && xs.upperBound <= px.width && ys.lowerBound >= 0 && ys.upperBound <= px.height
                 && px.bytes.count >= px.width * px.height * 4, "inkBox: \(xs), \(ys) outside \(px.width)x\(px.height)")
    var box = [Int](repeating: 0, count: 4)
    let count = px.bytes.withUnsafeBufferPointer { bytes in
        box.withUnsafeMutableBufferPointer {
            mmt_ink_box(bytes.baseAddress, Int32(px.width), Int32(xs.lowerBound), Int32(xs.upperBound), Int32(ys.lowerBound), Int32(ys.upperBound), threshold, $0.baseAddress)
        }
    }
    return count == 0 ? nil : (box[0], box[1], box[2], box[3], count)
}
