import Foundation

// Picture editing in description files: any picture item's `filters` and `transform`, the `split`,
// `sticker` and `subtitles` items, and `output.background` beyond a plain colour (the transform's
// model, reading and writing are in TimelineTransform.swift). Shapes, reading,
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
        SpecField("cornerRadius", Schema.number(minimum: 0, maximum: 5000), "Rounds the kept part's corners, in the picture's pixels (scaled with it by scale)."),
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
        SpecField("fit", Schema.enumeration(Timeline.Backdrop.imageFits.map(\.rawValue)), "How it fills the frame: fill (cropped to cover it, the default) or fit (whole, on black)."),
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
            SpecField("item", Schema.oneOf(Timeline.Split.cellTypes.map { Schema.ref("\($0)Cell") }), required: true, "The mask's picture: a picture item (its at delays it; without a duration it lasts as long as the masked item)."),
            SpecField("mode", Schema.enumeration(Clip.MaskMode.allCases.map(\.rawValue)), "alpha (default), luma, inverseAlpha or inverseLuma."),
        ])
    }

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
            // A colour parameter may be a colour slot (`"{{accent}}"`): the slot is checked here and filled
            // when the movie is compiled; the other values are checked with any colour in its place.
            var checked = members
            for parameter in descriptor.parameters {
                guard case .color = parameter.kind, case let .string(text)? = members[parameter.key] else { continue }
                let written = Timeline.ColorText(text)
                guard written.slotName != nil else { continue }
                try written.check(at: p.appending(parameter.key), context, allowNone: false)
                checked[parameter.key] = .string("black")
            }
            try FilterArguments(FilterSpec(name: name, parameters: checked), descriptor: descriptor, at: p, baseDirectory: nil, rate: context.rate).validateAll()
            return FilterSpec(name: name, parameters: members)
        }
    }

    /// `mask`: `{"item": {…}, "mode": "luma"}`.
    func mask(_ key: String, _ context: SpecContext) throws(MovieMakerError) -> Timeline.Mask? {
        guard let m = try object(key, TimelineShapes.maskShape) else { return nil }
        let itemValue = m.value("item")!
        let itemPath = path.appending(key).appending("item")
        if case let .object(o) = itemValue, case let .string(t)? = o["type"], !Timeline.Split.cellTypes.contains(t) {
            throw .invalidDescription(itemPath.appending("type"), "a mask cannot be \(SpecObject.article(t)) item: masks are \(SpecObject.list(Timeline.Split.cellTypes))")
        }
        // Only a track's items are timed by a narration; a mask's would keep the reader's 1 s placeholder.
        if case let .object(o) = itemValue, case .object? = o["duration"] {
            throw .invalidDescription(itemPath.appending("duration"), "a mask item cannot end at a narration point: give it a time (\"3s\"), and time the masked item by the narration")
        }
        // Read as a split's cell is: a colour, generator or chart mask may leave its duration to the
        // masked item, as a photo or title mask does.
        var maskContext = context
        maskContext.trackKind = .overlay
        maskContext.splitCell = true
        maskContext.mask = true
        return Timeline.Mask(try Timeline.Item(reading: itemValue, at: itemPath, maskContext),
                             mode: try m.choice("mode", Clip.MaskMode.self, what: "mask mode"))
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
            var fit: ImageFit? = nil
            if let v = i.value("fit") {
                // Only the fits a background takes are offered, by name and as "did you mean".
                let names = Timeline.Backdrop.imageFits.map(\.rawValue)
                guard case let .string(text) = v, let chosen = ImageFit(rawValue: text) else {
                    var message = "must be one of \(SpecObject.list(names)), got \(v.shortDescription)"
                    if let s = v.stringValue, let near = SpecObject.nearest(s, in: names) { message += " (did you mean \"\(near)\"?)" }
                    throw i.fail("fit", message)
                }
                guard Timeline.Backdrop.imageFits.contains(chosen) else { throw i.fail("fit", Timeline.Backdrop.imageFitProblem(chosen)) }
                fit = chosen
            }
            return (nil, .image(try i.string("image", required: true, nonEmpty: true)!, fit: fit))
        case let .object(o) where o["blur"] != nil:
            let b = try SpecObject(v, at: p, shape: TimelineShapes.blurBackdrop, what: "a blurred background")
            return (nil, .blur(radius: try b.double("blur", in: 0...GaussianBlur.maximumRadius)))
        default:
            throw .invalidDescription(p, "must be a colour (\"#101018\"), \"blur\", {\"gradient\": [colours], \"angle\": 90}, {\"image\": \"file.jpg\"} or {\"blur\": 40}, got \(v.shortDescription)")
        }
    }
}

