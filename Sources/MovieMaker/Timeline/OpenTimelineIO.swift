import Foundation

/// OpenTimelineIO (`.otio`) files in and out, for the part of a description that maps onto them — in
/// pure Swift, no Python needed.
///
/// What maps: Timeline → Stack → Track (`Video`, `Audio`) → Clip with an `ExternalReference` and a
/// `source_range`, `Gap`, `Transition`, `LinearTimeWarp` (speed; a negative scalar plays backwards),
/// `FreezeFrame` and `Marker`. Items that are not files (titles, colours, slideshows, generators) are
/// Clips with a `GeneratorReference`; every item also carries its own description under
/// `metadata.moviemaker`, so MovieMaker reads back exactly what it wrote. Anything else an imported file
/// holds (other effects, nested stacks, other references) is kept under `metadata.otio` and reported
/// as a warning; metadata of other tools survives import and export untouched.
///
/// **Transitions.** MovieMaker's transitions overlap the end of one item with the start of the next, as
/// FFmpeg's xfade does: items of 3 s and 4 s joined by a 1 s fade last 6 s. OpenTimelineIO's are
/// centred on a cut: the two clips abut, and the transition borrows `in_offset` of media before the
/// cut from the incoming clip and `out_offset` after it from the outgoing one. A transition of `d` is
/// exported with the cut at the overlap's middle — `in_offset` is `d/2` rounded down to a frame,
/// `out_offset` the rest — the outgoing clip's range shortened by `out_offset` and the incoming clip's
/// range starting `in_offset` later. The track's duration and every frame stay the same; importing
/// undoes it (`d = in_offset + out_offset`).
///
/// **Times.** OpenTimelineIO writes rates as floating-point numbers (23.976… for 24000/1001): a rate
/// within a millionth of an NTSC rate (N × 1000/1001) or of a whole number is read as that exact
/// fraction, and whole frame counts are read as frames, so a two-hour 23.976 timeline does not drift.
public enum OpenTimelineIO {
    /// Where an import keeps, until its tracks are whole, an item's place in the track it was exported
    /// from (`metadata.moviemaker.index` of a clip in a lane).
    static let stackingKey = "moviemaker.index"

    /// What an import made: the description, and what could not be mapped (kept under metadata).
    public struct Imported: Sendable {
        /// The description.
        public var timeline: Timeline
        /// One sentence per thing that did not map, naming where it was.
        public var warnings: [String]
    }

    /// What an export made: the `.otio` document, and what could not be expressed in it.
    public struct Exported: Sendable {
        /// The OpenTimelineIO document (write it with `canonicalText`).
        public var document: JSONValue
        /// One sentence per thing OpenTimelineIO cannot say (kept under metadata).
        public var warnings: [String]
    }

