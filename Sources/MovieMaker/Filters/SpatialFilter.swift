import Foundation

/// Filters that look at a pixel's neighbourhood or position (blur, sharpen, vignette, grain…).
///
/// Every parameter has the default a description file gives it when the key is left out
/// (`.vignette(amount: 0.5)`, `.grain()`, `.chromaKey()`); `FilterDefaultsTests` checks they agree.
///
/// Each works in place on the filtered clip's premultiplied pixels, on the drawing threads, rows split
/// over the cores. How each relates to the FFmpeg filter of the same purpose is written on its case.
public enum SpatialFilter: Sendable, Hashable {
    /// A Gaussian blur of CSS radius `radius` pixels (σ = radius / 2), as `DrawingContext.withBlur`.
    case blur(radius: FilterAmount = 10)

    /// An unsharp mask: each pixel moves away from its blurred self,
    /// `out = in + amount × (in − blur(in))`, the blur a Gaussian of CSS radius `radius` (σ = radius / 2);
    /// the frame's edges are extended (repeated), not faded to transparent.
    ///
    /// FFmpeg's `unsharp` computes the same expression with a binomial (Pascal's triangle) matrix of
    /// `msize` taps instead of a Gaussian: its variance is (msize − 1) / 4, so `unsharp` with
    /// `luma_msize_x = luma_msize_y = m` and `luma_amount = a` corresponds to `radius = √(m − 1)`,
    /// `amount = a` (msize 5 ↔ radius 2, msize 3 ↔ radius √2). The two kernels have the same width
    /// but not the same shape, so results differ by a level or two at hard edges. `unsharp` works on
    /// the Y plane (and, with `chroma_amount`, on U and V); this works on R, G, B and alpha alike.
    /// A negative amount blurs.
    case sharpen(amount: FilterAmount = 1, radius: FilterAmount = 2)

    /// Darker (or `color`-tinted) edges, FFmpeg's `vignette` formula: a pixel at distance d from the
    /// centre keeps a fraction cos⁴(angle × d / (radius × D)) of its colour, D being half the frame's
    /// diagonal (beyond radius × D the fraction stays at its value there), mixed with the original by
    /// `amount`: `f = 1 − amount × (1 − cos⁴(…))`.
    ///
    /// With `amount = 1`, `radius = 1` and black, this is `vignette=angle=…` on an RGB picture (FFmpeg's
    /// default angle π/5 leaves the corners at cos⁴(π/5) ≈ 43 %). FFmpeg dithers the product where this
    /// rounds it, and measures from pixel corners where this measures from pixel centres: each pixel
    /// differs by at most a level or so. Only colour is darkened: alpha is kept (a transparent pixel
    /// stays transparent, so the vignette applies to what the clip drew). With another `color` the
    /// edges fade towards it instead of black.
    case vignette(amount: FilterAmount = 1, angle: FilterAmount = .constant(Double.pi / 5), radius: FilterAmount = 1, color: Color = .black)

    /// Film grain: seeded noise added to the colour, its standard deviation `amount` × 64 levels of 255
    /// (amount 0.1 ≈ 6 levels), zero-mean so brightness is kept; `monochrome` adds the same noise to
    /// red, green and blue (luma grain), otherwise each channel gets its own.
    ///
    /// The pattern depends only on `seed`, the frame's exact time in the filtered clip and the pixel's
    /// position — never on threads or the order frames are drawn — so a render is reproducible, and
    /// every frame differs. Grain is scaled by each pixel's alpha and clamped to it, so premultiplied
    /// pixels stay valid and transparent ones stay transparent. FFmpeg's `noise` filter adds noise too,
    /// but seeded from its own generator, so the two cannot be compared pixel for pixel.
    case grain(amount: FilterAmount = 0.1, seed: Int = 0, monochrome: Bool = true)

    /// Blocks of `size` × `size` pixels (rounded to a whole number, at least 1), each filled with the
    /// average of its premultiplied pixels; blocks start at the top-left corner of the frame (the last
    /// ones on the right and at the bottom may be narrower). FFmpeg 6's `pixelize` (mode `avg`) does
    /// the same; FFmpeg 5.1 has no such filter.
    case pixelate(size: FilterAmount = 16)

