import Foundation

// Picture editing in description files: any picture item's `filters` and `transform`, the `split`,
// `sticker` and `subtitles` items, and `output.background` beyond a plain colour. Shapes, reading,
// writing and compiling live together here; the filters' own parameters come from
// `Clip.Filter.descriptors`.

// MARK: Shapes

extension TimelineShapes {
    /// A filter object: one schema per filter name.
    static var filterSchema: JSONValue { Schema.oneOf(Clip.Filter.descriptors.map(\.schema)) }

    static let pointSchema: JSONValue = {
        var o = Schema.array(Schema.number(), minItems: 2).objectValue!
        o["maxItems"] = .integer(2)
        return .object(o)
    }()

    /// A number or keyframes of numbers within the range.
    static func animatedNumber(minimum: Double, maximum: Double) -> JSONValue {
        let n = Schema.number(minimum: minimum, maximum: maximum)
        return Schema.oneOf([n, Schema.array(keyframeSchema(n), minItems: 1)])
    }
    static func keyframeSchema(_ value: JSONValue) -> JSONValue {
        .object(["type": .string("object"), "additionalProperties": .bool(false),
                 "required": .array([.string("at"), .string("value")]),
                 "properties": .object(["at": Schema.ref("time"), "value": value, "easing": Schema.ref("easing")])])
    }

    static let transformShape = SpecShape(name: "transform", doc: "How an item is placed: moved, scaled, rotated, flipped, cropped, faded, blended. Position, scale, rotation and opacity may be keyframes [{\"at\": \"0s\", \"value\": …, \"easing\": …}, …] in the item's own time.", fields: [
        SpecField("position", Schema.oneOf([pointSchema, Schema.array(keyframeSchema(pointSchema), minItems: 1)]), "Where the anchor goes, [x, y] in output pixels (default: where it is)."),
        SpecField("anchor", pointSchema, "The point placed, scaled and rotated around, [x, y] in unit coordinates of the item's picture (default [0.5, 0.5], its centre)."),
        SpecField("scale", animatedNumber(minimum: 0, maximum: 100), "Size factor (default 1)."),
        SpecField("rotation", animatedNumber(minimum: -100_000, maximum: 100_000), "Clockwise rotation in degrees (default 0)."),
        SpecField("opacity", animatedNumber(minimum: 0, maximum: 1), "Opacity, 0…1 (default 1)."),
        SpecField("flip", Schema.enumeration(["horizontal", "vertical", "both"]), "Mirror the picture."),
        SpecField("crop", Schema.ref("cropRect"), "The part of the picture kept, in unit coordinates."),
        SpecField("cornerRadius", Schema.number(minimum: 0, maximum: 5000), "Rounds the kept part's corners, in pixels."),
        SpecField("blend", Schema.enumeration(BlendMode.allCases.map(\.name)), "How the picture combines with what is below (default normal)."),
    ])

    static let cropRect = SpecShape(name: "cropRect", doc: "A rectangle inside the unit square.", fields: [
        SpecField("x", Schema.number(minimum: 0, maximum: 1), required: true, "Left edge."),
        SpecField("y", Schema.number(minimum: 0, maximum: 1), required: true, "Top edge."),
        SpecField("width", Schema.number(exclusiveMinimum: 0, maximum: 1), required: true, "Width."),
        SpecField("height", Schema.number(exclusiveMinimum: 0, maximum: 1), required: true, "Height."),
    ])

    static let gradientBackdrop = SpecShape(name: "gradientBackground", doc: "A linear gradient under the tracks.", fields: [
        SpecField("gradient", Schema.array(Schema.ref("color"), minItems: 2), required: true, "The colours, evenly spaced."),
        SpecField("angle", Schema.number(minimum: -360, maximum: 360), "Direction in degrees as CSS measures it: 90 left to right, 180 top to bottom (default 180)."),
    ])
    static let imageBackdrop = SpecShape(name: "imageBackground", doc: "A picture under the tracks.", fields: [
        SpecField("image", Schema.string(minLength: 1), required: true, "The picture's path, relative to the description."),
        SpecField("fit", Schema.enumeration(ImageFit.allCases.map(\.rawValue)), "How it fills the frame (default fill)."),
    ])
    static let blurBackdrop = SpecShape(name: "blurBackground", doc: "The movie itself, blurred, behind it.", fields: [
        SpecField("blur", Schema.number(minimum: 0, maximum: GaussianBlur.maximumRadius), required: true, "The blur radius in output pixels."),
    ])
    static var backgroundSchema: JSONValue {
        Schema.anyOf([Schema.ref("color"), Schema.constant("blur"), gradientBackdrop.schema, imageBackdrop.schema, blurBackdrop.schema])
    }