    /// The file extensions read as photos (any other media file is a video, or a sound on an audio track).
    static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "heic", "heif", "avif", "tif", "tiff", "bmp", "gif"]

    // MARK: Export

    /// Exports `timeline` (resolved with `options`: every file is opened to know its length) as an
    /// OpenTimelineIO document. Media paths become absolute `file://` URLs.
    public static func export(_ timeline: Timeline, options: Timeline.RenderOptions) throws(MovieMakerError) -> Exported {
        // The description kept in the metadata names its files by absolute path, as the media
        // references do, so an import into any folder can write them relative to the new description.
        let timeline = timeline.absolutized(from: options.mediaFolder)
        let composition = try timeline.composition(options)
        let rate = timeline.output.resolvedFrameRate
        var warnings: [String] = []
        var children: [JSONValue] = []
        let planByPath = Dictionary(composition.plan.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        for (t, track) in timeline.tracks.enumerated() {
            let path = JSONPath().appending("tracks").appending(t)
            var trackInfo: [String: JSONValue] = ["kind": .string(track.kind.rawValue)]
            if let name = track.name { trackInfo["name"] = .string(name) }
            if let enabled = track.enabled { trackInfo["enabled"] = .bool(enabled) }
            switch track.kind {
            case .video:
                children.append(trackJSON(name: track.name ?? "V\(t + 1)", kind: "Video", enabled: track.enabled ?? true,
                                          children: try sequenceChildren(track, at: path, plan: planByPath, composition: composition, rate: rate),
                                          markers: track.markers.map { marker($0, offset: .zero, speed: .normal, rate: rate) },
                                          metadata: merge(track.metadata, moviemaker: .object(trackInfo))))
            case .overlay, .audio:
                // OpenTimelineIO's tracks are sequences: items that overlap go to further tracks (lanes).
                let lanes = try placedLanes(track, at: path, plan: planByPath, composition: composition, rate: rate, movie: composition.duration)
                for (lane, items) in lanes.enumerated() {
                    var info = trackInfo
                    info["track"] = .integer(t)
                    info["lane"] = .integer(lane)
                    children.append(trackJSON(name: (track.name ?? (track.kind == .audio ? "A\(t + 1)" : "V\(t + 1)")) + (lane > 0 ? " (\(lane + 1))" : ""),
                                              kind: track.kind == .audio ? "Audio" : "Video", enabled: track.enabled ?? true, children: items,
                                              markers: lane == 0 ? track.markers.map { marker($0, offset: .zero, speed: .normal, rate: rate) } : [],
                                              metadata: merge(lane == 0 ? track.metadata : [:], moviemaker: .object(info))))
                }
                if lanes.count > 1 {
                    warnings.append("\(path): overlapping items were split over \(lanes.count) OpenTimelineIO tracks (importing puts them back together)")
                }
            }
        }
        var info: [String: JSONValue] = ["version": .integer(Timeline.currentVersion), "output": timeline.output.json]
        if let schema = timeline.schema { info["$schema"] = .string(schema) }
        if let template = timeline.template {
            var t: [String: JSONValue] = ["title": .string(template.title)]
            if let d = template.description { t["description"] = .string(d) }
            if let th = template.thumbnail { t["thumbnail"] = .string(th) }
            info["template"] = .object(t)
        }
        if !timeline.slots.isEmpty { info["slots"] = .object(timeline.slots.mapValues(\.json)) }
        let stack: JSONValue = .object([
            "OTIO_SCHEMA": .string("Stack.1"), "name": .string("tracks"), "metadata": .object([:]), "source_range": .null,
            "effects": .array([]), "enabled": .bool(true), "children": .array(children),
            "markers": .array(timeline.markers.map { marker($0, offset: .zero, speed: .normal, rate: rate) }),
        ])
        let document: JSONValue = .object([
            "OTIO_SCHEMA": .string("Timeline.1"), "name": .string(timeline.template?.title ?? "MovieMaker timeline"),
            "global_start_time": .null, "tracks": stack, "metadata": merge(timeline.metadata, moviemaker: .object(info)),
        ])
        return Exported(document: document, warnings: warnings)
    }

    static func merge(_ metadata: [String: JSONValue], moviemaker: JSONValue) -> JSONValue {
        var m = metadata
        m["moviemaker"] = moviemaker
        return .object(m)
    }

    static func trackJSON(name: String, kind: String, enabled: Bool, children: [JSONValue], markers: [JSONValue], metadata: JSONValue) -> JSONValue {
        .object(["OTIO_SCHEMA": .string("Track.1"), "name": .string(name), "kind": .string(kind), "metadata": metadata,
                 "source_range": .null, "effects": .array([]), "markers": .array(markers), "enabled": .bool(enabled),
                 "children": .array(children)])
    }

    /// A floating-point JSON number that always has a decimal point (`30.0`), as OpenTimelineIO writes them.
    static func float(_ d: Double) -> JSONValue {
        guard d.isFinite else { return .number("0.0") }
        if d == d.rounded(), abs(d) < 1e15 { return .number("\(Int64(d)).0") }
        return .number("\(d)")
    }

    static func rationalTime(_ t: Time, rate: FrameRate) -> JSONValue {
        // The value in frames: exact when t is on the frame grid.
        let frames = Rational(t) * Rational(Int64(rate.numerator), Int64(rate.denominator))
        let value = frames.den == 1 ? Double(frames.num) : Double(frames.num) / Double(frames.den)
        return .object(["OTIO_SCHEMA": .string("RationalTime.1"), "rate": float(rate.framesPerSecond), "value": float(value)])
    }

    static func timeRange(start: Time, duration: Time, rate: FrameRate) -> JSONValue {
        .object(["OTIO_SCHEMA": .string("TimeRange.1"), "start_time": rationalTime(start, rate: rate), "duration": rationalTime(duration, rate: rate)])
    }

    static func marker(_ m: Timeline.Marker, offset: Time, speed: Speed, rate: FrameRate) -> JSONValue {
        .object(["OTIO_SCHEMA": .string("Marker.2"), "name": .string(m.name), "metadata": .object([:]),
                 "color": .string(m.color ?? "RED"), "comment": .string(m.comment ?? ""),
                 "marked_range": timeRange(start: offset + speed.sourceTime(at: m.at.time(at: rate)),
                                           duration: m.duration?.time(at: rate) ?? .zero, rate: rate)])
    }

    /// The OpenTimelineIO item for one of ours: shown from `head` (item time trimmed off its start) for `duration`.
    static func clipJSON(_ item: Timeline.Item, at path: JSONPath, kind: Timeline.Track.Kind, head: Time, duration: Time,
                         composition: TimelineComposition, rate: FrameRate) throws(MovieMakerError) -> JSONValue {
        let own = try item.json(in: kind)
        var metadata = item.metadata
        var effects: [JSONValue] = []
        let reference: JSONValue
        var sourceStart = head
        var speed = Speed.normal
        if case .gap = item.content {
            return .object(["OTIO_SCHEMA": .string("Gap.1"), "name": .string(item.label ?? ""), "metadata": .object(metadata),
                            "source_range": timeRange(start: head, duration: duration, rate: rate), "effects": .array([]),
                            "markers": .array([]), "enabled": .bool(item.enabled ?? true)])
        }
        if let timing = composition.sources[path.description] {
            speed = timing.speed
            sourceStart = timing.start + (timing.isReversed || timing.isFrozen ? .zero : speed.sourceTime(at: head))
            let available: JSONValue = timing.fileDuration.map { timeRange(start: .zero, duration: $0, rate: rate) } ?? .null
            reference = .object(["OTIO_SCHEMA": .string("ExternalReference.1"), "name": .string(""), "metadata": .object([:]),
                                 "target_url": .string(timing.file.absoluteURL.absoluteString), "available_range": available,
                                 "available_image_bounds": .null])
            if timing.isFrozen {
                effects.append(.object(["OTIO_SCHEMA": .string("FreezeFrame.1"), "name": .string(""), "metadata": .object([:]),
                                        "effect_name": .string("FreezeFrame"), "time_scalar": float(0)]))
            } else if speed != .normal || timing.isReversed {
                effects.append(.object(["OTIO_SCHEMA": .string("LinearTimeWarp.1"), "name": .string(""), "metadata": .object([:]),
                                        "effect_name": .string("LinearTimeWarp"),
                                        "time_scalar": float((timing.isReversed ? -1 : 1) * speed.factor)]))
            }
        } else {
            reference = .object(["OTIO_SCHEMA": .string("GeneratorReference.1"), "name": .string(""), "metadata": .object([:]),
                                 "generator_kind": .string(generatorKind(item.content)), "parameters": own,
                                 "available_range": .null, "available_image_bounds": .null])
        }
        let plan = composition.plan.first { $0.path == path.description }
        // The item as MovieMaker wrote it, and the range it was written with: an import that finds the
        // same range takes the item back as it was (an editor that trimmed it changes the range).
        metadata["moviemaker"] = .object(["item": own, "range": timeRange(start: sourceStart, duration: duration, rate: rate),
                                          "effects": .integer(effects.count)])
        return .object([
            "OTIO_SCHEMA": .string("Clip.2"), "name": .string(item.label ?? plan?.what.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? item.typeName),
            "metadata": .object(metadata), "source_range": timeRange(start: sourceStart, duration: duration, rate: rate),
            "effects": .array(effects), "enabled": .bool(item.enabled ?? true),
            "markers": .array(item.markers.map { marker($0, offset: sourceStart - speed.sourceTime(at: head), speed: speed, rate: rate) }),
            "media_references": .object(["DEFAULT_MEDIA": reference]), "active_media_reference_key": .string("DEFAULT_MEDIA"),
        ])
    }

    static func generatorKind(_ content: Timeline.Content) -> String {
        switch content {
        case .color: return "SolidColor"
        case let .generator(g): return "moviemaker.\(g.name)"
        default: return "moviemaker.\(content.typeName)"
        }
    }

    static func gapJSON(_ duration: Time, rate: FrameRate) -> JSONValue {
        .object(["OTIO_SCHEMA": .string("Gap.1"), "name": .string(""), "metadata": .object([:]),
                 "source_range": timeRange(start: .zero, duration: duration, rate: rate), "effects": .array([]),
                 "markers": .array([]), "enabled": .bool(true)])
    }

    /// A video track's items and transitions, cut-centred.
    static func sequenceChildren(_ track: Timeline.Track, at path: JSONPath, plan: [String: TimelineComposition.PlannedItem],
                                 composition: TimelineComposition, rate: FrameRate) throws(MovieMakerError) -> [JSONValue] {
        let entries = track.items.indices.map { plan[path.appending("items").appending($0).description] }
        guard entries.allSatisfy({ $0 != nil }) else { return [] }   // a disabled track is not in the plan
        let placed = entries.map { $0! }
        // The part of each overlap before the cut (in_offset) and after it (out_offset).
        var offsets: [(in: Time, out: Time)?] = []
        for i in placed.indices.dropLast() {
            let overlap = placed[i].start + placed[i].duration - placed[i + 1].start
            guard overlap > .zero else { offsets.append(nil); continue }
            let frames = rate.frameCount(for: overlap)
            let before = rate.time(ofFrame: frames / 2)
            let inOffset = Time.min(before, overlap)
            offsets.append((inOffset, overlap - inOffset))
        }
        var children: [JSONValue] = []
        for (i, item) in track.items.enumerated() {
            let head = i > 0 ? offsets[i - 1]?.in ?? .zero : .zero
            let tail = i < offsets.count ? offsets[i]?.out ?? .zero : .zero
            let itemPath = path.appending("items").appending(i)
            children.append(try clipJSON(item, at: itemPath, kind: .video, head: head, duration: placed[i].duration - head - tail,
                                         composition: composition, rate: rate))
            if i < offsets.count, let o = offsets[i] {
                let name = item.transition?.name ?? "fade"
                var info: [String: JSONValue] = ["name": .string(name)]
                if let easing = item.transition?.easing { info["easing"] = try easing.specJSON() }
                children.append(.object([
                    "OTIO_SCHEMA": .string("Transition.1"), "name": .string(name),
                    "transition_type": .string(name == "fade" || name == "crossfade" || name == "dissolve" ? "SMPTE_Dissolve" : "Custom_Transition"),
                    "in_offset": rationalTime(o.in, rate: rate), "out_offset": rationalTime(o.out, rate: rate),
                    "metadata": .object(["moviemaker": .object(info)]),
                ]))
            }
        }
        return children
    }

    /// An overlay or audio track's items placed in lanes of non-overlapping items, with gaps between.
    static func placedLanes(_ track: Timeline.Track, at path: JSONPath, plan: [String: TimelineComposition.PlannedItem],
                            composition: TimelineComposition, rate: FrameRate, movie: Time) throws(MovieMakerError) -> [[JSONValue]] {
        var lanes: [(end: Time, children: [JSONValue])] = []
        let order = track.items.indices.compactMap { i -> (Int, TimelineComposition.PlannedItem)? in
            plan[path.appending("items").appending(i).description].map { (i, $0) }
        }.sorted { $0.1.start < $1.1.start || ($0.1.start == $1.1.start && $0.0 < $1.0) }
        for (i, entry) in order {
            let duration = Time.min(entry.duration, Time.max(.zero, movie - entry.start))
            guard duration > .zero else { continue }
            var clip = try clipJSON(track.items[i], at: path.appending("items").appending(i), kind: track.kind, head: .zero, duration: duration,
                                    composition: composition, rate: rate)
            // The item's place in its track, which stacks overlapping items (the later on top): lanes
            // order them by time, so an import puts them back in this order.
            if case var .object(o) = clip, case var .object(m)? = o["metadata"], case var .object(own)? = m["moviemaker"] {
                own["index"] = .integer(i); m["moviemaker"] = .object(own); o["metadata"] = .object(m); clip = .object(o)
            }
            if let lane = lanes.firstIndex(where: { $0.end <= entry.start }) {
                if entry.start > lanes[lane].end { lanes[lane].children.append(gapJSON(entry.start - lanes[lane].end, rate: rate)) }
                lanes[lane].children.append(clip)
                lanes[lane].end = entry.start + duration
            } else {
                var children: [JSONValue] = []
                if entry.start > .zero { children.append(gapJSON(entry.start, rate: rate)) }
                children.append(clip)
                lanes.append((entry.start + duration, children))
            }
        }
        return lanes.isEmpty ? [[]] : lanes.map(\.children)
    }
}