    /// A chroma key (green screen): pixels whose chroma is near `color` become transparent, with
    /// `similarity` and `blend` as FFmpeg's `chromakey` filter defines them, then green (or blue, or
    /// red: the key colour's strongest channel) spill is removed from what is kept.
    ///
    /// Keying: every pixel's chroma (U, V by the BT.601 full-range matrix, as FFmpeg converts the key
    /// colour) is compared with the key's, distance = √((ΔU² + ΔV²) / (2 × 255²)), averaged over the
    /// pixel's 3 × 3 neighbourhood as `chromakey` does; the pixel keeps a fraction
    /// clamp((distance − similarity) / blend, 0, 1) of its alpha (with blend 0: all of it when the
    /// distance is above similarity, none otherwise). FFmpeg's `chromakey` computes exactly this on
    /// yuva444p input; at the frame's edge it counts pixels beyond it as stale values, this repeats
    /// the edge. `colorkey` compares R, G, B instead (it keys on brightness too); FFmpeg's `despill`
    /// (type green, mix 0.5, expand 0) is the spill step with `spill = 1`: green is limited to the
    /// mean of red and blue, `g' = g − spill × max(0, g − (r + b) / 2)`.
    case chromaKey(color: Color = Color(red: 0, green: 1, blue: 0), similarity: FilterAmount = 0.15, blend: FilterAmount = 0.1, spill: FilterAmount = 0.5)
}

extension SpatialFilter {
    static let descriptors: [FilterDescriptor] = [
        FilterDescriptor("blur", "A Gaussian blur (σ = radius / 2, as CSS blur()); FFmpeg's gblur with sigma = radius / 2.", [
            FilterParameter("radius", .amount(0...GaussianBlur.maximumRadius), "The blur radius in pixels (default 10)."),
        ]) { a throws(MovieMakerError) in .spatial(.blur(radius: try a.amount("radius", default: 10))) },
        FilterDescriptor("sharpen", "An unsharp mask: out = in + amount × (in − Gaussian blur of radius `radius`); FFmpeg's unsharp with luma_msize = radius² + 1 and luma_amount = amount (its matrix is binomial, this blur Gaussian).", [
            FilterParameter("amount", .amount(-2...5), "How much: 0 unchanged, 1 doubles the detail, negative blurs (default 1)."),
            FilterParameter("radius", .amount(0...100), "The radius of the blur the detail is measured against, in pixels (σ = radius / 2; default 2, FFmpeg's msize 5)."),
        ]) { a throws(MovieMakerError) in
            .spatial(.sharpen(amount: try a.amount("amount", default: 1), radius: try a.amount("radius", default: 2)))
        },
        FilterDescriptor("vignette", "Darker edges, FFmpeg's vignette formula: colour × (1 − amount × (1 − cos⁴(angle × d / (radius × half the diagonal)))), d the distance from the centre; alpha kept.", [
            FilterParameter("amount", .amount(0...1), "How much of the darkening: 0 none, 1 all (default 1, as FFmpeg)."),
            FilterParameter("angle", .amount(0...(Double.pi / 2)), "The lens angle in radians: larger is darker, the corners keep cos⁴(angle) (default π/5 ≈ 0.628, as FFmpeg)."),
            FilterParameter("radius", .amount(0.05...4), "Where the darkening reaches its full value, as a fraction of half the frame's diagonal (default 1: the corners)."),
            FilterParameter("color", .color, "The colour the edges fade to (default black)."),
        ]) { a throws(MovieMakerError) in
            .spatial(.vignette(amount: try a.amount("amount", default: 1), angle: try a.amount("angle", default: Double.pi / 5),
                               radius: try a.amount("radius", default: 1), color: try a.color("color", default: .black)))
        },
        FilterDescriptor("grain", "Film grain: seeded zero-mean noise, standard deviation amount × 64 levels; the pattern depends only on the seed, the frame's time and the pixel.", [
            FilterParameter("amount", .amount(0...1), "The grain's standard deviation as a fraction of 64 levels of 255 (default 0.1, about 6 levels)."),
            FilterParameter("seed", .integer(0...Int(Int32.max)), "Which pattern: the same seed gives the same grain (default 0)."),
            FilterParameter("monochrome", .boolean, "Whether red, green and blue get the same noise (default true)."),
        ]) { a throws(MovieMakerError) in
            .spatial(.grain(amount: try a.amount("amount", default: 0.1), seed: try a.integer("seed", default: 0),
                            monochrome: try a.bool("monochrome", default: true)))
        },
        FilterDescriptor("pixelate", "Blocks of size × size pixels from the top-left corner, each the average of its pixels (FFmpeg 6's pixelize, mode avg).", [
            FilterParameter("size", .amount(1...1000), "The block size in pixels, rounded to a whole number (default 16)."),
        ]) { a throws(MovieMakerError) in .spatial(.pixelate(size: try a.amount("size", default: 16))) },
        FilterDescriptor("chromaKey", "A chroma key (green screen): pixels whose chroma (U, V) is near the colour become transparent, FFmpeg's chromakey similarity and blend, then spill of the key colour is removed (FFmpeg's despill).", [
            FilterParameter("color", .color, "The key colour (default #00ff00)."),
            FilterParameter("similarity", .amount(0...1), "How far in chroma a colour may be from the key and still be removed, 0 … 1 as FFmpeg's chromakey (default 0.15)."),
            FilterParameter("blend", .amount(0...1), "The chroma distance beyond similarity over which pixels go from transparent to opaque (default 0.1; 0: a hard edge)."),
            FilterParameter("spill", .amount(0...1), "How much of the key colour's spill to remove from the kept pixels: 0 none, 1 all, FFmpeg's despill (default 0.5)."),
        ]) { a throws(MovieMakerError) in
            .spatial(.chromaKey(color: try a.color("color", default: Color(red: 0, green: 1, blue: 0)),
                                similarity: try a.amount("similarity", default: 0.15), blend: try a.amount("blend", default: 0.1),
                                spill: try a.amount("spill", default: 0.5)))
        },
    ]

