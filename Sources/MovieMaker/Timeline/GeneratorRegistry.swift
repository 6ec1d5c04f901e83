import Foundation
import Synchronization

/// Pictures made by code that a description file can name: `{"type": "generator", "name": "confetti",
/// "params": {"count": 80}, "duration": "3s"}`.
///
/// A program registers a generator under a name, with the parameters it takes, before it reads or
/// renders a description; the registry then builds the clip when the description is resolved:
///
/// ```swift
/// GeneratorRegistry.shared.register("stripes", parameters: ["color", "count"]) { request in
///     let color = try request.parameters.color("color", default: .white)
///     let count = try request.parameters.integer("count", default: 8, in: 1...100)
///     return Clip(duration: request.duration) { ctx, frame in /* draw */ }
/// }
/// ```
///
/// The library registers `confetti` and `gradient` (see `GeneratorRegistry.builtIn`). A generator's
/// picture must depend only on its parameters and the frame's time, so renders stay deterministic.
public final class GeneratorRegistry: Sendable {
    /// What a generator is asked for: its parameters, and the duration, frame size and rate of the clip.
    public struct Request: Sendable {
        /// The registered name.
        public let name: String
        /// The description's `params`, read with typed accessors whose errors name the JSON path.
        public let parameters: GeneratorParameters
        /// How long the clip must last.
        public let duration: Time
        /// The frame width in pixels.
        public let width: Int
        /// The frame height in pixels.
        public let height: Int
        /// The movie's frame rate.
        public let frameRate: FrameRate
    }

    /// Builds a generator's clip; throws `MovieMakerError` for a bad parameter.
    public typealias Factory = @Sendable (Request) throws -> Clip

    struct Entry: Sendable {
        let parameters: [String]
        let summary: String
        let make: Factory
    }

    private let entries: Mutex<[String: Entry]>

    /// An empty registry.
    public init() { entries = Mutex([:]) }

    /// The registry descriptions use unless told otherwise: the built-in generators and those the
    /// program registered.
    public static let shared: GeneratorRegistry = {
        let registry = GeneratorRegistry()
        registry.registerBuiltIns()
        return registry
    }()

    /// Registers `make` under `name` (replacing one registered under it before), taking the parameters
    /// named in `parameters` (any other key in a description's `params` is an error naming it).
    public func register(_ name: String, parameters: [String], summary: String = "", _ make: @escaping Factory) {
        entries.withLock { $0[name] = Entry(parameters: parameters, summary: summary, make: make) }
    }

    /// The registered names, sorted.
    public var names: [String] { entries.withLock { $0.keys.sorted() } }

    /// The parameters the generator `name` takes, or nil when none is registered under it.
    func parameters(of name: String) -> [String]? { entries.withLock { $0[name]?.parameters } }

    /// A one-line summary of each generator, `name(params…): summary`, sorted by name.
    package var summaries: [String] {
        entries.withLock { table in
            table.keys.sorted().map { name in
                let e = table[name]!
                return "\(name)(\(e.parameters.joined(separator: ", ")))" + (e.summary.isEmpty ? "" : ": \(e.summary)")
            }
        }
    }

    /// The clip the generator `name` makes from `params` (read at `path` of a description), lasting
    /// `duration` in frames of `width`×`height` at `rate`. Throws `.invalidDescription` for an unknown
    /// name or parameter, and whatever the generator throws, located at `path`.
    func make(_ name: String, params: [String: JSONValue], path: JSONPath, duration: Time, width: Int, height: Int,
              rate: FrameRate) throws(MovieMakerError) -> Clip {
        guard let entry = entries.withLock({ $0[name] }) else {
            var message = "no generator is registered as \"\(name)\": the registered ones are \(SpecObject.list(names, conjunction: "and"))"
            if let near = SpecObject.nearest(name, in: names) { message += " (did you mean \"\(near)\"?)" }
            throw .invalidDescription(path.appending("name"), message)
        }
        for key in JSONValue.sortedKeys(params) where !entry.parameters.contains(key) {
            let near = SpecObject.nearest(key, in: entry.parameters).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw .invalidDescription(path.appending("params").appending(key),
                                      "the generator \"\(name)\" takes no parameter \"\(key)\"\(near): it takes \(entry.parameters.isEmpty ? "none" : SpecObject.list(entry.parameters))")
        }
        let request = Request(name: name, parameters: GeneratorParameters(values: params, path: path.appending("params")),
                              duration: duration, width: width, height: height, frameRate: rate)
        let clip: Clip
        do {
            clip = try entry.make(request)
        } catch let error as MovieMakerError {
            throw error.location?.jsonPath == nil ? error.located(jsonPath: path.description) : error
        } catch {
            throw .invalidDescription(path, "the generator \"\(name)\" failed: \(error)")
        }
        // The item lasts what the description says, whatever the generator made.
        return clip.duration == duration ? clip : Clip.overlay(Clip.empty(duration: duration), clip).trimmed(to: duration)
    }
}