    /// The keys every picture item has beyond the common ones.
    static let pictureItemFields: [SpecField] = [
        SpecField("filters", Schema.array(Schema.ref("filter")), "Picture filters, applied in order: [{\"name\": \"grayscale\"}, {\"name\": \"lut\", \"file\": \"look.cube\"}, …]."),
        SpecField("transform", Schema.ref("transform"), "How the item is placed (moved, scaled, rotated, cropped, faded)."),
        SpecField("mask", Schema.ref("mask"), "Another picture whose alpha or luma decides where this item shows."),
    ]

    static var maskShape: SpecShape {
        SpecShape(name: "mask", doc: "A picture item used as a mask, in the masked item's own time.", fields: [
            SpecField("item", Schema.oneOf(splitCellTypes.map { Schema.ref("\($0)ItemOverlay") }), required: true, "The mask's picture: a picture item (its at delays it)."),
            SpecField("mode", Schema.enumeration(Clip.MaskMode.allCases.map(\.rawValue)), "alpha (default), luma, inverseAlpha or inverseLuma."),
        ])
    }

    /// The item types a split's cell may be (no nested splits, stickers or subtitles).
    static let splitCellTypes = ["video", "photo", "title", "color", "slideshow", "generator", "gap"]

    /// Item types only overlay tracks take.
    static let overlayOnlyTypes: Set<String> = ["sticker", "subtitles"]

    static let splitFields: [SpecField] = [
        SpecField("layout", Schema.enumeration(Clip.SplitScreen.Layout.allCases.map(\.rawValue)), required: true, "2x1 (side by side), 1x2 (stacked), 3x1, 2x2, 3x3 or pip (picture-in-picture)."),
        SpecField("cells", Schema.array(Schema.oneOf(splitCellTypes.map { Schema.ref("\($0)Cell") })),
                  required: true, "The cells' items, in reading order (pip: the main picture, then the inset); a cell's at starts it later."),
        SpecField("fit", Schema.enumeration(ImageFit.allCases.map(\.rawValue)), "How each cell's picture fits its cell (default fill)."),
        SpecField("fits", Schema.array(Schema.enumeration(ImageFit.allCases.map(\.rawValue))), "The fit of each cell, in order (overrides fit)."),
        SpecField("gutter", Schema.number(minimum: 0, maximum: 2000), "Space between and around cells, in output pixels (default 0)."),
        SpecField("background", Schema.ref("color"), "The gutters' colour (default black; pip: transparent)."),
        SpecField("borderWidth", Schema.number(minimum: 0, maximum: 500), "Cell border width in output pixels (default 0; pip 2)."),
        SpecField("borderColor", Schema.ref("color"), "Cell border colour (default white)."),
        SpecField("cornerRadius", Schema.number(minimum: 0, maximum: 5000), "Cell corner radius in output pixels (default 0; pip 12)."),
        SpecField("corner", Schema.enumeration(Clip.SplitScreen.Corner.allCases.map(\.rawValue)), "pip: the inset's corner (default bottomRight)."),
        SpecField("size", Schema.number(minimum: 0.05, maximum: 1), "pip: the inset's width as a fraction of the frame's (default 0.3)."),
        SpecField("margin", Schema.number(minimum: 0, maximum: 5000), "pip: the inset's distance from the edges, output pixels (default 24)."),
        SpecField("duration", Schema.ref("duration"), "How long it lasts (default: its longest cell)."),
    ]
    static let stickerFields: [SpecField] = [
        SpecField("source", Schema.ref("source"), "The picture: PNG/WebP with alpha, animated GIF, animated WebP or APNG (or a photo)."),
        SpecField("emoji", Schema.string(minLength: 1), "An emoji drawn in colour, instead of a picture."),
        SpecField("duration", Schema.ref("duration"), "How long it shows (default 3s)."),
        SpecField("width", Schema.number(exclusiveMinimum: 0, maximum: 16384), "Width in output pixels (default: the picture's own; an emoji's size, default 120)."),
        SpecField("height", Schema.number(exclusiveMinimum: 0, maximum: 16384), "Height in output pixels (default: from the width and the aspect)."),
        SpecField("loop", Schema.boolean, "Whether an animation loops (default true)."),
        SpecField("enter", Schema.enumeration(Timeline.Sticker.animationNames), "How it comes on (default none)."),
        SpecField("exit", Schema.enumeration(Timeline.Sticker.animationNames), "How it goes off (default none)."),
    ]
    static let subtitlesFields: [SpecField] = [
        SpecField("file", Schema.string(minLength: 1), required: true, "An SRT or WebVTT file, relative to the description."),
        SpecField("style", Schema.enumeration(Timeline.Subtitles.styleNames), "outline (default) or box."),
        SpecField("size", Schema.number(minimum: 0.01, maximum: 0.5), "Text size as a fraction of the frame height (default 0.05)."),
        SpecField("color", Schema.ref("color"), "Text colour (default white)."),
        SpecField("duration", Schema.ref("duration"), "How long the item lasts (default: to the last cue's end)."),
    ]
}

