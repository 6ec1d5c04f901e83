/// A value that can be blended with another of its kind: the basis of keyframes, morphs and tweens.
public protocol Interpolatable {
    /// The value `amount` of the way from `self` (0) to `other` (1); amounts outside 0…1 extrapolate.
    func interpolated(to other: Self, amount: Double) -> Self
}

extension Double: Interpolatable {
    /// Linear interpolation.
    public func interpolated(to other: Double, amount: Double) -> Double { self + (other - self) * amount }
}

extension Point: Interpolatable {
    /// Linear interpolation of both coordinates.
    public func interpolated(to other: Point, amount: Double) -> Point {
        Point(x: x.interpolated(to: other.x, amount: amount), y: y.interpolated(to: other.y, amount: amount))
    }
}

extension Size: Interpolatable {
    /// Linear interpolation of width and height.
    public func interpolated(to other: Size, amount: Double) -> Size {
        Size(width: width.interpolated(to: other.width, amount: amount),
             height: height.interpolated(to: other.height, amount: amount))
    }
}

extension Rect: Interpolatable {
    /// Linear interpolation of origin and size.
    public func interpolated(to other: Rect, amount: Double) -> Rect {
        Rect(origin: origin.interpolated(to: other.origin, amount: amount),
             size: size.interpolated(to: other.size, amount: amount))
    }
}

extension Color: Interpolatable {
    /// Interpolation of premultiplied sRGB components, so a fade to `.clear` does not darken
    /// through black.
    public func interpolated(to other: Color, amount t: Double) -> Color {
        let a = alpha.interpolated(to: other.alpha, amount: t)
        guard a > 0 else { return Color(red: red.interpolated(to: other.red, amount: t),
                                         green: green.interpolated(to: other.green, amount: t),
                                         blue: blue.interpolated(to: other.blue, amount: t), alpha: 0) }
        func mix(_ x: Double, _ y: Double) -> Double { (x * alpha).interpolated(to: y * other.alpha, amount: t) / a }
        return Color(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue), alpha: a)
    }
}