extension Timeline.Backdrop {
    /// The fits a background image takes: it covers the frame, or shows whole on black.
    static let imageFits: [ImageFit] = [.fill, .fit]
    /// Why `fit` cannot place a background image, and what to write.
    static func imageFitProblem(_ fit: ImageFit) -> String {
        "a background image is shown \"fill\" (cropped to cover the frame, the default) or \"fit\" (whole, on black), not \"\(fit.rawValue)\": "
            + (fit == .stretch ? "stretch the picture to the frame's shape before using it" : "for a picture at its own size, put a photo item on a track")
    }
}

// MARK: Compiling

extension TimelineCompiler {
    /// Where fitted pictures leave room: nothing, so the canvas (`output.background`, black unless
    /// given) or the tracks below show there, and a photo's own transparency stays transparent.
    var defaultItemBackground: Color { .clear }

    /// Puts `item`'s filters and transform on `clip`.
    mutating func edit(_ clip: inout Clip, detail: inout String, item: Timeline.Item, at path: JSONPath) throws(MovieMakerError) {
        warnAboutKeyframesPastTheEnd(of: item, lasting: clip.duration, at: path)
        if !item.filters.isEmpty {
            var filters: [Clip.Filter] = []
            for (k, written) in item.filters.enumerated() {
                let p = path.appending("filters").appending(k)
                var spec = written
                for (key, value) in written.parameters { spec.parameters[key] = try fillingColorSlots(value, at: p.appending(key)) }
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
                    // A file that cannot be read (a LUT) is named at its key, as the other values are.
                    let fileKey = (Clip.Filter.descriptor(named: spec.name)?.parameters ?? []).first { parameter in
                        if case .file = parameter.kind { return spec.parameters[parameter.key] != nil }
                        return false
                    }?.key
                    throw .invalidDescription(error.location?.file != nil ? fileKey.map { p.appending($0) } ?? p : p, error.message, file: error.location?.file)
                }
            }
            clip = clip.filtered(filters)
            detail += (detail.isEmpty ? "" : "; ") + "filters " + item.filters.map(\.name).joined(separator: ", ")
        }
        if let mask = item.mask {
            let p = path.appending("mask").appending("item")
            // A mask without a duration of its own lasts as long as its item (from its `at`), as a
            // split's cell does: past its end the item would be hidden.
            let start = mask.item.at?.time(at: rate) ?? .zero
            let outer = cellDuration
            cellDuration = clip.duration > start ? clip.duration - start : nil
            let compiledMask = Result { () throws(MovieMakerError) in try picture(mask.item, at: p, onOverlay: true).clip }
            cellDuration = outer
            var maskClip = try compiledMask.get()
            if start > .zero { maskClip = maskClip.delayed(by: start) }
            if maskClip.duration < clip.duration {
                warnings.append("\(p): the mask ends at \(TimelineComposition.seconds(maskClip.duration)) s, before its item at "
                                + "\(TimelineComposition.seconds(clip.duration)) s: the item is hidden from then on (leave out the mask's duration, or lengthen it)")
            }
            clip = clip.masked(by: maskClip, mode: mask.mode ?? .alpha)
            detail += (detail.isEmpty ? "" : "; ") + "masked (\((mask.mode ?? .alpha).rawValue))"
        }
        if let t = item.transform {
            let transform = try t.clipTransform(at: rate, path: path.appending("transform")).scaled(by: pixelScale)
            do { clip = try clip.transformed(transform) } catch { throw .invalidDescription(path.appending("transform"), error.message) }
            detail += (detail.isEmpty ? "" : "; ") + "transformed"
        }
    }

    /// Says so when a keyframe of `item`'s transform or filters lies after the item ends (`duration`, in
    /// its own time): its value is never shown, so the animation is slower than its keyframes read (a
    /// keyframe given in the movie's time rather than the item's is the usual cause). Only the first such
    /// keyframe of each value is named.
    mutating func warnAboutKeyframesPastTheEnd(of item: Timeline.Item, lasting duration: Time, at path: JSONPath) {
        guard duration > .zero else { return }
        var late: [(JSONPath, Time)] = []
        func check<V>(_ value: Timeline.AnimatedValue<V>?, _ key: String) {
            guard case let .keyframes(keyframes)? = value,
                  let i = keyframes.firstIndex(where: { $0.at.time(at: rate) > duration }) else { return }
            late.append((path.appending("transform").appending(key).appending(i).appending("at"), keyframes[i].at.time(at: rate)))
        }
        if let t = item.transform {
            check(t.position, "position"); check(t.scale, "scale"); check(t.rotation, "rotation"); check(t.opacity, "opacity")
        }
        for (k, filter) in item.filters.enumerated() {
            for key in filter.parameters.keys.sorted() {
                guard case let .array(elements)? = filter.parameters[key] else { continue }
                for (i, element) in elements.enumerated() {
                    guard case let .object(fields) = element, let at = fields["at"],
                          let time = try? SpecObject.time(at, at: path, positive: false).time(at: rate), time > duration else { continue }
                    late.append((path.appending("filters").appending(k).appending(key).appending(i).appending("at"), time))
                    break
                }
            }
        }
        for (p, time) in late {
            warnings.append("\(p): the keyframe at \(TimelineComposition.seconds(time)) s comes after the item ends at "
                            + "\(TimelineComposition.seconds(duration)) s (keyframe times are in the item's own time, from 0): its value is never reached")
        }
    }

    /// Refuses a font `family` (or comma-separated families) that is not installed, at `path` (the
    /// item's `font`), before the first frame: text drawn only while rendering (captions) would
    /// otherwise pass `validate` and fail the render without a path.
    func checkFont(_ family: String, at path: JSONPath) throws(MovieMakerError) {
        for name in TextFont(family: family, size: 12).familyNames where !FontLibrary.hasFamily(name) {
            throw MovieMakerError.fontNotFound(family: name, closest: FontLibrary.closestFamilies(to: name)).located(jsonPath: path.description)
        }
    }

    /// An item's own `duration`, or in a split's cell without one, the split's (`cellDuration`).
    func duration(_ value: Timeline.TimeValue?, at path: JSONPath) throws(MovieMakerError) -> Time {
        if let value { return value.time(at: rate) }
        if let cellDuration { return cellDuration }
        throw .invalidDescription(path.appending("duration"), "needs a duration, as in \"duration\": \"3s\" (a split's cell may leave it out when the split or another cell has one)")
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
            let url = try self.file(.file(file), at: path.appending("image"), kinds: [.photo], fileKey: nil)
            try checkPhoto(url, at: path.appending("image"))
            let slideshowFit: Slideshow.Fit
            switch fit ?? .fill {
            case .fit: slideshowFit = .fit
            case .fill: slideshowFit = .fill
            case .stretch, .center: throw .invalidDescription(path.appending("fit"), Timeline.Backdrop.imageFitProblem(fit ?? .fill))
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