    /// The filter as a description file writes it.
    var spec: FilterSpec {
        switch self {
        case let .blur(radius): return FilterSpec(name: "blur", parameters: ["radius": FilterJSON.amount(radius)])
        case let .sharpen(amount, radius):
            return FilterSpec(name: "sharpen", parameters: ["amount": FilterJSON.amount(amount), "radius": FilterJSON.amount(radius)])
        case let .vignette(amount, angle, radius, color):
            return FilterSpec(name: "vignette", parameters: ["amount": FilterJSON.amount(amount), "angle": FilterJSON.amount(angle),
                                                             "radius": FilterJSON.amount(radius), "color": FilterJSON.color(color)])
        case let .grain(amount, seed, monochrome):
            return FilterSpec(name: "grain", parameters: ["amount": FilterJSON.amount(amount), "seed": .integer(seed),
                                                          "monochrome": .bool(monochrome)])
        case let .pixelate(size): return FilterSpec(name: "pixelate", parameters: ["size": FilterJSON.amount(size)])
        case let .chromaKey(color, similarity, blend, spill):
            return FilterSpec(name: "chromaKey", parameters: ["color": FilterJSON.color(color), "similarity": FilterJSON.amount(similarity),
                                                              "blend": FilterJSON.amount(blend), "spill": FilterJSON.amount(spill)])
        }
    }

    /// The filter with its pixel sizes multiplied by `factor`.
    func scaled(by factor: Double) -> SpatialFilter {
        switch self {
        case let .blur(radius): return .blur(radius: radius.scaled(by: factor))
        case let .sharpen(amount, radius): return .sharpen(amount: amount, radius: radius.scaled(by: factor))
        case let .pixelate(size): return .pixelate(size: size.scaled(by: factor))
        default: return self   // relative to the frame (vignette) or per pixel (grain, chroma key)
        }
    }

    /// Applies the filter to `image` in place.
    func apply(to image: FilterImage, at time: FilterTime) throws(MovieMakerError) {
        let t = time.seconds
        func value(_ a: FilterAmount, _ range: ClosedRange<Double>) -> Double {
            let v = a.value(at: t)
            return v.isFinite ? min(max(v, range.lowerBound), range.upperBound) : range.lowerBound
        }
        switch self {
        case let .blur(radius):
            SpatialKernels.blur(image, radius: value(radius, 0...GaussianBlur.maximumRadius))
        case let .sharpen(amount, radius):
            SpatialKernels.sharpen(image, amount: Float(value(amount, -2...5)), radius: value(radius, 0...100))
        case let .vignette(amount, angle, radius, color):
            SpatialKernels.vignette(image, amount: Float(value(amount, 0...1)), angle: value(angle, 0...(Double.pi / 2)),
                                    radius: value(radius, 0.05...4), color: color)
        case let .grain(amount, seed, monochrome):
            SpatialKernels.grain(image, amount: Float(value(amount, 0...1)), seed: seed, monochrome: monochrome, time: time)
        case let .pixelate(size):
            SpatialKernels.pixelate(image, size: Int(value(size, 1...1000).rounded()))
        case let .chromaKey(color, similarity, blend, spill):
            SpatialKernels.chromaKey(image, key: color, similarity: Float(value(similarity, 0...1)), blend: Float(value(blend, 0...1)),
                                     spill: Float(value(spill, 0...1)))
        }
    }
}