// MARK: Reading

extension SpecObject {
    /// `filters`: each filter checked against its descriptor (names, keys, values).
    func filters(_ key: String, _ context: SpecContext) throws(MovieMakerError) -> [FilterSpec] {
        try array(key).mapTyped { (v, p) throws(MovieMakerError) in
            guard case var .object(members) = v else {
                throw .invalidDescription(p, "must be a filter object such as {\"name\": \"grayscale\"}, got \(v.shortDescription)")
            }
            guard let nameValue = members.removeValue(forKey: "name") else {
                throw .invalidDescription(p, "a filter needs \"name\": one of \(Clip.Filter.names.joined(separator: ", "))")
            }
            guard case let .string(name) = nameValue, let descriptor = Clip.Filter.descriptor(named: name) else {
                var message = "unknown filter \(nameValue.shortDescription): expected one of \(Clip.Filter.names.joined(separator: ", "))"
                if let s = nameValue.stringValue, let near = SpecObject.nearest(s, in: Clip.Filter.names) { message += " (did you mean \"\(near)\"?)" }
                throw .invalidDescription(p.appending("name"), message)
            }
            let spec = FilterSpec(name: name, parameters: members)
            try FilterArguments(spec, descriptor: descriptor, at: p, baseDirectory: nil, rate: context.rate).validateAll()
            return spec
        }
    }

    /// `mask`: `{"item": {…}, "mode": "luma"}`.
    func mask(_ key: String, _ context: SpecContext) throws(MovieMakerError) -> Timeline.Mask? {
        guard let m = try object(key, TimelineShapes.maskShape) else { return nil }
        let itemValue = m.value("item")!
        let itemPath = path.appending(key).appending("item")
        if case let .object(o) = itemValue, case let .string(t)? = o["type"], !TimelineShapes.splitCellTypes.contains(t) {
            throw .invalidDescription(itemPath.appending("type"), "a mask cannot be a \(t) item: masks are \(SpecObject.list(TimelineShapes.splitCellTypes))")
        }
        var maskContext = context
        maskContext.trackKind = .overlay
        maskContext.splitCell = false
        return Timeline.Mask(try Timeline.Item(reading: itemValue, at: itemPath, maskContext),
                             mode: try m.choice("mode", Clip.MaskMode.self, what: "mask mode"))
    }

    /// `transform`, checked, kept as written.
    func transform(_ key: String, _ context: SpecContext) throws(MovieMakerError) -> JSONValue? {
        guard let v = value(key) else { return nil }
        _ = try TimelinePictureEditing.transform(v, at: path.appending(key), rate: context.rate)
        return v
    }

