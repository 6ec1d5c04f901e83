import Foundation

// The clip tree as data. A clip is an object whose `type` names its node, with the node's fields beside
// it, and its attached sounds under `sounds` when it has any:
//
//   {"type": "sequence", "items": [ … ], "transitions": [{"kind": "fade", "duration": 0.5}, null]}
//   {"type": "stack", "items": [ … ]}
//   {"type": "offset", "offset": 1, "clip": { … }}    {"type": "trim", "from": 1, "to": 5, "clip": { … }}
//   {"type": "repeat", "count": 3, "clip": { … }}      {"type": "filtered", "filters": [], "clip": { … }}
//   {"type": "color", "color": "#ff0000", "duration": 2}   {"type": "empty", "duration": 1}
//   {"type": "titleCard", "card": { … }, "width": 1920, "height": 1080}
//   {"type": "slideshow", "show": { … }, "width": 1920, "height": 1080}
//   {"type": "bezier", "motion": {"type": "drawOn", "path": "M0 0 L10 10", …}, "duration": 3}
//   {"type": "caption", "text": "…", "style": { … }, "position": "top", "duration": 3}   (position optional: bottom)
//   {"type": "text", "text": "…", "style": { … }, "duration": 3}
//   {"type": "sticker", "file": "/stickers/star.gif", "width": 120, "loop": true, "enter": "pop", "duration": 2}
//   {"type": "subtitles", "track": {"name": "talk.srt", "cues": [ … ]}, "style": { … }, "duration": 60}
//   {"type": "photo", "url": "/photos/a.jpg", "fit": "fill", "sourceRange": {"start": 0, "duration": 3}, …}
//   {"type": "video", "url": "/clips/a.mp4", "fit": "fill", "withSound": true, "soundGain": -6, "sourceRange": {"start": 1, "duration": 2}}
//   {"type": "speed", "speed": {"numerator": 2, "denominator": 1, "keepsPitch": true}, "clip": { … }}
//   {"type": "reverse", "clip": { … }}   {"type": "freeze", "at": 1, "duration": 2, "clip": { … }}
//   {"type": "loop", "duration": 10, "clip": { … }}
//
// This JSON is the package's own (the input of `contentHash()`, tests' round trips): `Clip` is not
// `Codable` in public, so the tree's node types can change without breaking programs. `ClipJSON`
// carries it where a `Codable` value is needed.
//
// Drawing closures (and `follow`'s object, `controlPoints`' displacement) are code, not data: encoding a
// tree that holds one throws `MovieMakerError.notEncodable` naming it, unless the library made the
// closure from data and gave it a content key (a chart, a built-in generator): that key is written, for
// hashing, and reading refuses it. Layouts (a title card's fitted
// text, a slideshow's photo sequence) are not written: decoding lays them out again.

extension Clip {
    private enum Kind: String, CaseIterable {
        case sequence, stack, offset, trim, `repeat`, filtered, color, empty, titleCard, slideshow, bezier, caption, photo, drawing
        case video, speed, reverse, freeze, loop, transformed, masked, split
        case sticker, subtitles, captions, text, lottie
    }