// MARK: Import

extension OpenTimelineIO {
    /// Reads an OpenTimelineIO document into a description. File references become paths relative to
    /// `specFolder` (where the description will be written) when inside it, absolute otherwise;
    /// relative references are read from `otioFolder`. The first video track becomes a video track (a
    /// sequence), further video tracks overlay tracks, audio tracks audio tracks.
    ///
    /// Throws `.invalidDescription` (with the JSON path) for a document that is not an OpenTimelineIO
    /// timeline or has malformed times; everything that does not map is kept under metadata and listed
    /// in `warnings`.
    public static func `import`(_ document: JSONValue, otioFolder: URL, specFolder: URL) throws(MovieMakerError) -> Imported {
        var reader = Reader(otioFolder: otioFolder, specFolder: specFolder)
        // Paths from the metadata (items read back as written, slot defaults, the thumbnail) are absolute
        // in an export; those inside the new description's folder are written relative to it.
        let timeline = try reader.timeline(document).relativized(to: specFolder)
        return Imported(timeline: timeline, warnings: reader.warnings)
    }

    struct Reader {
        let otioFolder: URL
        let specFolder: URL
        var warnings: [String] = []
        var rate: FrameRate = 24
        var slots: [String: Timeline.Slot] = [:]
        /// Whether MovieMaker wrote the file (its timeline has our metadata): then marker times come back
        /// in seconds, as the description's own times are, so a render at another rate keeps them.
        var writtenByMovieMaker = false

