import Foundation

/// A 2-D affine transform, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Cairo's and Core Graphics' layout);
/// `{"a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0}` as data.
public struct AffineTransform: Hashable, Sendable, Codable {
    /// Matrix entries.
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// A transform from its six entries.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    /// The transform that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    /// A move by (`x`, `y`).
    public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }
    /// A scale about the origin.
    public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }
    /// A rotation about the origin by `radians` (clockwise on screen, where y points down).
    public static func rotation(_ radians: Double) -> AffineTransform {
        let cs = cos(radians), sn = sin(radians)
        return AffineTransform(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }
    /// `self` followed by `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }
    /// `self` followed by a move.
    public func translatedBy(x: Double, y: Double) -> AffineTransform { concatenating(.translation(x: x, y: y)) }
    /// `self` followed by a scale.
    public func scaledBy(x: Double, y: Double) -> AffineTransform { concatenating(.scale(x: x, y: y)) }
    /// `self` followed by a rotation.
    public func rotated(by radians: Double) -> AffineTransform { concatenating(.rotation(radians)) }
    /// The determinant; 0 means the transform cannot be inverted.
    public var determinant: Double { a * d - b * c }
    /// The inverse transform, or nil when it is singular.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
    /// Applies the transform to a point.
    public func apply(to p: Point) -> Point { Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty) }
}

extension AffineTransform: Interpolatable {
    /// Interpolates translation, rotation, scale and skew separately (not matrix entries), so a
    /// half-way rotation stays a rotation instead of shrinking.
    public func interpolated(to other: AffineTransform, amount t: Double) -> AffineTransform {
        let p = decomposed, q = other.decomposed
        var dr = q.rotation - p.rotation
        while dr > .pi { dr -= 2 * .pi }
        while dr < -.pi { dr += 2 * .pi }
        return AffineTransform.compose(
            translation: p.translation.interpolated(to: q.translation, amount: t),
            rotation: p.rotation + dr * t,
            scale: p.scale.interpolated(to: q.scale, amount: t),
            skew: p.skew.interpolated(to: q.skew, amount: t))
    }

    package struct Parts { var translation: Point; var rotation: Double; var scale: Size; var skew: Double }

    /// translation · rotation · skew(x) · scale, the decomposition used by CSS transitions.
    package var decomposed: Parts {
        let sx = hypot(a, b)
        guard sx > 0 else { return Parts(translation: Point(x: tx, y: ty), rotation: 0, scale: Size(width: 0, height: d), skew: 0) }
        let rotation = atan2(b, a)
        let ux = a / sx, uy = b / sx
        let shear = ux * c + uy * d
        let cx = c - ux * shear, cy = d - uy * shear
        var sy = hypot(cx, cy)
        if a * d - b * c < 0 { sy = -sy }
        return Parts(translation: Point(x: tx, y: ty), rotation: rotation,
                     scale: Size(width: sx, height: sy), skew: sy == 0 ? 0 : shear / sy)
    }

    package static func compose(translation: Point, rotation: Double, scale: Size, skew: Double) -> AffineTransform {
        let local = AffineTransform(a: scale.width, b: 0, c: skew * scale.height, d: scale.height, tx: 0, ty: 0)
        return local.concatenating(.rotation(rotation)).concatenating(.translation(x: translation.x, y: translation.y))
    }
}
