import Foundation

// Building a description in Swift: result builders for tracks and items, and one factory per item
// type. What the builder makes is the same `Timeline` value a description file decodes to, so
// `timeline.jsonText()` writes the file and decoding that file gives an equal value (and the same movie).
//
// ```swift
// let film = Timeline(output: .init(size: .init(width: 1280, height: 720), fps: 30)) {
//     Timeline.Track.video {
//         Timeline.Item.title("Lisbon", duration: 2).withTransition("fade", duration: 0.5)
//         Timeline.Item.video(.file("tram.mp4"), in: 1.5, duration: 4, speed: Speed(2))
//     }
//     Timeline.Track.audio {
//         Timeline.Item.music(.file("song.mp3"), volume: .factor(0.8))
//     }
// }
// try film.write(to: URL(fileURLWithPath: "lisbon.json"))
// ```

/// Collects the tracks of a `Timeline` written as a block (see `Timeline.init(output:template:slots:tracks:)`).
@resultBuilder
public enum TimelineTrackBuilder {
    /// One track.
    public static func buildExpression(_ track: Timeline.Track) -> [Timeline.Track] { [track] }
    /// Several tracks (from a loop or a helper).
    public static func buildExpression(_ tracks: [Timeline.Track]) -> [Timeline.Track] { tracks }
    /// The tracks of a block, in order.
    public static func buildBlock(_ parts: [Timeline.Track]...) -> [Timeline.Track] { parts.flatMap { $0 } }
    /// Tracks inside an `if`.
    public static func buildOptional(_ part: [Timeline.Track]?) -> [Timeline.Track] { part ?? [] }
    /// Tracks inside an `if`'s first branch.
    public static func buildEither(first part: [Timeline.Track]) -> [Timeline.Track] { part }
    /// Tracks inside an `if`'s other branch.
    public static func buildEither(second part: [Timeline.Track]) -> [Timeline.Track] { part }
    /// Tracks made by a `for` loop.
    public static func buildArray(_ parts: [[Timeline.Track]]) -> [Timeline.Track] { parts.flatMap { $0 } }
}

/// Collects the items of a track written as a block (see `Timeline.Track.video(name:_:)`).
@resultBuilder
public enum TimelineItemBuilder {
    /// One item.
    public static func buildExpression(_ item: Timeline.Item) -> [Timeline.Item] { [item] }
    /// Several items (from a loop or a helper).
    public static func buildExpression(_ items: [Timeline.Item]) -> [Timeline.Item] { items }
    /// The items of a block, in order.
    public static func buildBlock(_ parts: [Timeline.Item]...) -> [Timeline.Item] { parts.flatMap { $0 } }
    /// Items inside an `if`.
    public static func buildOptional(_ part: [Timeline.Item]?) -> [Timeline.Item] { part ?? [] }
    /// Items inside an `if`'s first branch.
    public static func buildEither(first part: [Timeline.Item]) -> [Timeline.Item] { part }
    /// Items inside an `if`'s other branch.
    public static func buildEither(second part: [Timeline.Item]) -> [Timeline.Item] { part }
    /// Items made by a `for` loop.
    public static func buildArray(_ parts: [[Timeline.Item]]) -> [Timeline.Item] { parts.flatMap { $0 } }
}

extension Timeline {
    /// A timeline whose tracks are written as a block, the first at the bottom.
    public init(output: Output = Output(), template: Template? = nil, slots: [String: Slot] = [:],
                @TimelineTrackBuilder tracks: () -> [Track]) {
        self.init(output: output, tracks: tracks(), template: template, slots: slots)
    }
}

extension Timeline.Track {
    /// A video track: the block's items one after another.
    public static func video(name: String? = nil, @TimelineItemBuilder _ items: () -> [Timeline.Item]) -> Timeline.Track {
        Timeline.Track(.video, name: name, items: items())
    }
    /// An overlay track: the block's items each placed at its `at` (see `Timeline.Item.placed(at:)`).
    public static func overlay(name: String? = nil, @TimelineItemBuilder _ items: () -> [Timeline.Item]) -> Timeline.Track {
        Timeline.Track(.overlay, name: name, items: items())
    }
    /// An audio track: the block's music and sounds each placed at its `at`.
    public static func audio(name: String? = nil, @TimelineItemBuilder _ items: () -> [Timeline.Item]) -> Timeline.Track {
        Timeline.Track(.audio, name: name, items: items())
    }
}