        init(otioFolder: URL, specFolder: URL) { self.otioFolder = otioFolder; self.specFolder = specFolder }

        func schema(_ v: JSONValue) -> String? { v["OTIO_SCHEMA"]?.stringValue }

        func fail(_ path: JSONPath, _ message: String) -> MovieMakerError { .invalidDescription(path, message) }

        /// An exact frame rate from OpenTimelineIO's floating-point one.
        static func exactRate(_ d: Double) -> FrameRate? {
            guard d.isFinite, d > 0, d <= 100_000 else { return nil }
            let ntsc = (d * 1.001).rounded()
            if ntsc >= 1, abs(d - ntsc * 1000 / 1001) <= d * 1e-6 { return FrameRate(numerator: Int(ntsc) * 1000, denominator: 1001) }
            if abs(d - d.rounded()) <= d * 1e-6, d.rounded() >= 1 { return FrameRate(numerator: Int(d.rounded())) }
            let t = Time(roundTripping: d)
            return FrameRate(numerator: Int(t.value), denominator: Int(t.timescale))
        }

        func time(_ v: JSONValue?, at path: JSONPath) throws(MovieMakerError) -> Time {
            guard let v, case .object = v, let rateValue = v["rate"]?.doubleValue, let value = v["value"]?.doubleValue,
                  let rate = Self.exactRate(rateValue) else {
                throw fail(path, "must be an OpenTimelineIO RationalTime {\"rate\": 24.0, \"value\": 12.0} with a positive rate, got \(v?.shortDescription ?? "nothing")")
            }
            guard abs(value) <= 86_400 * rateValue else { throw fail(path, "is more than 24 hours (\(value) frames at \(rateValue) fps)") }
            let frames = value == value.rounded() ? Time(value: Int64(value), timescale: 1) : Time(roundTripping: value)
            return (Rational(frames) * Rational(Int64(rate.denominator), Int64(rate.numerator))).time
        }

        func range(_ v: JSONValue?, at path: JSONPath) throws(MovieMakerError) -> (start: Time, duration: Time)? {
            guard let v, v != .null else { return nil }
            return (try time(v["start_time"], at: path.appending("start_time")), try time(v["duration"], at: path.appending("duration")))
        }

        /// A time as a description writes it: whole frames as `"90f"`, anything else exactly in seconds.
        func value(_ t: Time) -> Timeline.TimeValue {
            let frames = Rational(t) * Rational(Int64(rate.numerator), Int64(rate.denominator))
            return frames.den == 1 ? .frames(frames.num) : .seconds(t)
        }

