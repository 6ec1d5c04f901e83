import Foundation

// The `lottie` item: an After Effects animation exported as Lottie JSON, drawn by rlottie.

// MARK: Model

extension Timeline {
    /// A Lottie animation (`"type": "lottie"`), its canvas fitted into the frame (its `transform` moves
    /// it), its layers recoloured by `colors`.
    ///
    /// ```json
    /// {"type": "lottie", "source": {"file": "confetti.json"}, "colors": {"bg": "#c1121f"}}
    /// ```
    public struct Lottie: Sendable, Hashable {
        /// The animation's JSON file.
        public var source: Source
        /// How long it shows (default: the animation's own length at `speed`).
        public var duration: TimeValue?
        /// How fast it plays (default 1: the file's own rate).
        public var speed: Double?
        /// Whether it starts again after its last frame (default true; false holds the last frame).
        public var loop: Bool?
        /// How its canvas is sized into the frame (default `fit`: whole, the rest transparent).
        public var fit: ImageFit?
        /// Layer name (or rlottie key path such as `"bg.rect.fill"`) → colour (or `{{slot}}`): the fill
        /// and stroke colour of everything in the layer.
        public var colors: [String: ColorText]?

        /// A Lottie item playing `source`; nil fields take their defaults.
        public init(source: Source, duration: TimeValue? = nil, speed: Double? = nil, loop: Bool? = nil, fit: ImageFit? = nil,
                    colors: [String: ColorText]? = nil) {
            self.source = source; self.duration = duration; self.speed = speed; self.loop = loop; self.fit = fit; self.colors = colors
        }
    }
}

// MARK: Description file

extension Timeline.Lottie: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("lottie", doc: "A Lottie animation (After Effects via Bodymovin, LottieFiles JSON) drawn by rlottie, fitted into the frame.", splitCell: true, fields: [
            SpecField("source", Schema.ref("source"), required: true, "The animation's .json file (or a media slot)."),
            SpecField("duration", Schema.ref("duration"), "How long it shows (default: the animation's own length at its speed)."),
            SpecField("speed", Schema.number(exclusiveMinimum: 0, maximum: 16), "How fast it plays (default 1: the file's own rate)."),
            SpecField("loop", Schema.boolean, "Whether it starts again after its last frame (default true; false holds the last frame)."),
            SpecField("fit", Schema.enumeration(ImageFit.allCases.map(\.rawValue)), "How its canvas is sized into the frame: fit (default), fill, stretch or center."),
            SpecField("colors", .object(["type": .string("object"), "additionalProperties": Schema.ref("color")]),
                      "Layer name (or rlottie key path) → colour: recolours the fills and strokes of everything in the layer."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        var colors: [String: Timeline.ColorText]? = nil
        if let v = i.value("colors") {
            guard case let .object(members) = v else {
                throw i.fail("colors", "must be an object of layer name → colour, such as {\"bg\": \"#c1121f\"}, got \(v.shortDescription)")
            }
            var read: [String: Timeline.ColorText] = [:]
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                let at = path.appending("colors").appending(name)
                guard !name.isEmpty else { throw .invalidDescription(at, "a layer name must not be empty") }
                guard case let .string(text) = value else {
                    throw .invalidDescription(at, "must be a colour string such as \"#ff8000\" or \"tomato\", got \(value.shortDescription)")
                }
                let color = Timeline.ColorText(text)
                try color.check(at: at, context, allowNone: false)
                read[name] = color
            }
            colors = read
        }
        return Timeline.Lottie(source: try i.source("source", context, kinds: [.media], what: "a Lottie item"),
                               duration: try i.time("duration", positive: true),
                               speed: try i.double("speed", in: 0...16, above: 0), loop: try i.bool("loop"),
                               fit: try i.choice("fit", ImageFit.self, what: "fit"), colors: colors)
    }

    var content: Timeline.Content { .lottie(self) }

    func write(to w: inout SpecWriter) {
        w.set("source", source.json)
        w.set("duration", duration)
        w.set("speed", speed)
        w.set("loop", loop)
        w.set("fit", fit)
        if let colors { w.set("colors", JSONValue.object(colors.mapValues { .string($0.text) })) }
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.lottie(self, at: path)
    }

    var mediaSlotSources: [Timeline.Source] { [source] }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var l = self
        l.source = source.mappingFilePath(transform)
        return l
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var l = self; l.duration = length; return l }

    func fitting(_ fit: ImageFit) -> Self {
        var l = self
        if l.fit == nil { l.fit = fit }
        return l
    }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A Lottie item's clip: the file checked now (a broken one fails before the first frame, naming the
    /// item), its colours resolved (slots included).
    mutating func lottie(_ x: Timeline.Lottie, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let url = try file(x.source, at: path.appending("source"), kinds: [.media])
        sources[path.description] = .init(file: url)
        var colors: [String: Color] = [:]
        for (name, text) in x.colors ?? [:] {
            colors[name] = try color(text, at: path.appending("colors").appending(name))
        }
        // A layer the file does not have is named at its key, with the nearest layer; a file that cannot
        // be read is left to the clip below, which names the source. The images it names are files the
        // render reads (for render identities, and the agent interface's allowed folders).
        if let file = try? LottieFile(url: url) {
            for asset in file.externalAssets where !inputFiles.contains(asset) { inputFiles.append(asset) }
            for name in colors.keys.sorted() {
                if var problem = file.colorProblem(name) {
                    let layer = String(name.split(separator: ".", omittingEmptySubsequences: false).first ?? "")
                    if !file.layerNames.contains(name), let near = SpecObject.nearest(layer, in: file.layerNames.sorted()), near != layer {
                        problem += " (did you mean \"\(near)\"?)"
                    }
                    throw .invalidDescription(path.appending("colors").appending(name), problem, file: url.path)
                }
            }
        }
        let duration: Time? = x.duration == nil ? nil : try self.duration(x.duration, at: path)
        let clip: Clip
        do {
            clip = try Clip.lottie(url, duration: duration, speed: x.speed ?? 1, loop: x.loop ?? true, fit: x.fit ?? .fit, colors: colors)
        } catch {
            throw .invalidDescription(path.appending("source"), error.message, file: url.path)
        }
        return CompiledItem(clip: clip, what: url.lastPathComponent, detail: x.speed.map { "speed \(SpecObject.show($0))" } ?? "")
    }
}