extension Timeline.Item {
    /// A video item (see `Timeline.Video`).
    public static func video(_ source: Timeline.Source, in start: Timeline.TimeValue? = nil, duration: Timeline.TimeValue? = nil,
                             speed: Speed? = nil, reverse: Bool? = nil, freeze: Bool? = nil, fit: Slideshow.Fit? = nil,
                             background: Timeline.ColorText? = nil, volume: Volume? = nil) -> Timeline.Item {
        Timeline.Item(.video(Timeline.Video(source, in: start, duration: duration, speed: speed, reverse: reverse, freeze: freeze,
                                            fit: fit, background: background, volume: volume)))
    }
    /// A photo item (see `Timeline.Photo`).
    public static func photo(_ source: Timeline.Source, duration: Timeline.TimeValue? = nil, fit: Slideshow.Fit? = nil,
                             background: Timeline.ColorText? = nil, kenBurns: Timeline.KenBurnsSpec? = nil) -> Timeline.Item {
        Timeline.Item(.photo(Timeline.Photo(source, duration: duration, fit: fit, background: background, kenBurns: kenBurns)))
    }
    /// A title item (see `Timeline.Title`).
    public static func title(_ text: String, subtitle: String? = nil, duration: Timeline.TimeValue? = nil, style: Timeline.TitleStyle? = nil,
                             easing: Easing? = nil, layout: TitleCard.Layout? = nil, color: Timeline.ColorText? = nil,
                             background: Timeline.ColorText? = nil) -> Timeline.Item {
        Timeline.Item(.title(Timeline.Title(text, subtitle: subtitle, duration: duration, style: style, easing: easing, layout: layout,
                                            color: color, background: background)))
    }
    /// A title item with every setting (see `Timeline.Title`).
    public static func title(_ title: Timeline.Title) -> Timeline.Item { Timeline.Item(.title(title)) }
    /// A colour item.
    public static func color(_ color: Timeline.ColorText, duration: Timeline.TimeValue) -> Timeline.Item {
        Timeline.Item(.color(Timeline.ColorFill(color, duration: duration)))
    }
    /// A slideshow item (see `Timeline.SlideshowItem`).
    public static func slideshow(_ photos: [Timeline.Source], duration: Timeline.TimeValue? = nil, fit: Slideshow.Fit? = nil,
                                 photoTransition: Timeline.TransitionSpec? = nil, kenBurns: Timeline.KenBurnsSpec? = nil,
                                 captions: Slideshow.Captions? = nil) -> Timeline.Item {
        Timeline.Item(.slideshow(Timeline.SlideshowItem(photos, duration: duration, fit: fit, photoTransition: photoTransition,
                                                        kenBurns: kenBurns, captions: captions)))
    }
    /// A music item (loops to fill the movie, fades, ducks; see `Timeline.Audio`).
    public static func music(_ source: Timeline.Source, in start: Timeline.TimeValue? = nil, duration: Timeline.TimeValue? = nil,
                             volume: Volume? = nil, fadeIn: Timeline.TimeValue? = nil, fadeOut: Timeline.TimeValue? = nil,
                             loop: Bool? = nil, ducking: Bool? = nil) -> Timeline.Item {
        Timeline.Item(.audio(Timeline.Audio(music: true, source, in: start, duration: duration, volume: volume, fadeIn: fadeIn,
                                            fadeOut: fadeOut, loop: loop, ducking: ducking)))
    }
    /// A sound item (plays once, as it is; see `Timeline.Audio`).
    public static func audio(_ source: Timeline.Source, in start: Timeline.TimeValue? = nil, duration: Timeline.TimeValue? = nil,
                             volume: Volume? = nil, fadeIn: Timeline.TimeValue? = nil, fadeOut: Timeline.TimeValue? = nil,
                             loop: Bool? = nil, ducking: Bool? = nil) -> Timeline.Item {
        Timeline.Item(.audio(Timeline.Audio(music: false, source, in: start, duration: duration, volume: volume, fadeIn: fadeIn,
                                            fadeOut: fadeOut, loop: loop, ducking: ducking)))
    }
    /// A generator item: the picture the generator registered as `name` makes from `params`.
    public static func generator(_ name: String, params: [String: JSONValue] = [:], duration: Timeline.TimeValue) -> Timeline.Item {
        Timeline.Item(.generator(Timeline.Generator(name, params: params, duration: duration)))
    }
    /// A narration item: `text` spoken by eSpeak NG, named `id` (see `Timeline.NarrationItem`).
    public static func narration(_ id: String, _ text: String, voice: String? = nil, rate: Int? = nil, pitch: Int? = nil,
                                 volume: Volume? = nil) -> Timeline.Item {
        Timeline.Item(.narration(Timeline.NarrationItem(id: id, text: text, voice: voice, rate: rate, pitch: pitch, volume: volume)))
    }
    /// A gap: nothing for `duration`.
    public static func gap(_ duration: Timeline.TimeValue) -> Timeline.Item {
        Timeline.Item(.gap(Timeline.Gap(duration: duration)))
    }

    /// This item with a transition into the next one of its video track.
    public func withTransition(_ name: String, duration: Timeline.TimeValue? = nil, easing: Easing? = nil) -> Timeline.Item {
        var copy = self
        copy.transition = Timeline.TransitionSpec(name, duration: duration, easing: easing)
        return copy
    }
    /// This item placed at `time` of its overlay or audio track.
    public func placed(at time: Timeline.TimeValue) -> Timeline.Item {
        var copy = self
        copy.at = time
        return copy
    }
    /// This item lasting until `point` of a narration (`"duration": {"until": "n1"}` or `{"mark": "n1#cut"}`).
    public func lasting(until point: Timeline.NarrationPoint) -> Timeline.Item {
        var copy = self
        copy.endsAt = point
        return copy
    }
    /// This item with a label (shown in plans and editors).
    public func labeled(_ label: String) -> Timeline.Item {
        var copy = self
        copy.label = label
        return copy
    }
    /// This picture item placed by `transform` (moved, scaled, rotated, cropped, faded).
    public func transformed(_ transform: Timeline.Transform) -> Timeline.Item {
        var copy = self
        copy.transform = transform
        return copy
    }
}