        mutating func timeline(_ doc: JSONValue) throws(MovieMakerError) -> Timeline {
            guard schema(doc)?.hasPrefix("Timeline.") == true else {
                throw fail(.root, "not an OpenTimelineIO timeline: expected \"OTIO_SCHEMA\": \"Timeline.1\", got \(doc["OTIO_SCHEMA"]?.shortDescription ?? doc.kindName)")
            }
            var timeline = Timeline()
            var metadata = doc["metadata"]?.objectValue ?? [:]
            let info = metadata.removeValue(forKey: "moviemaker")
            writtenByMovieMaker = info != nil
            timeline.metadata = metadata
            let contextPath = JSONPath().appending("metadata").appending("moviemaker")
            if let slotsValue = info?["slots"] {
                let shape = SpecShape(name: "moviemaker", doc: "MovieMaker's metadata", fields: TimelineShapes.timeline.fields.filter { $0.key == "slots" })
                let reader = try SpecObject(.object(["slots": slotsValue]), at: contextPath, shape: shape, what: "MovieMaker's metadata")
                slots = try reader.slots("slots")
                timeline.slots = slots
            }
            if let out = info?["output"] {
                let o = try SpecObject(out, at: contextPath.appending("output"), shape: TimelineShapes.output, what: "output settings")
                timeline.output = try Timeline.Output(reading: o, SpecContext(slots: slots))
            }
            timeline.schema = info?["$schema"]?.stringValue
            if let t = info?["template"], let title = t["title"]?.stringValue {
                timeline.template = Timeline.Template(title: title, description: t["description"]?.stringValue, thumbnail: t["thumbnail"]?.stringValue)
            }
            let stackPath = JSONPath().appending("tracks")
            guard let stack = doc["tracks"], schema(stack)?.hasPrefix("Stack.") == true, let children = stack["children"]?.arrayValue else {
                throw fail(stackPath, "an OpenTimelineIO timeline's tracks are a Stack with children")
            }
            // The rate: the description's, else the first rate in the file.
            if let fps = timeline.output.fps {
                rate = fps
            } else if let found = Self.firstRate(in: stack) {
                rate = found
                timeline.output.fps = found
            }
            if timeline.output.size == nil {
                warnings.append("the frame size is not in the OpenTimelineIO file: 1920x1080 is used (set output.size)")
            }
            // Tracks: overlay and audio lanes MovieMaker split go back together.
            var firstVideo = true
            var lanesOf: [Int: Int] = [:]   // exported track index → index in timeline.tracks
            for (i, child) in children.enumerated() {
                let path = stackPath.appending("children").appending(i)
                guard schema(child)?.hasPrefix("Track.") == true else {
                    warnings.append("\(path): \(schema(child).map(SpecObject.article) ?? child.kindName) directly in the stack is not a track; kept under metadata.otio")
                    var unmapped = timeline.metadata["otio"]?.objectValue ?? [:]
                    unmapped["unmapped"] = .array((unmapped["unmapped"]?.arrayValue ?? []) + [child])
                    timeline.metadata["otio"] = .object(unmapped)
                    continue
                }
                var trackMetadata = child["metadata"]?.objectValue ?? [:]
                let trackInfo = trackMetadata.removeValue(forKey: "moviemaker")
                let isAudio = child["kind"]?.stringValue == "Audio"
                var kind: Timeline.Track.Kind = isAudio ? .audio : firstVideo ? .video : .overlay
                if let k = trackInfo?["kind"]?.stringValue.flatMap(Timeline.Track.Kind.init(rawValue:)), (k == .audio) == isAudio { kind = k }
                if kind == .video { firstVideo = false }
                let items = try self.items(child["children"]?.arrayValue ?? [], at: path.appending("children"), kind: kind)
                let markers = try self.markers(child["markers"], at: path.appending("markers"), offset: .zero, speed: .normal)
                if let exported = trackInfo?["track"].flatMap({ $0.doubleValue }).map({ Int($0) }), let existing = lanesOf[exported],
                   timeline.tracks[existing].kind == kind {
                    timeline.tracks[existing].items += items
                    continue
                }
                // MovieMaker's own tracks keep their own name (or none); others take OpenTimelineIO's.
                let name = trackInfo != nil ? trackInfo?["name"]?.stringValue : child["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                let track = Timeline.Track(kind, name: name,
                                           enabled: child["enabled"] == .bool(false) ? false : trackInfo?["enabled"] == .bool(true) ? true : nil,
                                           items: items, markers: markers, metadata: trackMetadata)
                if let exported = trackInfo?["track"].flatMap({ $0.doubleValue }).map({ Int($0) }) { lanesOf[exported] = timeline.tracks.count }
                timeline.tracks.append(track)
            }
            // Items MovieMaker split over lanes go back in their track's order (it stacks them); the
            // place each recorded is not kept in the description.
            for t in timeline.tracks.indices {
                let items = timeline.tracks[t].items
                let places = items.map { $0.metadata[OpenTimelineIO.stackingKey]?.doubleValue }
                if places.allSatisfy({ $0 != nil }) {
                    timeline.tracks[t].items = zip(items, places).enumerated().sorted { a, b in
                        (a.element.1!, a.offset) < (b.element.1!, b.offset)
                    }.map(\.element.0)
                }
                for i in timeline.tracks[t].items.indices { timeline.tracks[t].items[i].metadata.removeValue(forKey: OpenTimelineIO.stackingKey) }
            }
            timeline.markers = try markers(stack["markers"], at: stackPath.appending("markers"), offset: .zero, speed: .normal)
            return timeline
        }

