import Foundation
import MovieMaker

/// Small photos written with the library, for slideshow, photo-leaf and photo-provider tests.
public enum TestPhotos {
    /// Writes a `w`×`h` PNG of one colour with a white square in its top-left corner.
    public static func photo(_ color: Color, _ name: String, in folder: TemporaryFolder, w: Int = 160, h: Int = 120) throws -> URL {
        let c = try Canvas(width: w, height: h)
        try c.draw { ctx in
            ctx.clear(color)
            ctx.setFill(.white)
            ctx.fillRect(Rect(x: 0, y: 0, width: Double(w) / 8, height: Double(h) / 8))
        }
        let url = folder.file(name)
        try c.writePNG(to: url)
        return url
    }

    /// The mean red, green and blue over a region.
    public static func mean(_ px: PixelBuffer, x: Range<Int>, y: Range<Int>) -> (Double, Double, Double) {
        var r = 0.0, g = 0.0, b = 0.0
        for yy in y { for xx in x { let p = px.rgba(x: xx, y: yy); r += Double(p.red); g += Double(p.green); b += Double(p.blue) } }
        let n = Double(x.count * y.count)
        return (r / n, g / n, b / n)
    }

    /// A 96×72 yellow PNG with a black rectangle near its top-left corner, named `photo.png`.
    public static func yellow(in folder: TemporaryFolder) throws -> URL {
        let canvas = try Canvas(width: 96, height: 72)
        try canvas.draw { ctx in
            ctx.clear(.yellow)
            ctx.setFill(.black)
            ctx.fillRect(Rect(x: 10, y: 10, width: 30, height: 20))
        }
        let url = folder.file("photo.png")
        try canvas.writePNG(to: url)
        return url
    }
}