    /// `output.background`: a colour, or a backdrop (`"blur"`, a gradient, an image, `{"blur": r}`).
    func background(_ key: String, _ context: SpecContext) throws(MovieMakerError) -> (Timeline.ColorText?, Timeline.Backdrop?) {
        guard let v = value(key) else { return (nil, nil) }
        let p = path.appending(key)
        switch v {
        case .string("blur"): return (nil, .blur(radius: nil))
        case .string: return (try color(key, context), nil)
        case let .object(o) where o["gradient"] != nil:
            let g = try SpecObject(v, at: p, shape: TimelineShapes.gradientBackdrop, what: "a gradient background")
            let colors = try g.array("gradient", required: true).mapTyped { (c, cp) throws(MovieMakerError) -> Timeline.ColorText in
                guard case let .string(text) = c else { throw .invalidDescription(cp, "must be a colour such as \"#ff8000\", got \(c.shortDescription)") }
                let color = Timeline.ColorText(text)
                try color.check(at: cp, context, allowNone: false)
                return color
            }
            guard colors.count >= 2 else { throw g.fail("gradient", "needs at least two colours, got \(colors.count)") }
            return (nil, .gradient(colors, angle: try g.double("angle", in: -360...360)))
        case let .object(o) where o["image"] != nil:
            let i = try SpecObject(v, at: p, shape: TimelineShapes.imageBackdrop, what: "an image background")
            return (nil, .image(try i.string("image", required: true, nonEmpty: true)!, fit: try i.choice("fit", ImageFit.self, what: "fit")))
        case let .object(o) where o["blur"] != nil:
            let b = try SpecObject(v, at: p, shape: TimelineShapes.blurBackdrop, what: "a blurred background")
            return (nil, .blur(radius: try b.double("blur", in: 0...GaussianBlur.maximumRadius)))
        default:
            throw .invalidDescription(p, "must be a colour (\"#101018\"), \"blur\", {\"gradient\": [colours], \"angle\": 90}, {\"image\": \"file.jpg\"} or {\"blur\": 40}, got \(v.shortDescription)")
        }
    }
}

/// Reading transforms and compiling picture-editing items.
enum TimelinePictureEditing {
    /// Reads a transform object at `path` (keyframe times in frames at `rate`).
    static func transform(_ v: JSONValue, at path: JSONPath, rate: FrameRate) throws(MovieMakerError) -> Clip.Transform {
        let o = try SpecObject(v, at: path, shape: TimelineShapes.transformShape, what: "a transform")
        func point(_ v: JSONValue, _ p: JSONPath) throws(MovieMakerError) -> Point {
            guard case let .array(pair) = v, pair.count == 2, let x = pair[0].doubleValue, let y = pair[1].doubleValue,
                  abs(x) <= 1e6, abs(y) <= 1e6 else {
                throw .invalidDescription(p, "must be a point [x, y] of two numbers (within ±1000000), got \(v.shortDescription)")
            }
            return Point(x: x, y: y)
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws(MovieMakerError) -> Animated<Double>? {
            guard let v = o.value(key) else { return nil }
            let p = path.appending(key)
            if case .array(let elements) = v {
                return .keyframes(try FilterArguments.keyframes(elements, at: p, rate: rate) { (e, ep) throws(MovieMakerError) in
                    try FilterArguments.checkedNumber(e, at: ep, in: range)
                })
            }
            return .constant(try FilterArguments.checkedNumber(v, at: p, in: range))
        }
        var t = Clip.Transform()
        if let v = o.value("position") {
            let p = path.appending("position")
            if case let .array(elements) = v, elements.first.map({ if case .object = $0 { return true } else { return false } }) == true {
                t.position = .keyframes(try FilterArguments.keyframes(elements, at: p, rate: rate) { (e, ep) throws(MovieMakerError) in try point(e, ep) })
            } else {
                t.position = .constant(try point(v, p))
            }
        }
        if let v = o.value("anchor") { t.anchor = try point(v, path.appending("anchor")) }
        if let s = try number("scale", 0...100) { t.scale = s }
        if let r = try number("rotation", -100_000...100_000) { t.rotation = r }
        if let a = try number("opacity", 0...1) { t.opacity = a }
        switch try o.string("flip") {
        case nil: break
        case "horizontal"?: t.flipHorizontally = true
        case "vertical"?: t.flipVertically = true
        case "both"?: t.flipHorizontally = true; t.flipVertically = true
        case let other?: throw o.fail("flip", "must be \"horizontal\", \"vertical\" or \"both\", got \"\(other)\"")
        }
        if let v = o.value("crop") {
            let r = try SpecObject(v, at: path.appending("crop"), shape: TimelineShapes.cropRect, what: "a crop rectangle {x, y, width, height}")
            let rect = Rect(x: try r.double("x", in: 0...1)!, y: try r.double("y", in: 0...1)!,
                            width: try r.double("width", in: 0...1, above: 0)!, height: try r.double("height", in: 0...1, above: 0)!)
            guard rect.maxX <= 1 + 1e-12, rect.maxY <= 1 + 1e-12 else {
                throw .invalidDescription(path.appending("crop"), "must lie inside the picture: x + width and y + height at most 1, got \(SpecObject.show(rect.maxX)) and \(SpecObject.show(rect.maxY))")
            }
            t.crop = rect
        }
        if let c = try o.double("cornerRadius", in: 0...5000) { t.cornerRadius = c }
        if let v = o.value("blend") {
            guard case let .string(name) = v, let mode = BlendMode(name: name) else {
                let names = BlendMode.allCases.map(\.name)
                var message = "must be a blend mode: \(names.joined(separator: ", ")), got \(v.shortDescription)"
                if let s = v.stringValue, let near = SpecObject.nearest(s, in: names) { message += " (did you mean \"\(near)\"?)" }
                throw o.fail("blend", message)
            }
            t.blendMode = mode
        }
        do { try t.validate() } catch { throw .invalidDescription(path, error.message) }
        return t
    }
}

// MARK: Compiling

extension TimelineCompiler {
    /// Output pixels to rendered pixels (¼ in a preview).
    var pixelScale: Double { Double(width) / Double(timeline.output.resolvedSize.width) }