        static func firstRate(in v: JSONValue) -> FrameRate? {
            if let r = v["source_range"]?["duration"]?["rate"]?.doubleValue { return exactRate(r) }
            for child in v["children"]?.arrayValue ?? [] { if let r = firstRate(in: child) { return r } }
            return nil
        }

        func markers(_ v: JSONValue?, at path: JSONPath, offset: Time, speed: Speed) throws(MovieMakerError) -> [Timeline.Marker] {
            var result: [Timeline.Marker] = []
            for (i, m) in (v?.arrayValue ?? []).enumerated() {
                let p = path.appending(i)
                guard let r = try range(m["marked_range"], at: p.appending("marked_range")) else { continue }
                let at = speed.outputTime(at: Time.max(.zero, r.start - offset))
                let comment = m["comment"]?.stringValue
                // RED is OpenTimelineIO's default, which an export writes for a marker without a colour:
                // read back as none, so a description goes out and comes back the same.
                let color = m["color"]?.stringValue
                let written = { (t: Time) -> Timeline.TimeValue in self.writtenByMovieMaker ? .seconds(t) : self.value(t) }
                result.append(Timeline.Marker(m["name"]?.stringValue ?? "", at: written(at), duration: r.duration > .zero ? written(r.duration) : nil,
                                              color: color == "RED" ? nil : color, comment: comment?.isEmpty == true ? nil : comment))
            }
            return result
        }

        /// A file reference's path, as the description should name it.
        func filePath(ofURL text: String) -> String {
            var absolute: String
            if text.hasPrefix("file://"), let url = URL(string: text) {
                absolute = url.path
            } else if text.hasPrefix("/") {
                absolute = text
            } else {
                absolute = otioFolder.appendingPathComponent(text.removingPercentEncoding ?? text).standardizedFileURL.path
            }
            absolute = URL(fileURLWithPath: absolute).standardizedFileURL.path
            return Timeline.relativePath(absolute, from: specFolder)
        }

        mutating func keep(_ value: JSONValue, in metadata: inout [String: JSONValue], at path: JSONPath, what: String) {
            warnings.append("\(path): \(what) does not map onto MovieMaker; kept under metadata.otio")
            var otio = metadata["otio"]?.objectValue ?? [:]
            otio["unmapped"] = .array((otio["unmapped"]?.arrayValue ?? []) + [value])
            metadata["otio"] = .object(otio)
        }

        /// What the first pass keeps of one clip or gap: its item, its length on the track, and how its
        /// range maps to its source (for the second pass, which undoes the cut-centring of transitions).
        struct Piece {
            var item: Timeline.Item
            var duration: Time
            var sourceStart: Time?
            var speed: Speed
            var shifts = true
            var untouched = false
            var file: String? = nil
        }

        /// A transition's offsets around the cut after a piece, and its name and easing.
        struct CutTransition {
            var inOffset: Time
            var outOffset: Time
            var name: String
            var easing: Easing?
        }

        /// One OpenTimelineIO track's children as items of a track of `kind`: each child read by its kind
        /// (`transition(_:at:)`, `gap(_:at:kind:…)`, `clip(_:at:kind:…)`, anything else as a gap), then
        /// the items' timing written from the pieces and the transitions between them.
        mutating func items(_ children: [JSONValue], at path: JSONPath, kind: Timeline.Track.Kind) throws(MovieMakerError) -> [Timeline.Item] {
            var pieces: [Piece] = []
            var transitions: [Int: CutTransition] = [:]   // after piece index
            var position = Time.zero
            var pending: (transition: CutTransition, path: JSONPath)? = nil
            for (i, child) in children.enumerated() {
                let p = path.appending(i)
                let s = schema(child) ?? ""
                if s.hasPrefix("Transition.") {
                    pending = (try transition(child, at: p), p)
                    continue
                }
                if let t = pending {
                    if pieces.isEmpty || kind != .video {
                        warnings.append("\(t.path): a transition \(pieces.isEmpty ? "before the first item" : "on \(SpecObject.article(kind.rawValue)) track") is dropped")
                    } else {
                        transitions[pieces.count - 1] = t.transition
                    }
                    pending = nil
                }
                if s.hasPrefix("Gap.") {
                    try gap(child, at: p, kind: kind, pieces: &pieces, position: &position)
                } else if s.hasPrefix("Clip.") {
                    try clip(child, at: p, kind: kind, pieces: &pieces, position: &position)
                } else {
                    try other(child, schema: s, at: p, kind: kind, pieces: &pieces, position: &position)
                }
            }
            return timed(pieces, transitions: &transitions, at: path)
        }

        /// A `Transition` child: its offsets, and its name from our metadata (other tools' transitions are
        /// read as fades, with a warning).
        mutating func transition(_ child: JSONValue, at p: JSONPath) throws(MovieMakerError) -> CutTransition {
            let inOffset = try time(child["in_offset"], at: p.appending("in_offset"))
            let outOffset = try time(child["out_offset"], at: p.appending("out_offset"))
            let info = child["metadata"]?["moviemaker"]
            var name = info?["name"]?.stringValue ?? "fade"
            if info == nil, child["transition_type"]?.stringValue != "SMPTE_Dissolve" {
                warnings.append("\(p): the \(child["transition_type"]?.stringValue ?? "unknown") transition is read as a fade")
            }
            if !TimelineShapes.transitionNames.contains(name) || name == "none" { warnings.append("\(p): unknown transition \"\(name)\" read as a fade"); name = "fade" }
            let easing = info?["easing"]?.stringValue.flatMap { try? Easing(named: $0) }
            return CutTransition(inOffset: inOffset, outOffset: outOffset, name: name, easing: easing)
        }

