import Foundation
import Testing
import MovieMaker

/// The bounding box of pixels brighter than `threshold` (text is white on a dark background).
public func inkBox(_ px: PixelBuffer, threshold: UInt8 = 128, in area: (x: Range<Int>, y: Range<Int>)? = nil) -> (minX: Int, minY: Int, maxX: Int, maxY: Int, count: Int)? {
    var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
    for y in area?.y ?? 0..<px.height {
        for x in area?.x ?? 0..<px.width {
            let p = px.rgba(x: x, y: y)
            if p.red > threshold && p.green > threshold && p.blue > threshold && p.alpha > threshold {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y); count += 1
            }
        }
    }
    return count == 0 ? nil : (minX, minY, maxX, maxY, count)
}
