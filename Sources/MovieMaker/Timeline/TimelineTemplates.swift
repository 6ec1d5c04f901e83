import Foundation

// Templates: filling slots with the user's media and text (seed 001's one-click editing), and writing
// the filled timeline as a new template (seed 001's "template B").

extension Timeline {
    /// The names of the media slots (video, photo, media) in the order the movie first uses them: tracks
    /// in order, items in order, a slideshow's photos in order. `--media a.mp4 b.jpg` fills them in this order.
    package var mediaSlotOrder: [String] {
        var order: [String] = []
        func note(_ source: Source) {
            if case let .slot(name) = source, let slot = slots[name], [.video, .photo, .media].contains(slot.kind), !order.contains(name) {
                order.append(name)
            }
        }
        for track in tracks {
            for item in track.items {
                item.content.kind.mediaSlotSources.forEach(note)
            }
        }
        return order
    }

    /// The slots the movie uses that hold nothing yet (no default, not filled), by name.
    package var emptySlots: [String] { slots.filter { $0.value.default == nil }.keys.sorted() }

    /// This timeline with `values` in its slots: each becomes the slot's `default`, so the result renders
    /// with them and is itself a template (its slots can be filled again).
    ///
    /// Throws `.invalidDescription` at `slots.<name>` for a name no slot has, or a value of the wrong
    /// kind: a text for a media slot, a file for a text slot, a colour that does not parse, a text longer
    /// than its slot's `maxLength`. Files are not opened here (the composition opens them).
    public func filled(with values: [String: SlotValue]) throws(MovieMakerError) -> Timeline {
        var copy = self
        for name in values.keys.sorted() {
            let value = values[name]!
            let path = JSONPath().appending("slots").appending(name)
            guard let slot = slots[name] else {
                let known = slots.keys.sorted()
                throw .invalidDescription(path, Self.noSlot(name, known: known))
            }
            switch (slot.kind, value) {
            case (.video, .file), (.photo, .file), (.media, .file), (.audio, .file):
                break
            case let (.text, .text(text)):
                if let maxLength = slot.maxLength, text.count > maxLength {
                    let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
                    throw .invalidDescription(path, "\"\(shown)\" is \(text.count) characters, more than the slot's maxLength of \(maxLength): shorten it (or raise slots.\(name).maxLength in the template)")
                }
            case let (.color, .color(c)):
                guard c.slotName == nil, !c.isNone, (try? Color(css: c.text)) != nil else {
                    throw .invalidDescription(path, "a color slot takes a colour such as \"#ff8000\" or \"tomato\", got \"\(c.text)\"")
                }
            default:
                throw .invalidDescription(path, "the slot \"\(name)\" is \(SpecObject.article(slot.kind.rawValue)) slot and takes \(Self.what(slot.kind)), got \(value)")
            }
            copy.slots[name]?.default = value
        }
        return copy
    }

    /// What a slot of `kind` takes, in words.
    static func what(_ kind: Slot.Kind) -> String {
        switch kind {
        case .video: return "a video file"
        case .photo: return "a photo file"
        case .media: return "a video or photo file"
        case .audio: return "a sound file"
        case .text: return "a text"
        case .color: return "a colour"
        }
    }