    /// Where fitted pictures leave room: black, or transparent over a backdrop.
    var defaultItemBackground: Color { timeline.output.backdrop == nil ? .black : .clear }

    /// Puts `item`'s filters and transform on `clip`.
    mutating func edit(_ clip: inout Clip, detail: inout String, item: Timeline.Item, at path: JSONPath) throws(MovieMakerError) {
        if !item.filters.isEmpty {
            var filters: [Clip.Filter] = []
            for (k, spec) in item.filters.enumerated() {
                let p = path.appending("filters").appending(k)
                do {
                    filters.append(try Clip.Filter(spec, at: p, baseDirectory: options.mediaFolder, rate: rate).scaled(by: pixelScale))
                    // A filter's files (a LUT) are inputs too: the tool refuses to write its movie over one.
                    for parameter in Clip.Filter.descriptor(named: spec.name)?.parameters ?? [] {
                        if case .file = parameter.kind, case let .string(path)? = spec.parameters[parameter.key] {
                            let url = resolve(path)
                            if !inputFiles.contains(url) { inputFiles.append(url) }
                        }
                    }
                } catch where error.code == .invalidDescription {
                    throw error
                } catch {
                    throw .invalidDescription(p, error.message, file: error.location?.file)
                }
            }
            clip = clip.filtered(filters)
            detail += (detail.isEmpty ? "" : "; ") + "filters " + item.filters.map(\.name).joined(separator: ", ")
        }
        if let mask = item.mask {
            let p = path.appending("mask").appending("item")
            var maskClip = try picture(mask.item, at: p, onOverlay: true).clip
            if let at = mask.item.at?.time(at: rate), at > .zero { maskClip = maskClip.delayed(by: at) }
            clip = clip.masked(by: maskClip, mode: mask.mode ?? .alpha)
            detail += (detail.isEmpty ? "" : "; ") + "masked (\((mask.mode ?? .alpha).rawValue))"
        }
        if let t = item.transform {
            let transform = try TimelinePictureEditing.transform(t, at: path.appending("transform"), rate: rate).scaled(by: pixelScale)
            do { clip = try clip.transformed(transform) } catch { throw .invalidDescription(path.appending("transform"), error.message) }
            detail += (detail.isEmpty ? "" : "; ") + "transformed"
        }
    }

