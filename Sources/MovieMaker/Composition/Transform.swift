internal import CCairo
import Foundation

/// A value that is constant or follows a keyframe track in a clip's own time (a transform's position,
/// scale, rotation or opacity).
public enum Animated<Value: Interpolatable & Sendable & Hashable>: Sendable, Hashable {
    /// The same value on every frame.
    case constant(Value)
    /// The track's value at the frame's time in the clip.
    case keyframes(KeyframeTrack<Value>)

    /// The value at `seconds` of the clip's time.
    public func value(at seconds: Double) -> Value {
        switch self {
        case let .constant(v): return v
        case let .keyframes(track): return track.value(at: seconds)
        }
    }
    /// The constant, or nil when the value changes.
    package var constantValue: Value? { if case let .constant(v) = self { return v } else { return nil } }
}

extension Animated: Codable where Value: Codable {
    /// Reads a plain value, or `{"keyframes": […]}` (see `KeyframeTrack`).
    public init(from decoder: any Decoder) throws {
        if let track = try? KeyframeTrack<Value>(from: decoder) { self = .keyframes(track); return }
        self = .constant(try Value(from: decoder))
    }
    /// Writes the plain value or the keyframes.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case let .constant(v): try v.encode(to: encoder)
        case let .keyframes(track): try track.encode(to: encoder)
        }
    }
}

extension BlendMode {
    /// The mode's name as written in descriptions: `normal`, `multiply`, `screen`, … (the case's name).
    public var name: String { "\(self)" }
    /// The mode named `name` (a case's name), or nil.
    public init?(name: String) {
        guard let mode = BlendMode.allCases.first(where: { $0.name == name }) else { return nil }
        self = mode
    }
}

extension Clip {
    /// How a `transformed` node places its clip in the frame: moved, scaled, rotated, flipped, cropped,
    /// faded and blended. Position, scale, rotation and opacity can follow keyframes.
    ///
    /// The clip is drawn as a picture the size of the frame; `anchor` is a point of that picture in unit
    /// coordinates ((0.5, 0.5), the centre, by default). The anchor is put at `position` (frame pixels;
    /// by default where it already is), and the picture is scaled, flipped and rotated (clockwise, in
    /// degrees) around it. `crop` keeps part of the picture (unit coordinates, before the transform),
    /// with `cornerRadius` rounding its corners. Rotations by multiples of 90° use exact matrices, so a
    /// quarter turn of a picture centred on whole pixels moves pixels without resampling.
    public struct Transform: Sendable, Hashable {
        /// Where the anchor goes, in frame pixels (nil: where it is in the untransformed picture).
        public var position: Animated<Point>?
        /// The point of the picture that is placed, scaled and rotated around, in unit coordinates.
        public var anchor: Point
        /// The size factor (1: as drawn; negative values are refused, use `flipHorizontally`).
        public var scale: Animated<Double>
        /// The rotation in degrees, clockwise.
        public var rotation: Animated<Double>
        /// Mirrors the picture left to right.
        public var flipHorizontally: Bool
        /// Mirrors the picture top to bottom.
        public var flipVertically: Bool
        /// The part of the picture kept, in unit coordinates (nil: all of it).
        public var crop: Rect?
        /// The radius of the kept part's corners, in the picture's pixels (0: square).
        public var cornerRadius: Double
        /// How opaque the picture is drawn, 0…1.
        public var opacity: Animated<Double>
        /// How the picture combines with what is below.
        public var blendMode: BlendMode

        /// A transform; every parameter defaults to leaving the clip as it is.
        public init(position: Animated<Point>? = nil, anchor: Point = Point(x: 0.5, y: 0.5), scale: Animated<Double> = .constant(1),
                    rotation: Animated<Double> = .constant(0), flipHorizontally: Bool = false, flipVertically: Bool = false,
                    crop: Rect? = nil, cornerRadius: Double = 0, opacity: Animated<Double> = .constant(1), blendMode: BlendMode = .normal) {
            self.position = position; self.anchor = anchor; self.scale = scale; self.rotation = rotation
            self.flipHorizontally = flipHorizontally; self.flipVertically = flipVertically
            self.crop = crop; self.cornerRadius = cornerRadius; self.opacity = opacity; self.blendMode = blendMode
        }