    /// The slot values that command-line text gives: `name=value` pairs (`--slot`), where a media or
    /// sound slot's value is a path (relative paths from `folder`, made absolute), a text slot's the text
    /// and a colour slot's a CSS colour; then `media` files (`--media`) into the media slots not yet
    /// given, in `mediaSlotOrder`.
    ///
    /// Throws `.invalidDescription` at `slots.<name>` naming what is wrong: an unknown slot, a file that
    /// does not exist for a media slot (so a text given to a video slot is named as such), more media
    /// files than media slots.
    package func slotValues(assignments: [String], media: [String] = [],
                           relativeTo folder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) throws(MovieMakerError) -> [String: SlotValue] {
        var values: [String: SlotValue] = [:]
        func fileValue(_ text: String, for name: String, kind: Slot.Kind) throws(MovieMakerError) -> SlotValue {
            let url = text.hasPrefix("/") ? URL(fileURLWithPath: text) : folder.appendingPathComponent(text)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                if isDirectory.boolValue {
                    throw .invalidDescription(JSONPath().appending("slots").appending(name),
                                              "the slot \"\(name)\" takes \(Self.what(kind)), but \"\(text)\" is a folder: give a file in it (with --media, files fill the slots in turn: --media \(text.hasSuffix("/") ? text : text + "/")*.jpg)")
                }
                throw .invalidDescription(JSONPath().appending("slots").appending(name),
                                          "the slot \"\(name)\" is \(SpecObject.article(kind.rawValue)) slot and takes \(Self.what(kind)), but \"\(text)\" is not a file (no such file: \(url.standardizedFileURL.path))")
            }
            return .file(url.standardizedFileURL.path)
        }
        for assignment in assignments {
            guard let eq = assignment.firstIndex(of: "="), eq != assignment.startIndex else {
                throw .invalidDescription(JSONPath().appending("slots"), "a slot is filled as NAME=VALUE, e.g. --slot clip1=a.mp4 or --slot name=\"Ana\", got \"\(assignment)\"")
            }
            let name = String(assignment[..<eq]), text = String(assignment[assignment.index(after: eq)...])
            guard let slot = slots[name] else {
                let known = slots.keys.sorted()
                throw .invalidDescription(JSONPath().appending("slots").appending(name),
                                          Self.noSlot(name, known: known))
            }
            switch slot.kind {
            case .video, .photo, .media, .audio: values[name] = try fileValue(text, for: name, kind: slot.kind)
            case .text: values[name] = .text(text)
            case .color: values[name] = .color(ColorText(text))
            }
        }
        let open = mediaSlotOrder.filter { values[$0] == nil }
        guard media.count <= open.count else {
            if mediaSlotOrder.isEmpty {
                throw .invalidDescription(JSONPath().appending("slots"),
                                          "\(media.count) media file\(media.count == 1 ? " was" : "s were") given, but the template has no photo, video or media slot for --media to fill: leave out --media, or declare such a slot"
                                          + (slots.values.contains { $0.kind == .audio } ? " (an audio slot is filled by name: --slot NAME=song.mp3)" : ""))
            }
            throw .invalidDescription(JSONPath().appending("slots"),
                                      "\(media.count) media files were given but the template has \(open.count) media slot\(open.count == 1 ? "" : "s") left to fill (\(open.isEmpty ? "none" : open.joined(separator: ", ")))")
        }
        for (name, text) in zip(open, media) {
            values[name] = try fileValue(text, for: name, kind: slots[name]!.kind)
        }
        return values
    }

    /// This timeline with every relative file path (sources, stickers, subtitles, filters' files such
    /// as LUTs, split cells and masks, slot defaults, the thumbnail) rewritten for a description in
    /// `newFolder` instead of `oldFolder`: relative to `newFolder` when the file is inside it, absolute
    /// otherwise. Absolute paths and URLs are left as they are.
    package func rebased(from oldFolder: URL, to newFolder: URL) -> Timeline {
        mappingFilePaths { path in
            guard !path.hasPrefix("/"), !path.contains("://"), !path.hasPrefix("file:") else { return path }
            let absolute = oldFolder.appendingPathComponent(path).standardizedFileURL.path
            return Self.relativePath(absolute, from: newFolder)
        }
    }

    /// This timeline with every relative path made absolute from `folder` (what an OpenTimelineIO
    /// export keeps in its metadata, like its media references, so an import anywhere can rebase them).
    func absolutized(from folder: URL) -> Timeline {
        mappingFilePaths { path in
            guard !path.hasPrefix("/"), !path.contains("://"), !path.hasPrefix("file:") else { return path }
            return folder.appendingPathComponent(path).standardizedFileURL.path
        }
    }

    /// This timeline with every absolute path inside `folder` written relative to it.
    func relativized(to folder: URL) -> Timeline {
        mappingFilePaths { path in path.hasPrefix("/") ? Self.relativePath(URL(fileURLWithPath: path).standardizedFileURL.path, from: folder) : path }
    }

    /// Every file path the timeline names, as written (sources, stickers, subtitles, filters' files, slot
    /// defaults, the thumbnail, the background image): what an agent's sandbox checks before anything is opened.
    package var namedFiles: [String] {
        var paths: [String] = []
        _ = mappingFilePaths { path in
            paths.append(path)
            return path
        }
        return paths
    }

    /// This timeline with `transform` applied to every file path it names: items' sources (inside split
    /// cells and masks too), stickers, subtitles, filters' file parameters, slot defaults, the thumbnail
    /// and the background image.
    func mappingFilePaths(_ transform: (String) -> String) -> Timeline {
        func map(_ item: Item) -> Item {
            var item = item
            item.content = item.content.kind.mappingFilePaths(transform, items: map).content
            item.filters = item.filters.map { filter in
                guard let descriptor = Clip.Filter.descriptors.first(where: { $0.name == filter.name }) else { return filter }
                var filter = filter
                for parameter in descriptor.parameters {
                    if case .file = parameter.kind, case let .string(path)? = filter.parameters[parameter.key] {
                        filter.parameters[parameter.key] = .string(transform(path))
                    }
                }
                return filter
            }
            if var mask = item.mask {
                mask.item = map(mask.item)
                item.mask = mask
            }
            return item
        }
        var copy = self
        for t in copy.tracks.indices {
            copy.tracks[t].items = copy.tracks[t].items.map(map)
        }
        for name in copy.slots.keys {
            if case let .file(p)? = copy.slots[name]?.default { copy.slots[name]?.default = .file(transform(p)) }
        }
        if let thumbnail = copy.template?.thumbnail { copy.template?.thumbnail = transform(thumbnail) }
        if case let .image(file, fit)? = copy.output.backdrop { copy.output.backdrop = .image(transform(file), fit: fit) }
        return copy
    }

    /// `absolute` written relative to `folder` when it is inside it, else as it is.
    static func relativePath(_ absolute: String, from folder: URL) -> String {
        let base = folder.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }
}

extension Timeline {
    /// The message for a slot `name` the description does not have: its slots, and the nearest.
    static func noSlot(_ name: String, known: [String]) -> String {
        guard !known.isEmpty else { return "the description has no slot \"\(name)\": it is not a template (it has no slots)" }
        let near = SpecObject.nearest(name, in: known).map { " (did you mean \"\($0)\"?)" } ?? ""
        return "the description has no slot \"\(name)\"\(near): its slots are \(SpecObject.list(known, conjunction: "and"))"
    }
}