    /// An item's own `duration`, or in a split's cell without one, the split's (`cellDuration`).
    func duration(_ value: Timeline.TimeValue?, at path: JSONPath) throws(MovieMakerError) -> Time {
        if let value { return value.time(at: rate) }
        if let cellDuration { return cellDuration }
        throw .invalidDescription(path.appending("duration"), "needs a duration, as in \"duration\": \"3s\" (a split's cell may leave it out when the split or another cell has one)")
    }

    /// Whether a split's cell takes its duration from the split.
    static func lastsAsLongAsTheSplit(_ item: Timeline.Item) -> Bool {
        switch item.content {
        case let .color(c): c.duration == nil
        case let .generator(g): g.duration == nil
        default: false
        }
    }

    /// A split item's clip. Cells without a duration of their own last as long as the split: its
    /// `duration`, or else the longest of the other cells (each with its `at`).
    mutating func split(_ x: Timeline.Split, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        var compiled: [Clip?] = Array(repeating: nil, count: x.cells.count)
        func cell(_ k: Int, _ compiler: inout TimelineCompiler) throws(MovieMakerError) -> Clip {
            let item = x.cells[k]
            let p = path.appending("cells").appending(k)
            var clip = try compiler.picture(item, at: p, onOverlay: true).clip
            if item.enabled == false { clip = Clip.empty(duration: clip.duration) }
            if let at = item.at?.time(at: compiler.rate), at > .zero { clip = clip.delayed(by: at) }
            return clip
        }
        let open = x.cells.indices.filter { Self.lastsAsLongAsTheSplit(x.cells[$0]) }
        for k in x.cells.indices where !open.contains(k) { compiled[k] = try cell(k, &self) }
        if !open.isEmpty {
            let longest = compiled.compactMap { $0?.duration }.max()
            guard let length = x.duration?.time(at: rate) ?? longest else {
                throw .invalidDescription(path.appending("cells").appending(open[0]).appending("duration"),
                                          "needs a duration: neither the split nor another cell has one (give the split a \"duration\", as in \"duration\": \"5s\")")
            }
            let outer = cellDuration
            defer { cellDuration = outer }
            for k in open {
                // A cell starting later (its `at`) still ends with the split.
                let start = x.cells[k].at?.time(at: rate) ?? .zero
                guard length > start else {
                    throw .invalidDescription(path.appending("cells").appending(k).appending("at"),
                                              "starts at or after the split's end (\(length.seconds) s), so it would never show: give it a duration or an earlier at")
                }
                cellDuration = length - start
                compiled[k] = try cell(k, &self)
            }
        }
        let cells = x.cells.indices.map { Clip.SplitScreen.Cell(compiled[$0]!, fit: x.fits?[$0] ?? x.fit ?? .fill) }
        let pip = x.layout == .pictureInPicture
        var screen = Clip.SplitScreen(x.layout, cells: cells, gutter: (x.gutter ?? 0) * pixelScale,
                                      background: try color(x.background, at: path.appending("background")) ?? (pip ? .clear : .black),
                                      borderWidth: (x.borderWidth ?? (pip ? 2 : 0)) * pixelScale,
                                      borderColor: try color(x.borderColor, at: path.appending("borderColor")) ?? .white,
                                      cornerRadius: (x.cornerRadius ?? (pip ? 12 : 0)) * pixelScale,
                                      corner: x.corner ?? .bottomRight, insetSize: x.size ?? 0.3, margin: (x.margin ?? 24) * pixelScale)
        var clip: Clip
        do { clip = try Clip.split(screen) } catch { throw .invalidDescription(path, error.message) }
        if let d = x.duration?.time(at: rate) {
            // Cells shorter than the split end early; the split lasts exactly `duration`.
            screen.cells = screen.cells.map { Clip.SplitScreen.Cell($0.clip.duration > d ? $0.clip.trimmed(to: d) : $0.clip, fit: $0.fit) }
            clip = Clip.overlay(Clip.empty(duration: d), try Clip.split(screen))
        }
        return CompiledItem(clip: clip, what: "\(x.layout.rawValue) split of \(x.cells.count)", detail: "")
    }