        /// Whether the transform leaves the clip exactly as it is.
        package var isIdentity: Bool {
            position == nil && scale == .constant(1) && rotation == .constant(0) && !flipHorizontally && !flipVertically
                && crop == nil && cornerRadius == 0 && opacity == .constant(1) && blendMode == .normal
        }

        /// The affine matrix from the picture's pixels to the frame's at `seconds`, for a `size` frame:
        /// (a, b, c, d, tx, ty) mapping (x, y) to (a x + c y + tx, b x + d y + ty).
        func matrix(at seconds: Double, frameSize size: Size) -> (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
            let ax = anchor.x * size.width, ay = anchor.y * size.height
            let p = position?.value(at: seconds) ?? Point(x: ax, y: ay)
            // An easing that overshoots (backIn from 0) passes below 0, which would mirror the picture.
            let s = max(0, scale.value(at: seconds))
            let (cosine, sine) = Transform.exactCosSin(degrees: rotation.value(at: seconds))
            let sx = s * (flipHorizontally ? -1 : 1), sy = s * (flipVertically ? -1 : 1)
            // M = T(p) · R(θ) · S(sx, sy) · T(−anchor)
            let a = cosine * sx, b = sine * sx, c = -sine * sy, d = cosine * sy
            return (a, b, c, d, p.x - (a * ax + c * ay), p.y - (b * ax + d * ay))
        }

        /// cos and sin of `degrees`, exact (0, ±1) at multiples of 90°.
        static func exactCosSin(degrees: Double) -> (Double, Double) {
            guard degrees.isFinite else { return (1, 0) }
            let turns = degrees / 90
            if turns == turns.rounded() {
                switch ((Int(turns.truncatingRemainder(dividingBy: 4)) % 4) + 4) % 4 {
                case 0: return (1, 0)
                case 1: return (0, 1)
                case 2: return (-1, 0)
                default: return (0, -1)
                }
            }
            let r = degrees * .pi / 180
            return (cos(r), sin(r))
        }

        /// Checks the values a user gave: finite, scale and opacity in range, the crop inside the picture.
        func validate() throws(MovieMakerError) {
            func finite(_ v: [Double], _ what: String) throws(MovieMakerError) {
                if let bad = v.first(where: { !$0.isFinite }) {
                    throw .invalidSetting(.transform, value: "\(what) \(bad)", expected: "finite numbers")
                }
            }
            let scales = scale.keyValues, angles = rotation.keyValues, opacities = opacity.keyValues
            try finite(scales, "scale"); try finite(angles, "rotation"); try finite(opacities, "opacity")
            if let bad = scales.first(where: { $0 < 0 || $0 > 100 }) {
                throw .invalidSetting(.transform, value: "scale \(bad)", expected: "a scale from 0 to 100 (flip with flipHorizontally/flipVertically)")
            }
            if let bad = opacities.first(where: { $0 < 0 || $0 > 1 }) {
                throw .invalidSetting(.transform, value: "opacity \(bad)", expected: "an opacity from 0 to 1")
            }
            if let points = position?.keyValues, let bad = points.first(where: { !$0.x.isFinite || !$0.y.isFinite || abs($0.x) > 1e6 || abs($0.y) > 1e6 }) {
                throw .invalidSetting(.transform, value: "position \(bad)", expected: "finite pixel coordinates within ±1000000")
            }
            if let crop, !(crop.minX >= 0 && crop.minY >= 0 && crop.maxX <= 1 && crop.maxY <= 1 && crop.width > 0 && crop.height > 0) {
                throw .invalidSetting(.transform, value: "crop \(crop)", expected: "a rectangle inside the unit square (x, y ≥ 0, x + width ≤ 1, y + height ≤ 1, sizes > 0)")
            }
            guard cornerRadius.isFinite, cornerRadius >= 0 else {
                throw .invalidSetting(.transform, value: "cornerRadius \(cornerRadius)", expected: "0 or more pixels")
            }
        }
    }
}

extension Animated {
    /// The values at the keyframes (the constant alone for a constant).
    var keyValues: [Value] {
        switch self {
        case let .constant(v): return [v]
        case let .keyframes(t): return t.keyframes.map(\.value)
        }
    }
}