/// A generator's parameters (a description's `params`), read with accessors that check type and range
/// and throw `MovieMakerError.invalidDescription` naming the parameter's JSON path.
public struct GeneratorParameters: Sendable {
    /// The parameters as written.
    public let values: [String: JSONValue]
    /// Where they are in the description (`tracks[1].items[0].params`).
    public let path: JSONPath

    /// The parameters `values`, found at `path`.
    package init(values: [String: JSONValue], path: JSONPath = .root) { self.values = values; self.path = path }

    private func fail(_ key: String, _ message: String) -> MovieMakerError { .invalidDescription(path.appending(key), message) }

    /// A number in `range`, or `defaultValue` when the parameter is not given.
    public func number(_ key: String, default defaultValue: Double, in range: ClosedRange<Double>) throws(MovieMakerError) -> Double {
        guard let v = values[key] else { return defaultValue }
        guard let d = v.doubleValue, range.contains(d) else {
            throw fail(key, "must be a number from \(SpecObject.show(range.lowerBound)) to \(SpecObject.show(range.upperBound)), got \(v.shortDescription)")
        }
        return d
    }

    /// A whole number in `range`, or `defaultValue`.
    public func integer(_ key: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(MovieMakerError) -> Int {
        guard let v = values[key] else { return defaultValue }
        guard case let .number(text) = v, let n = Int(text), range.contains(n) else {
            throw fail(key, "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(v.shortDescription)")
        }
        return n
    }

    /// A string, or `defaultValue`.
    public func string(_ key: String, default defaultValue: String) throws(MovieMakerError) -> String {
        guard let v = values[key] else { return defaultValue }
        guard case let .string(s) = v else { throw fail(key, "must be a string, got \(v.shortDescription)") }
        return s
    }

    /// True or false, or `defaultValue`.
    public func bool(_ key: String, default defaultValue: Bool) throws(MovieMakerError) -> Bool {
        guard let v = values[key] else { return defaultValue }
        guard case let .bool(b) = v else { throw fail(key, "must be true or false, got \(v.shortDescription)") }
        return b
    }

    /// A CSS colour string, or `defaultValue`.
    public func color(_ key: String, default defaultValue: Color) throws(MovieMakerError) -> Color {
        guard let v = values[key] else { return defaultValue }
        guard case let .string(s) = v, let c = try? Color(css: s) else {
            throw fail(key, "must be a colour such as \"#ff8000\" or \"tomato\", got \(v.shortDescription)")
        }
        return c
    }

    /// An array of CSS colour strings (at least `minimumCount`), or `defaultValue`.
    public func colors(_ key: String, default defaultValue: [Color], minimumCount: Int = 1) throws(MovieMakerError) -> [Color] {
        guard let v = values[key] else { return defaultValue }
        guard case let .array(elements) = v, elements.count >= minimumCount else {
            throw fail(key, "must be an array of at least \(minimumCount) colour\(minimumCount == 1 ? "" : "s") such as [\"#ff8000\", \"teal\"], got \(v.shortDescription)")
        }
        var colors: [Color] = []
        for (i, e) in elements.enumerated() {
            guard case let .string(s) = e, let c = try? Color(css: s) else {
                throw MovieMakerError.invalidDescription(path.appending(key).appending(i), "must be a colour such as \"#ff8000\", got \(e.shortDescription)")
            }
            colors.append(c)
        }
        return colors
    }
}

extension GeneratorRegistry {
    /// The names of the generators the library registers in `shared`: `confetti` (falling, turning
    /// pieces of paper; `count`, `colors`, `seed`, `speed`, `size`) and `gradient` (a linear gradient
    /// that can turn; `colors`, `angle`, `rotation`).
    package static let builtIn = ["confetti", "gradient"]

