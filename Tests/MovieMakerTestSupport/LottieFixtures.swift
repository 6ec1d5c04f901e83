import Foundation

/// Lottie animations written by the tests: shape layers only, every value known, so where a square is at
/// each frame is simple arithmetic.
public enum LottieFixture {
    /// A point the square passes through at a frame of the animation.
    public struct Waypoint: Sendable {
        public let frame: Double, x: Double, y: Double
        public init(frame: Double, x: Double, y: Double) { self.frame = frame; self.x = x; self.y = y }
    }

    /// A `width`×`height` animation at `frameRate` with `frames` frames: a `side`-pixel square of
    /// `square` colour (layer "square") moving in straight lines through `path` (linear timing), over a
    /// layer "bg" filling the canvas with `background`.
    public static func movingSquare(width: Int = 320, height: Int = 240, frameRate: Double = 25, frames: Int = 50, side: Double = 20,
                                    path: [Waypoint], square: [Double] = [1, 0, 0], background: [Double] = [0, 0, 1]) -> Data {
        // Written by hand, keys in Bodymovin's order: rlottie's parser reads "ty" first to know what an
        // object is (a dictionary serialiser's order loses the shapes).
        func n(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        func list(_ v: [Double]) -> String { "[" + v.map(n).joined(separator: ",") + "]" }
        var keys: [String] = []
        for (k, p) in path.enumerated() {
            let tangents = k < path.count - 1 ? "\"i\":{\"x\":[1],\"y\":[1]},\"o\":{\"x\":[0],\"y\":[0]}," : ""
            keys.append("{\(tangents)\"t\":\(n(p.frame)),\"s\":[\(n(p.x)),\(n(p.y)),0]}")
        }
        func transform(_ position: String) -> String {
            "{\"o\":{\"a\":0,\"k\":100},\"r\":{\"a\":0,\"k\":0},\"p\":\(position),\"a\":{\"a\":0,\"k\":[0,0,0]},\"s\":{\"a\":0,\"k\":[100,100,100]}}"
        }
        func group(size: [Double], color: [Double]) -> String {
            "[{\"ty\":\"gr\",\"nm\":\"shape\",\"it\":["
                + "{\"ty\":\"rc\",\"nm\":\"rect\",\"d\":1,\"p\":{\"a\":0,\"k\":[0,0]},\"s\":{\"a\":0,\"k\":\(list(size))},\"r\":{\"a\":0,\"k\":0}},"
                + "{\"ty\":\"fl\",\"nm\":\"fill\",\"c\":{\"a\":0,\"k\":\(list(color + [1]))},\"o\":{\"a\":0,\"k\":100},\"r\":1},"
                + "{\"ty\":\"tr\",\"p\":{\"a\":0,\"k\":[0,0]},\"a\":{\"a\":0,\"k\":[0,0]},\"s\":{\"a\":0,\"k\":[100,100]},\"r\":{\"a\":0,\"k\":0},\"o\":{\"a\":0,\"k\":100}}"
                + "]}]"
        }
        let squareLayer = "{\"ddd\":0,\"ind\":1,\"ty\":4,\"nm\":\"square\",\"ks\":\(transform("{\"a\":1,\"k\":[" + keys.joined(separator: ",") + "]}")),"
            + "\"shapes\":\(group(size: [side, side], color: square)),\"ip\":0,\"op\":\(frames),\"st\":0}"
        let bgLayer = "{\"ddd\":0,\"ind\":2,\"ty\":4,\"nm\":\"bg\",\"ks\":\(transform("{\"a\":0,\"k\":[\(n(Double(width) / 2)),\(n(Double(height) / 2)),0]}")),"
            + "\"shapes\":\(group(size: [Double(width), Double(height)], color: background)),\"ip\":0,\"op\":\(frames),\"st\":0}"
        let root = "{\"v\":\"5.5.2\",\"fr\":\(n(frameRate)),\"ip\":0,\"op\":\(frames),\"w\":\(width),\"h\":\(height),\"nm\":\"moving square\",\"ddd\":0,\"assets\":[],"
            + "\"layers\":[\(squareLayer),\(bgLayer)]}"
        return Data(root.utf8)
    }

    /// Where the square's centre is at frame `k` of `path` (straight lines, linear timing).
    public static func position(at k: Double, along path: [Waypoint]) -> (x: Double, y: Double) {
        guard let first = path.first else { return (0, 0) }
        if k <= first.frame { return (first.x, first.y) }
        for (a, b) in zip(path, path.dropFirst()) where k <= b.frame {
            let f = (k - a.frame) / (b.frame - a.frame)
            return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
        }
        return (path.last!.x, path.last!.y)
    }
}