extension Clip.Transform: Codable {
    private enum CodingKeys: String, CodingKey {
        case position, anchor, scale, rotation, flipHorizontally, flipVertically, crop, cornerRadius, opacity, blendMode
    }
    /// Reads the fields written by `encode(to:)`; every field may be left out.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(position: try c.decodeIfPresent(Animated<Point>.self, forKey: .position),
                  anchor: try c.decodeIfPresent(Point.self, forKey: .anchor) ?? Point(x: 0.5, y: 0.5),
                  scale: try c.decodeIfPresent(Animated<Double>.self, forKey: .scale) ?? .constant(1),
                  rotation: try c.decodeIfPresent(Animated<Double>.self, forKey: .rotation) ?? .constant(0),
                  flipHorizontally: try c.decodeIfPresent(Bool.self, forKey: .flipHorizontally) ?? false,
                  flipVertically: try c.decodeIfPresent(Bool.self, forKey: .flipVertically) ?? false,
                  crop: try c.decodeIfPresent(Rect.self, forKey: .crop),
                  cornerRadius: try c.decodeIfPresent(Double.self, forKey: .cornerRadius) ?? 0,
                  opacity: try c.decodeIfPresent(Animated<Double>.self, forKey: .opacity) ?? .constant(1),
                  blendMode: BlendMode(name: try c.decodeIfPresent(String.self, forKey: .blendMode) ?? "normal") ?? .normal)
        try decodingErrors(at: c.codingPath) { try validate() }
    }
    /// Writes the fields that differ from the defaults.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(position, forKey: .position)
        if anchor != Point(x: 0.5, y: 0.5) { try c.encode(anchor, forKey: .anchor) }
        if scale != .constant(1) { try c.encode(scale, forKey: .scale) }
        if rotation != .constant(0) { try c.encode(rotation, forKey: .rotation) }
        if flipHorizontally { try c.encode(true, forKey: .flipHorizontally) }
        if flipVertically { try c.encode(true, forKey: .flipVertically) }
        try c.encodeIfPresent(crop, forKey: .crop)
        if cornerRadius != 0 { try c.encode(cornerRadius, forKey: .cornerRadius) }
        if opacity != .constant(1) { try c.encode(opacity, forKey: .opacity) }
        if blendMode != .normal { try c.encode(blendMode.name, forKey: .blendMode) }
    }
}

extension Clip {
    /// This clip placed by `transform` (moved, scaled, rotated, flipped, cropped, faded, blended).
    /// Throws for values out of range (a negative scale, an opacity above 1, a crop outside the picture).
    public func transformed(_ transform: Transform) throws(MovieMakerError) -> Clip {
        try transform.validate()
        return transform.isIdentity ? self : Clip(.transformed(transform, self))
    }

    /// Draws `child` through `transform` at `frame`.
    static func drawTransformed(_ child: Clip, _ transform: Transform, in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
        let t = frame.time
        let opacity = min(max(transform.opacity.value(at: t), 0), 1)
        guard opacity > 0 else { return }
        let size = ctx.bounds.size
        let m = transform.matrix(at: t, frameSize: size)
        guard m.a * m.d - m.b * m.c != 0 else { return }   // scaled to nothing
        try ctx.withSavedState {
            var matrix = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
            cairo_transform(ctx.cr, &matrix)
            // The picture is the frame's size: nothing it draws (a full-frame clear) reaches outside it.
            // A sticker draws only itself, and sliding in it comes from beyond the edge of what shows,
            // outside the moved frame: not clipped, unless cropped or rounded.
            let sticker: Bool = if case .generator(.sticker, _) = child.node { true } else { false }
            if !sticker || transform.crop != nil || transform.cornerRadius > 0 {
                let kept = transform.crop.map { Rect(x: $0.minX * size.width, y: $0.minY * size.height, width: $0.width * size.width, height: $0.height * size.height) }
                    ?? Rect(x: 0, y: 0, width: size.width, height: size.height)
                ctx.beginPath()
                if transform.cornerRadius > 0 { ctx.addRoundedRect(kept, cornerRadius: transform.cornerRadius) } else { ctx.addRect(kept) }
                ctx.clip()
            }
            if opacity < 1 || transform.blendMode != .normal {
                try ctx.withGroup(opacity: opacity, blendMode: transform.blendMode) {
                    try child.render(in: ctx, at: frame, session: session)
                }
            } else {
                try child.render(in: ctx, at: frame, session: session)
            }
        }
    }
}