        /// A `Gap` child: a gap item on a video track; on the others, only time passing.
        mutating func gap(_ child: JSONValue, at p: JSONPath, kind: Timeline.Track.Kind, pieces: inout [Piece], position: inout Time) throws(MovieMakerError) {
            var metadata = child["metadata"]?.objectValue ?? [:]
            metadata.removeValue(forKey: "moviemaker")
            let d = try range(child["source_range"], at: p.appending("source_range"))?.duration ?? .zero
            if kind == .video, d > .zero {
                pieces.append(Piece(item: Timeline.Item(.gap(Timeline.Gap(duration: value(d))), metadata: metadata), duration: d, sourceStart: nil, speed: .normal))
            }
            position = position + d
        }

        /// A nested stack or track, or something else: a gap of its length where it can be measured, the
        /// child kept in the gap's metadata.
        mutating func other(_ child: JSONValue, schema s: String, at p: JSONPath, kind: Timeline.Track.Kind,
                            pieces: inout [Piece], position: inout Time) throws(MovieMakerError) {
            var kept: [String: JSONValue] = [:]
            keep(child, in: &kept, at: p, what: s.isEmpty ? child.kindName : SpecObject.article(s))
            let d = try range(child["source_range"], at: p.appending("source_range"))?.duration ?? .zero
            if kind == .video, d > .zero {
                pieces.append(Piece(item: Timeline.Item(.gap(Timeline.Gap(duration: value(d))), metadata: kept), duration: d, sourceStart: nil, speed: .normal))
            }
            position = position + d
        }

        /// A `Clip` child: its media reference, effects (speed, reverse, freeze) and range as an item —
        /// our own item back when MovieMaker wrote it, else a video, photo, audio or colour item.
        mutating func clip(_ child: JSONValue, at p: JSONPath, kind: Timeline.Track.Kind, pieces: inout [Piece], position: inout Time) throws(MovieMakerError) {
            var metadata = child["metadata"]?.objectValue ?? [:]
            let info = metadata.removeValue(forKey: "moviemaker")
            let r = try range(child["source_range"], at: p.appending("source_range"))
            // The media reference.
            var reference: JSONValue? = child["media_reference"]
            if let refs = child["media_references"]?.objectValue {
                reference = refs[child["active_media_reference_key"]?.stringValue ?? "DEFAULT_MEDIA"] ?? refs.values.first
            }
            let available = try range(reference?["available_range"], at: p.appending("media_reference").appending("available_range"))
            guard let duration = r?.duration ?? available?.duration, duration > .zero else {
                keep(child, in: &metadata, at: p, what: "a clip without a length")
                return
            }
            let sourceStart = r?.start ?? available?.start ?? .zero
            // Effects: speed, reverse, freeze.
            var speed = Speed.normal, reversed = false, frozen = false
            for (e, effect) in (child["effects"]?.arrayValue ?? []).enumerated() {
                let es = schema(effect) ?? ""
                if es.hasPrefix("FreezeFrame.") {
                    frozen = true
                } else if es.hasPrefix("LinearTimeWarp."), let scalar = effect["time_scalar"]?.doubleValue {
                    if scalar == 0 { frozen = true; continue }
                    let magnitude = abs(scalar)
                    let s = Speed(magnitude)
                    guard s.isSupported else {
                        keep(effect, in: &metadata, at: p.appending("effects").appending(e), what: "a speed of \(magnitude)× (MovieMaker plays 0.25…4×)")
                        continue
                    }
                    speed = s
                    reversed = scalar < 0
                } else {
                    keep(effect, in: &metadata, at: p.appending("effects").appending(e), what: "the effect \(effect["effect_name"]?.stringValue ?? es)")
                }
            }
            // The file an external reference names.
            let externalFile = schema(reference ?? .null)?.hasPrefix("ExternalReference.") == true
                ? reference?["target_url"]?.stringValue.map { filePath(ofURL: $0) } : nil
            // Our own description of the item, when MovieMaker wrote the file.
            var item: Timeline.Item
            let label = child["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            if let own = info?["item"] {
                item = try Timeline.Item(reading: own, at: p.appending("metadata").appending("moviemaker").appending("item"),
                                         SpecContext(slots: slots, trackKind: kind))
            } else if let url = reference?["target_url"]?.stringValue, schema(reference ?? .null)?.hasPrefix("ExternalReference.") == true {
                let file = filePath(ofURL: url)
                let ext = URL(fileURLWithPath: file).pathExtension.lowercased()
                if kind == .audio {
                    item = Timeline.Item(.audio(Timeline.Audio(music: false, .file(file))))
                } else if OpenTimelineIO.photoExtensions.contains(ext) {
                    item = Timeline.Item(.photo(Timeline.Photo(.file(file))))
                } else {
                    item = Timeline.Item(.video(Timeline.Video(.file(file))))
                }
                item.label = label
            } else if schema(reference ?? .null)?.hasPrefix("GeneratorReference.") == true,
                      reference?["generator_kind"]?.stringValue == "SolidColor", kind != .audio {
                let color = reference?["parameters"]?["color"]?.stringValue ?? "black"
                item = Timeline.Item(.color(Timeline.ColorFill(Timeline.ColorText((try? Color(css: color)) != nil ? color : "black"), duration: value(duration))))
                item.label = label
            } else {
                keep(reference ?? .null, in: &metadata, at: p, what: "a clip whose media is \(schema(reference ?? .null) ?? "missing")")
                item = kind == .audio ? Timeline.Item(.audio(Timeline.Audio(music: false, .file("")))) : Timeline.Item(.gap(Timeline.Gap(duration: value(duration))))
                if kind == .audio { position = position + duration; return }
            }
            for (key, v) in metadata { item.metadata[key] = v }
            if let index = info?["index"] { item.metadata[OpenTimelineIO.stackingKey] = index }
            // Untouched since MovieMaker wrote it: the same range it recorded. Then the item is taken back as it was.
            let sameEffects = info?["effects"]?.doubleValue == Double(child["effects"]?.arrayValue?.count ?? 0)
            let sameEnabled = (child["enabled"] == .bool(false)) == (item.enabled == false)
            if info?["item"] != nil, sameEffects, sameEnabled, let recorded = try? range(info?["range"], at: p), let r,
               recorded.start == r.start, recorded.duration == r.duration {
                pieces.append(Piece(item: item, duration: duration, sourceStart: nil, speed: .normal, untouched: true))
                position = position + duration
                return
            }
            if child["enabled"] == .bool(false) { item.enabled = false }
            item.markers = try markers(child["markers"], at: p.appending("markers"), offset: sourceStart, speed: speed)
            if kind != .video { item.at = value(position) }
            // Timing from OpenTimelineIO wins over the copy in metadata (an editor may have trimmed it).
            switch item.content {
            case var .video(v):
                v.speed = speed == .normal ? (v.speed == nil ? nil : .normal) : speed
                if v.speed == .normal && info == nil { v.speed = nil }
                v.reverse = reversed ? true : (v.reverse == nil ? nil : false)
                v.freeze = frozen ? true : (v.freeze == nil ? nil : false)
                if frozen { v.speed = nil; v.reverse = nil }
                item.content = .video(v)
                // A reversed or frozen clip's range starts where its source span starts, whatever is trimmed off.
                pieces.append(Piece(item: item, duration: duration, sourceStart: sourceStart, speed: frozen ? .normal : speed, shifts: !reversed && !frozen, file: externalFile))
            case .audio:
                pieces.append(Piece(item: item, duration: duration, sourceStart: sourceStart, speed: .normal,
                                    file: externalFile))
            default:
                pieces.append(Piece(item: item, duration: duration, sourceStart: nil, speed: .normal))
            }
            position = position + duration
        }

