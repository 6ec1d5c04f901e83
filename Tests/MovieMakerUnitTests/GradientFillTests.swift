import Foundation
import Testing
@testable import MovieMaker

/// Linear-gradient fills rasterized into an image (GradientFill.swift) against Cairo's own gradient.
@Suite struct GradientFillTests {
    /// The pixels `body` draws on a transparent canvas, rasterized fills on or off.
    private func render(native: Bool, _ body: @escaping (DrawingContext) -> Void) throws -> PixelBuffer {
        try GradientFills.$native.withValue(native) {
            let canvas = try Canvas(width: 320, height: 240)
            try canvas.draw { ctx in body(ctx) }
            return canvas.pixels()
        }
    }

    /// The largest and the mean difference between two buffers, over every byte.
    private func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (max: Int, mean: Double) {
        var largest = 0, sum = 0
        for (x, y) in zip(a.bytes, b.bytes) { let d = abs(Int(x) - Int(y)); largest = max(largest, d); sum += d }
        return (largest, Double(sum) / Double(a.bytes.count))
    }

    /// A closed shape of four cubic Béziers around (cx, cy), like the benchmark's W1.
    private func blob(_ ctx: DrawingContext, cx: Double, cy: Double, r: Double, spin: Double) {
        ctx.beginPath()
        func at(_ a: Double, _ k: Double) -> Point { Point(x: cx + k * r * cos(a), y: cy + k * r * sin(a)) }
        ctx.move(to: at(spin, 1))
        for j in 0..<4 {
            let a = spin + Double(j) * .pi / 2
            ctx.curve(to: at(a + .pi / 2, 1), control1: at(a + 0.5, 1.4), control2: at(a + 1.1, 1.3))
        }
        ctx.closePath()
    }

    private static let light = Color(red: 1, green: 0.8, blue: 0.3, alpha: 0.85)
    private static let dark = Color(red: 0.3, green: 0.05, blue: 0.5, alpha: 0.85)