    func registerBuiltIns() {
        register("confetti", parameters: ["count", "colors", "seed", "speed", "size"],
                 summary: "pieces of paper falling and turning over a transparent frame") { request in
            let p = request.parameters
            let count = try p.integer("count", default: 80, in: 1...2000)
            let colors = try p.colors("colors", default: [Color(hex: "#e63946")!, Color(hex: "#f4a261")!, Color(hex: "#2a9d8f")!,
                                                           Color(hex: "#e9c46a")!, Color(hex: "#457b9d")!])
            let seed = UInt64(try p.integer("seed", default: 1, in: 0...Int(Int32.max)))
            let speed = try p.number("speed", default: 1, in: 0.05...20)
            let size = try p.number("size", default: 1, in: 0.1...10)
            struct Piece: Sendable { var x, phase, fall, sway, spin, w, h: Double; var color: Color }
            var rng = SplitMix64(seed: seed)
            func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
            let pieces: [Piece] = (0..<count).map { i in
                Piece(x: unit(), phase: unit(), fall: 0.25 + 0.35 * unit(), sway: 0.01 + 0.03 * unit(), spin: 1 + 4 * unit(),
                      w: 0.010 + 0.008 * unit(), h: 0.005 + 0.005 * unit(), color: colors[i % colors.count])
            }
            // The content key: all the pieces depend on, besides the frame's time and size.
            struct Content: Encodable {
                let version = "confetti 1"
                let count: Int, colors: [Color], seed: UInt64, speed: Double, size: Double, width: Int, height: Int
            }
            let content = Content(count: count, colors: colors, seed: seed, speed: speed, size: size, width: request.width, height: request.height)
            return Clip(duration: request.duration, content: content) { ctx, frame in
                let b = ctx.bounds, t = frame.time * speed
                let scale = b.height * size
                for piece in pieces {
                    // Each piece falls from above the frame to below it, again and again, at its own rate.
                    let y = ((piece.phase + t * piece.fall).truncatingRemainder(dividingBy: 1.2) - 0.1) * b.height
                    let x = (piece.x + piece.sway * sin(t * piece.spin + piece.phase * 6.283)) * b.width
                    let turn = cos(t * piece.spin * 2 + piece.phase * 6.283)
                    ctx.withSavedState {
                        ctx.translate(x: x, y: y)
                        ctx.rotate(by: t * piece.spin + piece.phase * 6.283)
                        ctx.scale(x: 1, y: max(0.08, abs(turn)))
                        ctx.setFill(piece.color)
                        ctx.fillRect(Rect(x: -piece.w * scale / 2, y: -piece.h * scale / 2, width: piece.w * scale, height: piece.h * scale))
                    }
                }
            }
        }
        register("gradient", parameters: ["colors", "angle", "rotation"],
                 summary: "a linear gradient filling the frame, optionally turning") { request in
            let p = request.parameters
            let colors = try p.colors("colors", default: [Color(hex: "#1d3557")!, Color(hex: "#457b9d")!], minimumCount: 2)
            let angle = try p.number("angle", default: 90, in: -360...360)
            let rotation = try p.number("rotation", default: 0, in: -360...360)
            struct Content: Encodable {
                let version = "gradient 1"
                let colors: [Color], angle: Double, rotation: Double, width: Int, height: Int
            }
            let content = Content(colors: colors, angle: angle, rotation: rotation, width: request.width, height: request.height)
            return Clip(duration: request.duration, content: content) { ctx, frame in
                let b = ctx.bounds
                let a = (angle + rotation * frame.time) * .pi / 180
                let r = (b.width * b.width + b.height * b.height).squareRoot() / 2
                let c = Point(x: b.midX, y: b.midY)
                let d = Point(x: sin(a) * r, y: -cos(a) * r)
                ctx.setFill(Paint.linear(from: Point(x: c.x - d.x, y: c.y - d.y), to: Point(x: c.x + d.x, y: c.y + d.y), colors: colors))
                ctx.fillRect(b)
            }
        }
    }
}