    /// Reads a clip written by `encode(to:)`. Title cards and slideshows are laid out again (an unknown
    /// font is an error here); a photo's file is not opened until a render opens the clip's media.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decodeType()
        guard let kind = Kind(rawValue: type), kind != .drawing else {
            throw c.unknownType(type, of: "clip", known: Kind.allCases.filter { $0 != .drawing }.map(\.rawValue))
        }
        func key(_ name: String) -> AnyCodingKey { AnyCodingKey(name) }
        func duration() throws -> Time {
            let d = try c.decode(Time.self, forKey: key("duration"))
            guard d >= .zero else {
                throw MovieMakerError.invalidSetting(.duration, value: d.description, expected: "0 seconds or more")
                    .decodingError(at: c.codingPath + [key("duration")])
            }
            return d
        }
        var clip: Clip
        switch kind {
        case .sequence:
            let items = try c.decode([ClipJSON].self, forKey: key("items")).map(\.clip)
            let transitions = try c.decode(key("transitions"), or: [Transition?](repeating: nil, count: max(0, items.count - 1)))
            guard transitions.count == max(0, items.count - 1) else {
                throw MovieMakerError.invalidSetting(.transitions, value: "\(transitions.count) for \(items.count) clips",
                                                     expected: "\(max(0, items.count - 1)): one transition (or null for a cut) between each clip and the next")
                    .decodingError(at: c.codingPath + [key("transitions")])
            }
            clip = Clip(.sequence(Track(items, transitions: transitions,
                                        audioCrossfade: try c.decode(key("audioCrossfade"), or: Track.defaultAudioCrossfade))))
        case .stack:
            clip = Clip(.stack(try c.decode([ClipJSON].self, forKey: key("items")).map(\.clip)))
        case .offset:
            let delay = try c.decode(Time.self, forKey: key("offset"))
            guard delay >= .zero else {
                throw MovieMakerError.invalidSetting(.duration, value: delay.description, expected: "an offset of 0 seconds or more")
                    .decodingError(at: c.codingPath + [key("offset")])
            }
            clip = Clip(.timeMap(.offset(delay), try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .trim:
            let child = try c.decode(ClipJSON.self, forKey: key("clip")).clip
            clip = child.trimmed(from: try c.decode(key("from"), or: .zero), to: try c.decode(key("to"), or: child.duration))
        case .repeat:
            clip = Clip(.timeMap(.repeating(count: max(0, try c.decode(Int.self, forKey: key("count")))),
                                 try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .filtered:
            clip = Clip(.filtered(try c.decode(key("filters"), or: []), try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .color:
            clip = Clip(.generator(.color(try c.decode(Color.self, forKey: key("color"))), duration: try duration()))
        case .empty:
            clip = Clip(.generator(.empty, duration: try duration()))
        case .titleCard:
            let card = try c.decode(TitleCard.self, forKey: key("card"))
            let width = try c.decode(Int.self, forKey: key("width")), height = try c.decode(Int.self, forKey: key("height"))
            let leaf = try decodingErrors(at: c.codingPath) { try TitleCardLeaf(card: card, width: width, height: height) }
            clip = Clip(.generator(.titleCard(leaf), duration: card.duration))
        case .slideshow:
            let show = try c.decode(Slideshow.self, forKey: key("show"))
            let width = try c.decode(Int.self, forKey: key("width")), height = try c.decode(Int.self, forKey: key("height"))
            let leaf = try decodingErrors(at: c.codingPath) { try SlideshowLeaf(show: show, width: width, height: height) }
            clip = Clip(.generator(.slideshow(leaf), duration: leaf.photos.duration))
        case .bezier:
            clip = Clip(.generator(.bezier(try c.decode(BezierAnimation.Motion.self, forKey: key("motion"))), duration: try duration()))
        case .caption:
            clip = Clip(.generator(.caption(try c.decode(String.self, forKey: key("text")), style: try c.decode(TextStyle.self, forKey: key("style")),
                                            position: try c.decodeIfPresent(Slideshow.CaptionPosition.self, forKey: key("position")) ?? .bottom),
                                   duration: try duration()))
        case .sticker:
            clip = Clip(.generator(.sticker(try StickerLeaf(from: decoder)), duration: try duration()))
        case .lottie:
            clip = Clip(.generator(.lottie(try LottieLeaf(from: decoder)), duration: try duration()))
        case .subtitles:
            clip = Clip(.generator(.subtitles(SubtitleLeaf(track: try c.decode(SubtitleTrack.self, forKey: key("track")),
                                                           style: try c.decode(key("style"), or: SubtitleStyle()))), duration: try duration()))
        case .captions:
            clip = Clip(.generator(.captions(CaptionsLeaf(transcript: try c.decode(Transcript.self, forKey: key("transcript")),
                                                          style: try c.decode(key("style"), or: CaptionStyle()))), duration: try duration()))
        case .text:
            let text = try c.decode(String.self, forKey: key("text")), style = try c.decode(TextStyle.self, forKey: key("style"))
            _ = try decodingErrors(at: c.codingPath + [key("style")]) { try TextLayout(text, style: style) }   // checks the font
            clip = Clip(.generator(.text(text, style: style), duration: try duration()))
        case .photo:
            let photo = try PhotoMedia(from: decoder)
            let range = try c.decode(TimeRange.self, forKey: key("sourceRange"))
            clip = Clip(.media(Media(.photo(photo), sourceRange: range)))
        case .video:
            let location = try c.decode(FileLocation.self, forKey: key("url"))
            let file = try decodingErrors(at: c.codingPath + [key("url")]) { try VideoFile(url: location.url) }
            let withSound = try c.decode(key("withSound"), or: true)
            let sound = withSound && file.hasAudio ? try decodingErrors(at: c.codingPath + [key("url")]) { try AudioFile(url: file.url) } : nil
            var media = VideoMedia(file: file, fit: try c.decode(key("fit"), or: .fill), background: try c.decode(key("background"), or: .black), sound: sound,
                                   soundGain: try c.decode(key("soundGain"), or: 0))
            media.reframe = try c.decodeIfPresent(Reframe.self, forKey: key("reframe"))
            let range = try c.decode(key("sourceRange"), or: TimeRange(start: .zero, duration: file.duration))
            clip = Clip(.media(Media(.video(media), sourceRange: range)))
        case .speed:
            let speed = try c.decode(Speed.self, forKey: key("speed"))
            guard speed.isSupported else {
                throw MovieMakerError.invalidSetting(.speed, value: speed.description, expected: "a speed from 1/4 to 4")
                    .decodingError(at: c.codingPath + [key("speed")])
            }
            clip = Clip(.timeMap(.speed(speed), try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .reverse:
            clip = Clip(.timeMap(.reverse, try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .freeze:
            clip = Clip(.timeMap(.freeze(at: try c.decode(key("at"), or: .zero), duration: try duration()), try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .loop:
            clip = Clip(.timeMap(.loop(duration: try duration()), try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .transformed:
            clip = Clip(.transformed(try c.decode(Transform.self, forKey: key("transform")), try c.decode(ClipJSON.self, forKey: key("clip")).clip))
        case .masked:
            clip = Clip(.masked(try c.decode(ClipJSON.self, forKey: key("clip")).clip, mask: try c.decode(ClipJSON.self, forKey: key("mask")).clip,
                                try c.decode(key("mode"), or: MaskMode.alpha)))
        case .split:
            let split = try SplitScreen(from: decoder)
            clip = try decodingErrors(at: c.codingPath) { try Clip.split(split) }
        case .drawing:
            preconditionFailure("excluded above")
        }
        clip.attachedSounds = try c.decode(key("sounds"), or: [])
        self = clip
    }

    /// Writes the tree. Throws `MovieMakerError.notEncodable` naming the first part that is code, not
    /// data: a drawing closure, a `follow` object, a `controlPoints` displacement, a custom transition or
    /// easing, a sound made by code, an in-memory picture.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyCodingKey.self)
        func key(_ name: String) -> AnyCodingKey { AnyCodingKey(name) }
        switch node {
        case let .sequence(track):
            try c.encode(Kind.sequence.rawValue, forKey: .type)
            try c.encode(track.items.map(ClipJSON.init), forKey: key("items"))
            try c.encode(track.requestedTransitions, forKey: key("transitions"))
            if track.audioCrossfade != Track.defaultAudioCrossfade { try c.encode(track.audioCrossfade, forKey: key("audioCrossfade")) }
        case let .stack(clips):
            try c.encode(Kind.stack.rawValue, forKey: .type)
            try c.encode(clips.map(ClipJSON.init), forKey: key("items"))
        case let .timeMap(map, child):
            switch map {
            case let .offset(delay):
                try c.encode(Kind.offset.rawValue, forKey: .type)
                try c.encode(delay, forKey: key("offset"))
            case let .trim(from, to):
                try c.encode(Kind.trim.rawValue, forKey: .type)
                try c.encode(from, forKey: key("from"))
                try c.encode(to, forKey: key("to"))
            case let .repeating(count):
                try c.encode(Kind.repeat.rawValue, forKey: .type)
                try c.encode(count, forKey: key("count"))
            case let .speed(speed):
                try c.encode(Kind.speed.rawValue, forKey: .type)
                try c.encode(speed, forKey: key("speed"))
            case .reverse:
                try c.encode(Kind.reverse.rawValue, forKey: .type)
            case let .freeze(at, duration):
                try c.encode(Kind.freeze.rawValue, forKey: .type)
                try c.encode(at, forKey: key("at"))
                try c.encode(duration, forKey: key("duration"))
            case let .loop(duration):
                try c.encode(Kind.loop.rawValue, forKey: .type)
                try c.encode(duration, forKey: key("duration"))
            }
            try c.encode(ClipJSON(child), forKey: key("clip"))
        case let .filtered(filters, child):
            try c.encode(Kind.filtered.rawValue, forKey: .type)
            try c.encode(filters, forKey: key("filters"))
            try c.encode(ClipJSON(child), forKey: key("clip"))
        case let .transformed(transform, child):
            try c.encode(Kind.transformed.rawValue, forKey: .type)
            try c.encode(transform, forKey: key("transform"))
            try c.encode(ClipJSON(child), forKey: key("clip"))
        case let .masked(child, mask, mode):
            try c.encode(Kind.masked.rawValue, forKey: .type)
            try c.encode(mode, forKey: key("mode"))
            try c.encode(ClipJSON(child), forKey: key("clip"))
            try c.encode(ClipJSON(mask), forKey: key("mask"))
        case let .split(split):
            try c.encode(Kind.split.rawValue, forKey: .type)
            try split.encode(to: encoder)
        case let .generator(generator, duration):
            switch generator {
            case let .drawing(closure) where closure.contentKey != nil && encoder.userInfo[Clip.hashingKey] as? Bool == true:
                // Written for hashing only (`contentHash()`): reading refuses a drawing, as it cannot
                // make the closure, so any other encoding throws as for a closure written by hand.
                try c.encode(Kind.drawing.rawValue, forKey: .type)
                try c.encode(closure.contentKey, forKey: key("content"))
                try c.encode(duration, forKey: key("duration"))
            case .drawing:
                throw MovieMakerError.notEncodable(
                    what: "the drawing closure of a Clip(duration:draw:) lasting \(duration.seconds) s",
                    reason: "a closure is code, not data; describe the picture with data clips (colour, title card, photo, slideshow, Bézier animation) to write it")
            case let .color(color):
                try c.encode(Kind.color.rawValue, forKey: .type)
                try c.encode(color, forKey: key("color"))
                try c.encode(duration, forKey: key("duration"))
            case .empty:
                try c.encode(Kind.empty.rawValue, forKey: .type)
                try c.encode(duration, forKey: key("duration"))
            case let .titleCard(leaf):
                try c.encode(Kind.titleCard.rawValue, forKey: .type)
                try c.encode(leaf.card, forKey: key("card"))
                try c.encode(leaf.width, forKey: key("width"))
                try c.encode(leaf.height, forKey: key("height"))
            case let .slideshow(leaf):
                try c.encode(Kind.slideshow.rawValue, forKey: .type)
                try c.encode(leaf.show, forKey: key("show"))
                try c.encode(leaf.width, forKey: key("width"))
                try c.encode(leaf.height, forKey: key("height"))
            case let .bezier(motion):
                try c.encode(Kind.bezier.rawValue, forKey: .type)
                try c.encode(motion, forKey: key("motion"))
                try c.encode(duration, forKey: key("duration"))
            case let .caption(text, style, position):
                try c.encode(Kind.caption.rawValue, forKey: .type)
                try c.encode(text, forKey: key("text"))
                try c.encode(style, forKey: key("style"))
                if position != .bottom { try c.encode(position, forKey: key("position")) }
                try c.encode(duration, forKey: key("duration"))
            case let .sticker(leaf):
                try leaf.encode(to: encoder)
                try c.encode(Kind.sticker.rawValue, forKey: .type)
                try c.encode(duration, forKey: key("duration"))
            case let .lottie(leaf):
                try leaf.encode(to: encoder)
                try c.encode(Kind.lottie.rawValue, forKey: .type)
                try c.encode(duration, forKey: key("duration"))
            case let .text(text, style):
                try c.encode(Kind.text.rawValue, forKey: .type)
                try c.encode(text, forKey: key("text"))
                try c.encode(style, forKey: key("style"))
                try c.encode(duration, forKey: key("duration"))
            case .audiogram:
                throw MovieMakerError.notEncodable(
                    what: "the audiogram lasting \(duration.seconds) s",
                    reason: "its sound is a value in memory, not data; describe the movie with a description file (an audiogram item) to write it")
            case let .captions(leaf):
                try c.encode(Kind.captions.rawValue, forKey: .type)
                try c.encode(leaf.transcript, forKey: key("transcript"))
                try c.encode(leaf.style, forKey: key("style"))
                try c.encode(duration, forKey: key("duration"))
            case let .subtitles(leaf):
                try c.encode(Kind.subtitles.rawValue, forKey: .type)
                try c.encode(leaf.track, forKey: key("track"))
                try c.encode(leaf.style, forKey: key("style"))
                try c.encode(duration, forKey: key("duration"))
            }
        case let .media(media):
            switch media.source {
            case let .photo(photo):
                try photo.encode(to: encoder)
                try c.encode(Kind.photo.rawValue, forKey: .type)
                try c.encode(media.sourceRange, forKey: key("sourceRange"))
            case let .video(video):
                try c.encode(Kind.video.rawValue, forKey: .type)
                try c.encode(FileLocation(video.file.url), forKey: key("url"))
                try c.encode(video.fit, forKey: key("fit"))
                try c.encode(video.background, forKey: key("background"))
                try c.encode(video.sound != nil, forKey: key("withSound"))
                if video.soundGain != 0 { try c.encode(video.soundGain, forKey: key("soundGain")) }
                if let reframe = video.reframe { try c.encode(reframe, forKey: key("reframe")) }
                try c.encode(media.sourceRange, forKey: key("sourceRange"))
            }
        }
        if !attachedSounds.isEmpty { try c.encode(attachedSounds, forKey: key("sounds")) }
    }
}

extension Clip {
    /// Set (true) in the user info of the encoder `contentHash()` uses: a drawing the library made from
    /// data is written as its content key there, and nowhere else.
    static let hashingKey = CodingUserInfoKey(rawValue: "moviemaker.hashing")!

    /// A stable hash of the clip as data: SHA-256 (hex) of its canonical JSON encoding (keys sorted), so
    /// two clips built the same way — in this process or another, on this machine or another — hash the
    /// same, and any change to a colour, a time, a photo's path, a transition or a sound changes it.
    ///
    /// Only a tree whose leaves are all data has one: a drawing closure (and anything else that cannot be
    /// encoded: a custom transition or easing, a sound made by code) makes the subtree holding it
    /// unhashable, and this throws the `notEncodable` error naming it. (Closures do have an identity —
    /// `Clip` is `Hashable` within a process, comparing closures by identity — but no stable content.)
    /// Files are named, not read: a photo replaced in place keeps its hash.
    ///
    /// What is hashed is versioned — `{"schema": "moviemaker.clip", "version": 1, "clip": …}` — so a
    /// change to how clips are written for hashing changes the version, and hashes made by another
    /// version never match by accident (chunks of a distributed render are named by this hash).
    public func contentHash() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[Clip.hashingKey] = true
        let data: Data
        do {
            data = try encoder.encode(HashInput(clip: ClipJSON(self)))
        } catch let EncodingError.invalidValue(_, context) {
            if let underlying = context.underlyingError as? MovieMakerError { throw underlying }
            throw MovieMakerError.notEncodable(what: "part of the clip at \(context.codingPath.dropFirst().map(\.stringValue).joined(separator: "."))",
                                               reason: context.debugDescription)
        }
        var hash = SHA256()
        hash.update(data)
        return hash.hexDigest()
    }
}

extension Clip: Hashable {
    /// Whether two clips are the same tree: the same nodes with equal data leaves and attached sounds.
    /// Closures (drawing closures, `follow` objects, `controlPoints` displacements) are equal only to
    /// themselves (the same `Clip(duration:draw:)` call); sounds that are not data are never equal.
    public static func == (a: Clip, b: Clip) -> Bool {
        guard a.duration == b.duration, a.attachedSounds.count == b.attachedSounds.count,
              zip(a.attachedSounds, b.attachedSounds).allSatisfy({ $0.isSame(as: $1) }) else { return false }
        switch (a.node, b.node) {
        case let (.generator(x, dx), .generator(y, dy)): return dx == dy && x == y
        case let (.media(x), .media(y)): return x.source == y.source && x.sourceRange == y.sourceRange
        case let (.sequence(x), .sequence(y)): return x.items == y.items && x.requestedTransitions == y.requestedTransitions
        case let (.stack(x), .stack(y)): return x == y
        case let (.timeMap(mx, cx), .timeMap(my, cy)): return mx == my && cx == cy
        case let (.filtered(fx, cx), .filtered(fy, cy)): return fx == fy && cx == cy
        case let (.transformed(tx, cx), .transformed(ty, cy)): return tx == ty && cx == cy
        case let (.masked(cx, mx, ox), .masked(cy, my, oy)): return ox == oy && cx == cy && mx == my
        case let (.split(x), .split(y)): return x == y
        default: return false
        }
    }

    /// Hashes the tree's shape and durations (consistent with `==`; not a content hash, see `contentHash()`).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(duration)
        switch node {
        case .generator: hasher.combine(0)
        case let .media(m): hasher.combine(1); hasher.combine(m.source)
        case let .sequence(t): hasher.combine(2); hasher.combine(t.items)
        case let .stack(s): hasher.combine(3); hasher.combine(s)
        case let .timeMap(m, c): hasher.combine(4); hasher.combine(m); hasher.combine(c)
        case let .filtered(_, c): hasher.combine(5); hasher.combine(c)
        case let .transformed(t, c): hasher.combine(6); hasher.combine(t); hasher.combine(c)
        case let .masked(c, m, _): hasher.combine(7); hasher.combine(c); hasher.combine(m)
        case let .split(s): hasher.combine(8); hasher.combine(s.cells.map(\.clip))
        }
    }
}

extension Clip.Generator: Equatable {
    /// Equal generators: the same closure, or equal data.
    package static func == (a: Clip.Generator, b: Clip.Generator) -> Bool {
        switch (a, b) {
        case let (.drawing(x), .drawing(y)): return x.identity == y.identity
        case let (.color(x), .color(y)): return x == y
        case (.empty, .empty): return true
        case let (.titleCard(x), .titleCard(y)): return x.card == y.card && x.width == y.width && x.height == y.height
        case let (.slideshow(x), .slideshow(y)): return x.show == y.show && x.width == y.width && x.height == y.height
        case let (.bezier(x), .bezier(y)): return x == y
        case let (.caption(tx, sx, px), .caption(ty, sy, py)): return tx == ty && sx == sy && px == py
        case let (.sticker(x), .sticker(y)): return x == y
        case let (.subtitles(x), .subtitles(y)): return x == y
        case let (.captions(x), .captions(y)): return x == y
        case let (.audiogram(x), .audiogram(y)): return x == y
        case let (.lottie(x), .lottie(y)): return x == y
        case let (.text(tx, sx), .text(ty, sy)): return tx == ty && sx == sy
        default: return false
        }
    }
}

extension ClipSound: Codable {
    private enum CodingKeys: String, CodingKey { case source, start, heardFrom, heardUntil, fadeIn, fadeOut }

    /// Reads `{"source": …, "start": 0.2}` (and the cut and fade fields, when set).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try AudioSourceCoding.decode(from: c.superDecoder(forKey: .source)), start: try c.decode(.start, or: .zero))
        heardFrom = try c.decodeIfPresent(Time.self, forKey: .heardFrom)
        heardUntil = try c.decodeIfPresent(Time.self, forKey: .heardUntil)
        fadeIn = try c.decode(.fadeIn, or: .zero)
        fadeOut = try c.decode(.fadeOut, or: .zero)
    }

    /// Writes the source (a file, or a clip/track/mix of files) and the timing; a sound made by code throws.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try AudioSourceCoding.encode(source, to: c.superEncoder(forKey: .source))
        try c.encode(start, forKey: .start)
        try c.encodeIfPresent(heardFrom, forKey: .heardFrom)
        try c.encodeIfPresent(heardUntil, forKey: .heardUntil)
        if fadeIn != .zero { try c.encode(fadeIn, forKey: .fadeIn) }
        if fadeOut != .zero { try c.encode(fadeOut, forKey: .fadeOut) }
    }

    /// Whether two attached sounds are the same: equal sources (data only) and timing.
    func isSame(as other: ClipSound) -> Bool {
        AudioSourceCoding.equal(source, other.source) && start == other.start && heardFrom == other.heardFrom
            && heardUntil == other.heardUntil && fadeIn == other.fadeIn && fadeOut == other.fadeOut
    }
}

extension TimeRange: Codable {
    private enum CodingKeys: String, CodingKey { case start, duration }
    /// Reads `{"start": 0, "duration": 2.5}` (`start` may be left out: 0).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(start: try c.decode(.start, or: .zero), duration: try c.decode(Time.self, forKey: .duration))
    }
    /// Writes the exact start and duration.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(start, forKey: .start)
        try c.encode(duration, forKey: .duration)
    }
}



extension Clip.PhotoMedia: Codable {
    private enum CodingKeys: String, CodingKey { case url, fit, background, kenBurns, frameSize, decodeZoom, focus }
    /// Reads `{"url": "/photos/a.jpg"}` and, when given, `fit`, `background`, `kenBurns`, `frameSize`, `decodeZoom`, `focus`.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try c.decode(FileLocation.self, forKey: .url).url, fit: try c.decode(.fit, or: .fill),
                  background: try c.decode(.background, or: .black), kenBurns: try c.decodeIfPresent(Clip.KenBurnsPath.self, forKey: .kenBurns),
                  frameSize: try c.decodeIfPresent(Size.self, forKey: .frameSize), decodeZoom: try c.decodeIfPresent(Double.self, forKey: .decodeZoom),
                  focus: try c.decodeIfPresent(Point.self, forKey: .focus))
    }
    /// Writes the file's path and how it is shown.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileLocation(url), forKey: .url)
        try c.encode(fit, forKey: .fit)
        try c.encode(background, forKey: .background)
        try c.encodeIfPresent(kenBurns, forKey: .kenBurns)
        try c.encodeIfPresent(frameSize, forKey: .frameSize)
        try c.encode(decodeZoom, forKey: .decodeZoom)
        try c.encodeIfPresent(focus, forKey: .focus)
    }
}

extension BezierAnimation.Motion: Codable, Equatable {
    private enum Kind: String, CaseIterable { case drawOn, morph, wiggle }
    private enum CodingKeys: String, CodingKey {
        case type, path, from, to, stroke, fill, easing, animation, amplitude, frequency, showControlPoints
    }

    /// Reads a `drawOn`, `morph` or `wiggle` motion (the other two hold closures and are never written).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch Kind(rawValue: type) {
        case .drawOn:
            self = .drawOn(try c.decode(Path.self, forKey: .path), stroke: try c.decode(.stroke, or: StrokeStyle()),
                           easing: try c.decode(.easing, or: .easeInOut), animation: try c.decodeIfPresent(Time.self, forKey: .animation))
        case .morph:
            self = .morph(PathMorph(from: try c.decode(Path.self, forKey: .from), to: try c.decode(Path.self, forKey: .to)),
                          fill: try c.decodeOptional(.fill, or: .color(.white)), stroke: try c.decodeIfPresent(StrokeStyle.self, forKey: .stroke),
                          easing: try c.decode(.easing, or: .easeInOut), animation: try c.decodeIfPresent(Time.self, forKey: .animation))
        case .wiggle:
            self = .wiggle(try c.decode(Path.self, forKey: .path), amplitude: try c.decode(.amplitude, or: 20), frequency: try c.decode(.frequency, or: 0.5),
                           fill: try c.decodeIfPresent(Paint.self, forKey: .fill), stroke: try c.decodeOptional(.stroke, or: StrokeStyle()),
                           showControlPoints: try c.decode(.showControlPoints, or: true))
        case nil:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription:
                "unknown Bézier motion \"\(type)\": expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")) (follow and controlPoints are closures, not data)")
        }
    }

    /// Writes the motion; `follow` and `controlPoints` throw `.notEncodable` (their object and displacement are closures).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .drawOn(path, stroke, easing, animation):
            try c.encode(Kind.drawOn.rawValue, forKey: .type)
            try c.encode(path, forKey: .path); try c.encode(stroke, forKey: .stroke); try c.encode(easing, forKey: .easing)
            try c.encodeIfPresent(animation, forKey: .animation)
        case let .morph(morph, fill, stroke, easing, animation):
            try c.encode(Kind.morph.rawValue, forKey: .type)
            try c.encode(morph.start, forKey: .from); try c.encode(morph.end, forKey: .to)
            try c.encode(fill, forKey: .fill); try c.encodeIfPresent(stroke, forKey: .stroke); try c.encode(easing, forKey: .easing)
            try c.encodeIfPresent(animation, forKey: .animation)
        case let .wiggle(path, amplitude, frequency, fill, stroke, showControlPoints):
            try c.encode(Kind.wiggle.rawValue, forKey: .type)
            try c.encode(path, forKey: .path); try c.encode(amplitude, forKey: .amplitude); try c.encode(frequency, forKey: .frequency)
            try c.encodeIfPresent(fill, forKey: .fill); try c.encode(stroke, forKey: .stroke)
            try c.encode(showControlPoints, forKey: .showControlPoints)
        case .follow:
            throw MovieMakerError.notEncodable(what: "the object drawn by BezierAnimation.follow",
                                               reason: "it is drawn by a closure, which is code, not data")
        case .controlPoints:
            throw MovieMakerError.notEncodable(what: "the point displacement of BezierAnimation.controlPoints",
                                               reason: "it is a closure, which is code, not data; BezierAnimation.wiggle is the data form")
        }
    }

    /// Equal motions: equal data, or (for `follow` and `controlPoints`) the same closure and equal data.
    package static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case let (.drawOn(p1, s1, e1, a1), .drawOn(p2, s2, e2, a2)):
            return p1 == p2 && s1 == s2 && e1 == e2 && a1 == a2
        case let (.morph(m1, f1, s1, e1, a1), .morph(m2, f2, s2, e2, a2)):
            return m1 == m2 && f1 == f2 && s1 == s2 && e1 == e2 && a1 == a2
        case let (.wiggle(p1, am1, fr1, f1, s1, c1), .wiggle(p2, am2, fr2, f2, s2, c2)):
            return p1 == p2 && am1 == am2 && fr1 == fr2 && f1 == f2 && s1 == s2 && c1 == c2
        case let (.follow(p1, e1, o1, t1, a1, x1), .follow(p2, e2, o2, t2, a2, x2)):
            return x1.identity == x2.identity && p1 == p2 && e1 == e2 && o1 == o2 && t1 == t2 && a1 == a2
        case let (.controlPoints(p1, f1, s1, c1, d1), .controlPoints(p2, f2, s2, c2, d2)):
            return d1.identity == d2.identity && p1 == p2 && f1 == f2 && s1 == s2 && c1 == c2
        default: return false
        }
    }
}