    /// One fill per case, each alone on a transparent canvas: every byte within one level of Cairo's.
    static let cases: [(name: String, draw: @Sendable (DrawingContext) -> Void)] = [
        ("three translucent stops across a Bézier shape", { ctx in
            ctx.setFill(.linear(from: Point(x: 60, y: 40), to: Point(x: 260, y: 200), colors: [light, dark, light]))
            GradientFillTests().blob(ctx, cx: 160, cy: 120, r: 90, spin: 0.3); ctx.fill()
        }),
        ("an opaque full-frame background at a slant", { ctx in
            ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 320, y: 170), colors: [Color(red: 0.1, green: 0.12, blue: 0.3), Color(red: 0.35, green: 0.2, blue: 0.4)]))
            ctx.fillRect(ctx.bounds)
        }),
        ("unsorted stops inside 0…1 with changing alpha", { ctx in
            ctx.setFill(.linear(from: Point(x: 300, y: 10), to: Point(x: 20, y: 230), stops: [
                GradientStop(0.8, Color(red: 0, green: 0.6, blue: 1, alpha: 0.2)), GradientStop(0.2, Color(red: 1, green: 0.1, blue: 0, alpha: 1)),
                GradientStop(0.5, Color(red: 0.9, green: 0.9, blue: 0.9, alpha: 0.6))]))
            ctx.fillRect(Rect(x: 10, y: 10, width: 300, height: 220))
        }),
        ("under a rotation and a scale", { ctx in
            ctx.translate(x: 160, y: 120); ctx.rotate(by: 0.6); ctx.scale(x: 1.7, y: 0.8)
            ctx.setFill(.linear(from: Point(x: -50, y: -40), to: Point(x: 60, y: 30), colors: [light, dark]))
            GradientFillTests().blob(ctx, cx: 0, cy: 0, r: 55, spin: 1.1); ctx.fill()
        }),
        ("inside a clip", { ctx in
            ctx.clip(to: Rect(x: 40.5, y: 30.25, width: 170, height: 120))
            ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 0, y: 240), colors: [dark, light]))
            GradientFillTests().blob(ctx, cx: 130, cy: 100, r: 100, spin: 0); ctx.fill()
        }),
        ("inside a group layer", { ctx in
            ctx.withGroup(opacity: 0.7) {
                ctx.setFill(.linear(from: Point(x: 30, y: 200), to: Point(x: 290, y: 40), colors: [light, dark, light]))
                GradientFillTests().blob(ctx, cx: 170, cy: 110, r: 80, spin: 0.9); ctx.fillAndStroke()
            }
        }),
    ]

    @Test(arguments: 0..<cases.count) func aRasterizedFillIsWithinOneLevelOfCairos(_ index: Int) throws {
        let draw = Self.cases[index].draw
        let cairo = try render(native: true, draw), ours = try render(native: false, draw)
        let d = difference(cairo, ours)
        #expect(d.max <= 1, "\(Self.cases[index].name): largest difference \(d.max) levels")
        #expect(d.mean < 0.05, "\(Self.cases[index].name): mean difference \(d.mean)")
        // Something was drawn, so the comparison means something.
        #expect(ours.bytes.contains { $0 > 40 })
    }

    @Test func theCasesAboveTakeTheRasterizedPath() throws {
        for (name, draw) in Self.cases {
            let canvas = try Canvas(width: 320, height: 240)
            let counter = EventCounter()
            try GradientFills.$rasterized.withValue(counter) { try canvas.draw { ctx in draw(ctx) } }
            #expect(counter.count == 1, "\(name): \(counter.count) rasterized fills")
        }
    }

    @Test func fillsThatCannotBeMatchedAreLeftToCairo() throws {
        let hardEdge: [GradientStop] = [GradientStop(0, .red), GradientStop(0.5, .red), GradientStop(0.5, .blue), GradientStop(1, .blue)]
        let cases: [(String, (DrawingContext) -> Void)] = [
            ("stops sharing a location", { ctx in ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 320, y: 0), stops: hardEdge)); ctx.fillRect(ctx.bounds) }),
            ("a fill smaller than 32×32", { ctx in ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 20, y: 20), colors: [.red, .blue])); ctx.fillRect(Rect(x: 0, y: 0, width: 20, height: 20)) }),
            ("a blend mode other than normal", { ctx in ctx.blendMode = .multiply; ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 320, y: 0), colors: [.red, .blue])); ctx.fillRect(ctx.bounds) }),
            ("one stop", { ctx in ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 320, y: 0), stops: [GradientStop(0.3, .green)])); ctx.fillRect(ctx.bounds) }),
            ("a gradient of no length", { ctx in ctx.setFill(.linear(from: Point(x: 5, y: 5), to: Point(x: 5, y: 5), colors: [.red, .blue])); ctx.fillRect(ctx.bounds) }),
            ("inside a shadow (drawn to a recording surface)", { ctx in
                ctx.withShadow(Shadow(offset: Point(x: 6, y: 4), blur: 5)) {
                    ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 320, y: 100), colors: [.red, .blue])); ctx.fillRect(Rect(x: 40, y: 40, width: 200, height: 120))
                }
            }),
        ]
        for (name, draw) in cases {
            let counter = EventCounter()
            let canvas = try Canvas(width: 320, height: 240)
            try GradientFills.$rasterized.withValue(counter) { try canvas.draw { ctx in ctx.clear(.white); draw(ctx) } }
            #expect(counter.count == 0, "\(name) was rasterized")
            let reference = try render(native: true) { ctx in ctx.clear(.white); draw(ctx) }
            #expect(canvas.pixels() == reference, "\(name) differs from Cairo's fill")
        }
    }

    @Test func aFillLargerThanTheScratchBoundIsLeftToCairo() throws {
        // 2100 × 2100 px is over 4 Mi px: a full-canvas fill there would need a larger scratch than allowed.
        let side = 2100
        #expect(side * side > DrawingContext.largestRasterizedGradientArea)
        let counter = EventCounter()
        let canvas = try Canvas(width: side, height: side)
        try GradientFills.$rasterized.withValue(counter) {
            try canvas.draw { ctx in
                ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 2100, y: 900), colors: [.red, .blue]))
                ctx.fillRect(ctx.bounds)                                                  // the whole canvas: Cairo's
                ctx.fillRect(Rect(x: 0, y: 0, width: 2049, height: 2048))                 // one column over: Cairo's
                ctx.fillRect(Rect(x: 0, y: 0, width: 2048, height: 2048))                 // exactly 4 Mi px: rasterized
            }
        }
        #expect(counter.count == 1)
    }

    /// Fifty overlapping translucent shapes on a gradient background, as in the benchmark's W1: each
    /// fill is within a level, so where shapes overlap the differences can add up, but barely.
    @Test func aFrameOfOverlappingTranslucentShapesMatchesCairosClosely() throws {
        let scene: (DrawingContext) -> Void = { ctx in
            ctx.setFill(.linear(from: Point(x: 0, y: 0), to: Point(x: 320, y: 150), colors: [Color(red: 0.08, green: 0.1, blue: 0.2), Color(red: 0.3, green: 0.2, blue: 0.4)]))
            ctx.fillRect(ctx.bounds)
            ctx.lineWidth = 2
            for k in 0..<50 {
                let u = Double(k) * 0.618_033_988_749_895, f = u - u.rounded(.down)
                let cx = 320 * (0.5 + 0.42 * sin(Double(k) * 1.3)), cy = 240 * (0.5 + 0.4 * cos(Double(k) * 0.7)), r = 20 + 30 * f
                let light = Color(red: f, green: 0.7, blue: 1 - f, alpha: 0.85), dark = Color(red: 0.4 * f, green: 0.1, blue: 0.5, alpha: 0.85)
                ctx.setFill(.linear(from: Point(x: cx - r, y: cy - r), to: Point(x: cx + r, y: cy + r), colors: [light, dark, light]))
                ctx.setStroke(Color(white: 1, alpha: 0.9))
                GradientFillTests().blob(ctx, cx: cx, cy: cy, r: r, spin: Double(k))
                ctx.fillAndStroke()
            }
        }
        let cairo = try render(native: true, scene), ours = try render(native: false, scene)
        let d = difference(cairo, ours)
        let over1 = zip(cairo.bytes, ours.bytes).filter { abs(Int($0) - Int($1)) > 1 }.count
        #expect(d.max <= 2, "largest difference \(d.max)")
        #expect(d.mean < 0.02, "mean difference \(d.mean)")
        #expect(Double(over1) / Double(cairo.bytes.count) < 1e-4, "\(over1) bytes differ by more than a level")
    }
}
