import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// DrawingContext primitives, checked by reading pixels back from a Canvas.
@Suite struct DrawingContextTests {
    private func canvas(_ w: Int = 100, _ h: Int = 100, _ body: (DrawingContext) throws -> Void) throws -> PixelBuffer {
        let c = try Canvas(width: w, height: h)
        try c.draw { ctx in ctx.clear(.black); try body(ctx) }
        return c.pixels()
    }

    @Test func fillsAndStrokesWithColoursAndAlpha() throws {
        let p = try canvas { ctx in
            ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 50, height: 50))
            ctx.setFill(Color.white.withAlpha(0.5)); ctx.fillRect(Rect(x: 50, y: 0, width: 50, height: 50))
            ctx.setStroke(.green); ctx.lineWidth = 10
            ctx.move(to: Point(x: 0, y: 80)); ctx.line(to: Point(x: 100, y: 80)); ctx.stroke()
        }
        #expect(p.rgba(x: 25, y: 25) == (255, 0, 0, 255))
        let half = p.rgba(x: 75, y: 25)
        #expect(abs(Int(half.red) - 128) <= 1 && half.red == half.green)
        #expect(p.rgba(x: 50, y: 80) == (0, 255, 0, 255))
        #expect(p.rgba(x: 50, y: 70) == (0, 0, 0, 255))   // outside the 10 px line
    }

    @Test func hexColoursParse() {
        #expect(Color(hex: "#ff8000") == Color(red: 1, green: 128.0 / 255, blue: 0))
        #expect(Color(hex: "0f0")?.green == 1)
        #expect(Color(hex: "#00000080")?.alpha == 128.0 / 255)
        #expect(Color(hex: "#12345") == nil)
        #expect(Color(hex: "zzzzzz") == nil)
    }

    @Test func curvesArcsAndEllipsesCoverTheRightPixels() throws {
        let p = try canvas { ctx in
            ctx.setFill(.white)
            ctx.fillEllipse(in: Rect(x: 10, y: 10, width: 40, height: 20))
            ctx.beginPath()
            ctx.arc(center: Point(x: 75, y: 75), radius: 20, startAngle: 0, endAngle: 2 * .pi)
            ctx.fill()
            ctx.setStroke(.red); ctx.lineWidth = 4
            ctx.move(to: Point(x: 0, y: 95)); ctx.quadCurve(to: Point(x: 50, y: 95), control: Point(x: 25, y: 55)); ctx.stroke()
        }
        #expect(p.rgba(x: 30, y: 20).red == 255)        // ellipse centre
        #expect(p.rgba(x: 12, y: 12).red == 0)          // ellipse's bounding-box corner stays empty
        #expect(p.rgba(x: 75, y: 75).red == 255)        // circle centre
        #expect(p.rgba(x: 75, y: 52).red == 0)          // just outside its radius
        // The quadratic curve's apex is halfway to the control point: y = 75.
        #expect(p.rgba(x: 25, y: 75).red == 255 && p.rgba(x: 25, y: 75).green == 0)
    }

    @Test func roundedRectanglesHaveRoundCorners() throws {
        let p = try canvas { ctx in
            ctx.setFill(.white); ctx.beginPath(); ctx.addRoundedRect(Rect(x: 10, y: 10, width: 80, height: 80), cornerRadius: 20); ctx.fill()
        }
        #expect(p.rgba(x: 11, y: 11).red == 0)
        #expect(p.rgba(x: 50, y: 11).red == 255)
        #expect(p.rgba(x: 50, y: 50).red == 255)
    }

    @Test func gradientsRunFromFirstToLastStop() throws {
        let p = try canvas(101, 10) { ctx in
            ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 101, y: 0), colors: [.black, .white]))
            ctx.fillRect(ctx.bounds)
        }
        #expect(p.rgba(x: 0, y: 5).red < 5)
        #expect(abs(Int(p.rgba(x: 50, y: 5).red) - 128) <= 3)
        #expect(p.rgba(x: 100, y: 5).red > 250)
        let r = try canvas { ctx in
            ctx.setFill(.radial(center: Point(x: 50, y: 50), radius: 50, colors: [.red, .blue]))
            ctx.fillRect(ctx.bounds)
        }
        #expect(r.rgba(x: 50, y: 50).red > 245 && r.rgba(x: 50, y: 50).blue < 10)
        #expect(r.rgba(x: 99, y: 50).blue > 240)
    }

    @Test func savedStateIsRestoredAfterTheScope() throws {
        let p = try canvas { ctx in
            ctx.setFill(.red)
            ctx.withSavedState {
                ctx.setFill(.blue); ctx.translate(x: 50, y: 0); ctx.lineWidth = 9
                ctx.fillRect(Rect(x: 0, y: 0, width: 10, height: 10))      // lands at x 50…60
            }
            #expect(ctx.lineWidth == 1)
            ctx.fillRect(Rect(x: 0, y: 0, width: 10, height: 10))          // red, untranslated
        }
        #expect(p.rgba(x: 5, y: 5) == (255, 0, 0, 255))
        #expect(p.rgba(x: 55, y: 5) == (0, 0, 255, 255))
    }

    @Test func transformsRotateAndScale() throws {
        let p = try canvas { ctx in
            ctx.translate(x: 50, y: 50); ctx.rotate(by: .pi / 2); ctx.scale(x: 2, y: 1)
            ctx.setFill(.white); ctx.fillRect(Rect(x: 0, y: -2, width: 20, height: 4))   // 40 px along +x, rotated to +y
        }
        #expect(p.rgba(x: 50, y: 85).red == 255)
        #expect(p.rgba(x: 85, y: 50).red == 0)
    }

    @Test func clippingLimitsDrawing() throws {
        let p = try canvas { ctx in
            ctx.clip(to: Rect(x: 0, y: 0, width: 50, height: 100))
            ctx.setFill(.white); ctx.fillRect(ctx.bounds)
        }
        #expect(p.rgba(x: 25, y: 50).red == 255)
        #expect(p.rgba(x: 75, y: 50).red == 0)
    }

    @Test func dashesLeaveGaps() throws {
        let p = try canvas { ctx in
            ctx.setStroke(.white); ctx.lineWidth = 4; ctx.setLineDash([10, 10])
            ctx.move(to: Point(x: 0, y: 50)); ctx.line(to: Point(x: 100, y: 50)); ctx.stroke()
        }
        #expect(p.rgba(x: 5, y: 50).red == 255)
        #expect(p.rgba(x: 15, y: 50).red == 0)
        #expect(p.rgba(x: 25, y: 50).red == 255)
    }

    @Test func pngImagesRoundTripAndDrawScaledIntoARect() throws {
        let dir = try TemporaryFolder()
        let source = try Canvas(width: 20, height: 10)
        try source.draw { ctx in
            ctx.setFill(.red); ctx.fillRect(Rect(x: 0, y: 0, width: 10, height: 10))
            ctx.setFill(.blue); ctx.fillRect(Rect(x: 10, y: 0, width: 10, height: 10))
        }
        let png = dir.file("two.png")
        try source.writePNG(to: png)
        let image = try Image(contentsOf: png)
        #expect(image.width == 20 && image.height == 10)
        let p = try canvas { ctx in ctx.draw(image, in: Rect(x: 0, y: 0, width: 100, height: 50)) }
        #expect(p.rgba(x: 20, y: 25) == (255, 0, 0, 255))
        #expect(p.rgba(x: 80, y: 25) == (0, 0, 255, 255))
        #expect(p.rgba(x: 50, y: 75) == (0, 0, 0, 255))
        let faded = try canvas { ctx in ctx.draw(image, in: Rect(x: 0, y: 0, width: 100, height: 50), opacity: 0.5) }
        #expect(abs(Int(faded.rgba(x: 20, y: 25).red) - 128) <= 1)
    }

    @Test func textDrawsGlyphsWithAFontFileAndMeasuresThem() throws {
        let font = try Font.dejaVuSans(size: 40)
        let p = try canvas(300, 60) { ctx in
            ctx.setFill(.white)
            try ctx.draw("Hello", at: Point(x: 10, y: 45), font: font)
        }
        let lit = stride(from: 0, to: p.bytes.count, by: 4).filter { p.bytes[$0 + 2] > 128 }.count
        #expect(lit > 300, "only \(lit) lit pixels")
        let c = try Canvas(width: 10, height: 10)
        let size = try c.context.measure("Hello", font: font)
        #expect(size.width > 80 && size.width < 140, "measured \(size)")
        // Rendering and measuring agree: ink reaches close to the measured advance and not beyond it.
        let inkColumns = (0..<300).filter { x in (0..<60).contains { p.rgba(x: x, y: $0).red > 0 } }
        let rightmost = try #require(inkColumns.max())
        #expect(Double(rightmost) <= 10 + size.width + 1, "ink at x \(rightmost), measured advance ends at \(10 + size.width)")
        #expect(Double(rightmost) >= 10 + size.width - 8, "ink stops at x \(rightmost), far short of \(10 + size.width)")
        #expect(try c.context.measure("Hello Hello", font: font).width > size.width * 2)
    }

    @Test func rawCairoEscapeHatchIsScoped() throws {
        let p = try canvas { ctx in
            ctx.setFill(.red)
            ctx.withCairoContext { cr in
                #expect(cr == ctx.cr)
                ctx.translate(x: 50, y: 50)   // undone when the scope ends
            }
            ctx.fillRect(Rect(x: 0, y: 0, width: 10, height: 10))
        }
        #expect(p.rgba(x: 5, y: 5).red == 255)
        #expect(p.rgba(x: 55, y: 55).red == 0)
    }
}