extension Clip.KenBurnsPath: Codable {
    private enum CodingKeys: String, CodingKey { case start, end, easing }
    /// Reads `{"start": {…}, "end": {…}}` and, when given, `"easing"` (a curve's name; default `sineInOut`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(start: try c.decode(Rect.self, forKey: .start), end: try c.decode(Rect.self, forKey: .end),
                  easing: try c.decode(.easing, or: .sineInOut))
    }
    /// Writes both views, and the easing when it is not the default `sineInOut`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        if easing != .sineInOut { try c.encode(easing, forKey: .easing) }
    }
}

/// The versioned document `contentHash()` hashes: the clip's JSON under a schema name and version.
private struct HashInput: Encodable {
    /// What the document is.
    let schema = "moviemaker.clip"
    /// The version of the clip encoding hashed; raise it when that encoding changes.
    let version = 1
    /// The clip.
    let clip: ClipJSON

    private enum CodingKeys: String, CodingKey { case schema, version, clip }
}


/// A clip as the tree's own JSON (see the top of this file): what `contentHash()` hashes and the
/// package's tests round-trip. Not public: programs persist description files, not clip trees.
package struct ClipJSON: Codable, Sendable {
    /// The clip.
    package var clip: Clip
    /// `clip`, to encode.
    package init(_ clip: Clip) { self.clip = clip }
    /// Reads a clip written by `encode(to:)`.
    package init(from decoder: any Decoder) throws { clip = try Clip(from: decoder) }
    /// Writes the clip.
    package func encode(to encoder: any Encoder) throws { try clip.encode(to: encoder) }
}