        /// The second pass: undoes the cut-centring of transitions, then writes each item's timing.
        mutating func timed(_ pieces: [Piece], transitions: inout [Int: CutTransition], at path: JSONPath) -> [Timeline.Item] {
            var items: [Timeline.Item] = []
            for (i, piece) in pieces.enumerated() {
                var item = piece.item
                if piece.untouched { items.append(item); continue }
                let before = i > 0 ? transitions[i - 1]?.inOffset ?? .zero : .zero
                let after = transitions[i]?.outOffset ?? .zero
                var head = before
                var start = piece.sourceStart.map { piece.shifts ? $0 - piece.speed.sourceTime(at: before) : $0 }
                if let s = start, s < .zero {
                    warnings.append("\(path.appending(i)): the clip has too little media before its cut for the transition; the transition is shortened")
                    head = Time.max(.zero, before + piece.speed.outputTime(at: s))
                    start = .zero
                    if i > 0, var t = transitions[i - 1] { t.inOffset = head; transitions[i - 1] = t }
                }
                let duration = piece.duration + head + after
                // Markers were read relative to the trimmed range; the item starts `head` earlier.
                if head > .zero { item.markers = item.markers.map { var m = $0; m.at = writtenByMovieMaker ? .seconds(m.at.time(at: rate) + head) : value(m.at.time(at: rate) + head); return m } }
                if let t = transitions[i] {
                    let overlap = t.inOffset + t.outOffset
                    item.transition = overlap > .zero ? Timeline.TransitionSpec(t.name, duration: value(overlap), easing: t.easing) : nil
                }
                // A slot's clip fitted to its item and then trimmed in an editor: the range is the file's, so
                // the item names the file (filling the slot again would play another clip at that range).
                func pinned(_ source: Timeline.Source) -> Timeline.Source {
                    guard case let .slot(name) = source, let file = piece.file else { return source }
                    warnings.append("\(path.appending(i)): the clip of slot \"\(name)\" was edited in OpenTimelineIO: the item now names its file \(file)")
                    return .file(file)
                }
                switch item.content {
                case var .video(v):
                    v.source = pinned(v.source)
                    v.in = start.flatMap { $0 > .zero ? value($0) : (v.in == nil ? nil : value(.zero)) }
                    v.duration = value(duration)
                    item.content = .video(v)
                case var .audio(a):
                    a.source = pinned(a.source)
                    a.in = start.flatMap { $0 > .zero ? value($0) : (a.in == nil ? nil : value(.zero)) }
                    a.duration = value(duration)
                    item.content = .audio(a)
                default: item.content = item.content.kind.withLength(value(duration)).content
                }
                items.append(item)
            }
            return items
        }
    }
}
