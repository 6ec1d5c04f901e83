internal import CCairo
import Foundation

extension Clip.Filter {
    /// Every kind of filter, by name: the one table the description reader, writer and schema use.
    static let descriptors: [FilterDescriptor] = ColorFilter.descriptors + SpatialFilter.descriptors + [
        FilterDescriptor("backdrop", "The picture enlarged to cover the frame and blurred, behind itself: fills the bars around a fitted picture.", [
            FilterParameter("radius", .number(0...GaussianBlur.maximumRadius), "The blur radius in pixels (default 40)."),
        ]) { a throws(MovieMakerError) in .backdrop(blurRadius: try a.number("radius", default: 40)) },
    ]

    /// The descriptor named `name`.
    static func descriptor(named name: String) -> FilterDescriptor? { descriptors.first { $0.name == name } }

    /// The filter's names, sorted.
    package static var names: [String] { descriptors.map(\.name).sorted() }

    /// The filter as a description file writes it.
    public var spec: FilterSpec {
        switch self {
        case let .color(f): return f.spec
        case let .spatial(f): return f.spec
        case let .backdrop(radius): return FilterSpec(name: "backdrop", parameters: ["radius": FilterJSON.number(radius)])
        }
    }

    /// The filter with its sizes in pixels multiplied by `factor` (a preview at a quarter of the size).
    func scaled(by factor: Double) -> Clip.Filter {
        guard factor != 1 else { return self }
        switch self {
        case .color: return self
        case let .spatial(f): return .spatial(f.scaled(by: factor))
        case let .backdrop(radius): return .backdrop(blurRadius: radius * factor)
        }
    }

    /// Builds the filter `spec` describes; `path` names it in errors, relative files are read from
    /// `baseDirectory`, keyframe times in frames are at `rate`. Throws `.invalidDescription` naming the
    /// JSON path and the fix for an unknown name, an unknown key or a bad value, and the file's error for
    /// a file that cannot be read (a LUT).
    public init(_ spec: FilterSpec, at path: JSONPath = .root, baseDirectory: URL? = nil, rate: FrameRate = 30) throws(MovieMakerError) {
        guard let descriptor = Self.descriptor(named: spec.name) else {
            var message = "unknown filter \"\(spec.name)\": expected one of \(Self.names.joined(separator: ", "))"
            if let near = SpecObject.nearest(spec.name, in: Self.names) { message += " (did you mean \"\(near)\"?)" }
            throw .invalidDescription(path.appending("name"), message)
        }
        let arguments = try FilterArguments(spec, descriptor: descriptor, at: path, baseDirectory: baseDirectory, rate: rate)
        self = try descriptor.make(arguments)
    }

    /// Reads a filter object `{"name": …, …}` at `path`.
    static func reading(_ value: JSONValue, at path: JSONPath, baseDirectory: URL?, rate: FrameRate) throws(MovieMakerError) -> Clip.Filter {
        guard case var .object(members) = value else {
            throw .invalidDescription(path, "must be a filter object such as {\"name\": \"grayscale\"}, got \(value.shortDescription)")
        }
        guard case let .string(name)? = members.removeValue(forKey: "name") else {
            throw .invalidDescription(path.appending("name"), "a filter needs \"name\": one of \(names.joined(separator: ", "))")
        }
        return try Clip.Filter(FilterSpec(name: name, parameters: members), at: path, baseDirectory: baseDirectory, rate: rate)
    }

    /// Applies the filter to `image` at `time`.
    func apply(to image: FilterImage, at time: FilterTime) throws(MovieMakerError) {
        switch self {
        case let .color(f): try f.apply(to: image, at: time)
        case let .spatial(f): try f.apply(to: image, at: time)
        case let .backdrop(radius): try Backdrop.apply(radius: radius, to: image)
        }
    }
}

extension Clip.Filter: Codable {
    /// Reads `{"name": "brightness", "amount": 0.2}` (the description file's form; file paths as written).
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        let path = JSONPath(decoder.codingPath.map { $0.intValue.map(JSONPath.Component.index) ?? .key($0.stringValue) })
        do {
            self = try Clip.Filter.reading(value, at: path, baseDirectory: nil, rate: 30)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }
    /// Writes the description file's form.
    public func encode(to encoder: any Encoder) throws { try spec.json.encode(to: encoder) }
}

extension JSONValue: Codable {
    /// Reads any JSON value (numbers keep their text where the decoder gives it; otherwise a `Double`'s
    /// shortest form).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let i = try? c.decode(Int64.self) { self = .integer(i); return }
        if let d = try? c.decode(Double.self) {
            guard let v = JSONValue.double(d) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "a number must be finite, got \(d)")
            }
            self = v; return
        }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONValue].self) { self = .array(a); return }
        if let o = try? c.decode([String: JSONValue].self) { self = .object(o); return }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a JSON value")
    }
    /// Writes the value (numbers as `Double`s, or integers when they are whole numbers that fit).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case let .bool(b): try c.encode(b)
        case let .number(text):
            if let i = Int64(text) { try c.encode(i) } else { try c.encode(Double(text) ?? 0) }
        case let .string(s): try c.encode(s)
        case let .array(a): try c.encode(a)
        case let .object(o): try c.encode(o)
        }
    }
}

/// Drawing a `filtered` node: the child alone on a transparent layer the size of the frame, the
/// filters applied to the layer's pixels in order, the layer drawn over the destination (through its
/// current transform, clip and blend mode).
enum FilterRendering {
    static func draw(_ child: Clip, filters: [Clip.Filter], in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
        guard !filters.isEmpty else { return try child.render(in: ctx, at: frame, session: session) }
        let width = max(1, Int(ctx.bounds.width.rounded(.up))), height = max(1, Int(ctx.bounds.height.rounded(.up)))
        try session.scratch.layers.withLayer(width: width, height: height) { layer in
            try layer.draw { c in
                c.clear(.clear)
                try child.render(in: c, at: frame, session: session)
            }
            layer.surface.flush()
            let image = FilterImage(data: layer.surface.data, width: width, height: height, stride: layer.surface.stride)
            let time = FilterTime(exactTime: frame.exactTime, rate: frame.rate)
            for filter in filters { try filter.apply(to: image, at: time) }
            layer.surface.markDirty()
            let cr = ctx.cr
            cairo_save(cr)
            cairo_set_source_surface(cr, layer.surface.pointer, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)
        }
    }
}

/// Frame-sized transparent canvases for layers (filters, masks), reused across frames (see `SizedPool`).
final class LayerPool: SizedPool<Canvas>, @unchecked Sendable {
    init() {
        super.init(make: { w, h throws(MovieMakerError) in try Canvas(width: w, height: h) }, size: { ($0.width, $0.height) })
    }
    /// Runs `body` with a `width`×`height` canvas (its pixels are whatever the last user left).
    func withLayer<R>(width: Int, height: Int, _ body: (Canvas) throws -> R) throws -> R {
        try withItem(width: width, height: height, body)
    }
}