    /// A sticker item's clip: a picture or emoji centred on the frame (its transform moves it).
    mutating func sticker(_ x: Timeline.Sticker, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let d = x.duration?.time(at: rate) ?? 3
        func animation(_ name: String?, exit: Bool) -> StickerAnimation? {
            switch name {
            case "pop"?: return .pop()
            case "fade"?: return .fade()
            case let n? where n.hasPrefix("slide-"):
                return Edge(rawValue: String(n.dropFirst(6))).map { StickerAnimation.slide(from: $0) }
            default: return nil
            }
        }
        let enter = animation(x.enter, exit: false), exit = animation(x.exit, exit: true)
        if let emoji = x.emoji {
            let size = (x.width ?? x.height ?? 120) * pixelScale
            return CompiledItem(clip: Clip.emoji(emoji, size: size, duration: d, enter: enter, exit: exit), what: emoji, detail: "emoji")
        }
        let url = try file(x.source!, at: path.appending("source"), kinds: [.photo, .media])
        sources[path.description] = .init(file: url)
        stickerItems.append(.init(path: path.appending("source"), url: url, width: x.width.map { $0 * pixelScale }, height: x.height.map { $0 * pixelScale }))
        let clip = Clip.sticker(url, duration: d, width: x.width.map { $0 * pixelScale }, height: x.height.map { $0 * pixelScale },
                                loop: x.loop ?? true, enter: enter, exit: exit)
        return CompiledItem(clip: clip, what: url.lastPathComponent, detail: "")
    }

    /// A subtitles item's clip.
    mutating func subtitles(_ x: Timeline.Subtitles, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let url = try file(.file(x.file), at: path.appending("file"), kinds: [.media])
        let track: SubtitleTrack
        do { track = try SubtitleTrack(contentsOf: url) } catch {
            throw .invalidDescription(path.appending("file"), error.message, file: url.path)
        }
        var style = x.style == "box" ? SubtitleStyle.boxed : SubtitleStyle()
        if let size = x.size { style.size = size }
        if let c = try color(x.color, at: path.appending("color")) { style.color = c }
        let d = x.duration?.time(at: rate) ?? track.duration
        guard d > .zero else {
            throw .invalidDescription(path.appending("file"), "\(url.lastPathComponent) has no cues: give the item a \"duration\" or add cues")
        }
        sources[path.description] = .init(file: url)
        return CompiledItem(clip: Clip.subtitles(track, style: style, duration: d), what: url.lastPathComponent, detail: "\(track.cues.count) cue\(track.cues.count == 1 ? "" : "s")")
    }

    /// The canvas clip for a gradient or image backdrop.
    mutating func backdrop(_ b: Timeline.Backdrop, duration: Time, at path: JSONPath) throws(MovieMakerError) -> Clip {
        switch b {
        case let .gradient(colors, angle):
            var texts: [JSONValue] = []
            for (k, c) in colors.enumerated() { texts.append(.string(try color(c, at: path.appending("gradient").appending(k))!.hexString)) }
            return try options.generators.make("gradient", params: ["colors": .array(texts), "angle": JSONValue.double(angle ?? 180)!],
                                               path: path, duration: duration, width: width, height: height, rate: rate)
        case let .image(file, fit):
            let url = try self.file(.file(file), at: path.appending("image"), kinds: [.photo])
            try checkPhoto(url, at: path.appending("image"))
            let slideshowFit: Slideshow.Fit
            switch fit ?? .fill {
            case .fit: slideshowFit = .fit
            case .stretch, .fill, .center: slideshowFit = .fill
            }
            return Clip.photo(url, duration: duration, fit: slideshowFit, background: .black)
        case .blur:
            preconditionFailure("a blurred backdrop is a filter on the film")
        }
    }
}

extension Clip.Transform {
    /// The transform with its pixel values (position, corner radius) multiplied by `factor`.
    func scaled(by factor: Double) -> Clip.Transform {
        guard factor != 1 else { return self }
        var t = self
        switch position {
        case nil: break
        case let .constant(p)?: t.position = .constant(Point(x: p.x * factor, y: p.y * factor))
        case let .keyframes(track)?:
            var k = track
            k = (try? KeyframeTrack(track.keyframes.map { Keyframe(time: $0.time, value: Point(x: $0.value.x * factor, y: $0.value.y * factor), easing: $0.easing) })) ?? k
            t.position = .keyframes(k)
        }
        t.cornerRadius *= factor
        return t
    }
}
