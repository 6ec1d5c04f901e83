import Foundation

extension Slideshow.KenBurns.Direction: Codable {
    /// Reads `"in"`, `"out"` or `"alternate"` (or the case names `"zoomIn"`, `"zoomOut"`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        switch text {
        case "in", "zoomIn": self = .zoomIn
        case "out", "zoomOut": self = .zoomOut
        case "alternate": self = .alternate
        default: throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown Ken Burns direction \"\(text)\": expected in, out or alternate")
        }
    }
}

extension Slideshow.KenBurns: Codable {
    private enum CodingKeys: String, CodingKey { case isEnabled, zoom, pan, direction, seed, easing }

    /// Reads the fields given; the rest default as in `init()` (on, 12 % zoom, 6 % pan, alternating, seed 1,
    /// `sineInOut`; `"easing"` is a curve's name, e.g. `"linear"`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(isEnabled: try c.decode(.isEnabled, or: true), zoom: try c.decode(.zoom, or: 0.12), pan: try c.decode(.pan, or: 0.06),
                  direction: try c.decode(.direction, or: .alternate), seed: try c.decode(.seed, or: 1),
                  easing: try c.decode(.easing, or: .sineInOut))
    }

    /// Writes every field (the easing only when it is not the default `sineInOut`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(isEnabled, forKey: .isEnabled)
        try c.encode(zoom, forKey: .zoom)
        try c.encode(pan, forKey: .pan)
        try c.encode(direction, forKey: .direction)
        try c.encode(seed, forKey: .seed)
        if easing != .sineInOut { try c.encode(easing, forKey: .easing) }
    }
}

extension Slideshow.Photo: Codable {
    private enum CodingKeys: String, CodingKey { case url, duration, caption, kenBurnsStart, kenBurnsEnd, captureDate, focus }

    /// Reads a path (`"photos/a.jpg"`) or `{"url": "photos/a.jpg", "duration": 5, "caption": "…",
    /// "kenBurnsStart": {…}, "kenBurnsEnd": {…}, "captureDate": …, "focus": {"x": 0.5, "y": 0.2}}` with all but `url` optional. The
    /// date is read as the decoder's date strategy says, or from an ISO 8601 string.
    public init(from decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeStringIfPossible() != nil {
            self.init(url: try FileLocation(from: decoder).url)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var date: Date?
        if c.contains(.captureDate), !(try c.decodeNil(forKey: .captureDate)) {
            if let d = try? c.decode(Date.self, forKey: .captureDate) {
                date = d
            } else {
                let text = try c.decode(String.self, forKey: .captureDate)
                let iso = ISO8601DateFormatter()
                date = iso.date(from: text)
                if date == nil {
                    iso.formatOptions.insert(.withFractionalSeconds)
                    date = iso.date(from: text)
                }
                guard date != nil else {
                    throw DecodingError.dataCorruptedError(forKey: .captureDate, in: c,
                        debugDescription: "\"\(text)\" is not a date: expected ISO 8601, e.g. 2025-06-01T14:30:00Z")
                }
            }
        }
        self.init(url: try c.decode(FileLocation.self, forKey: .url).url, duration: try c.decodeIfPresent(Time.self, forKey: .duration),
                  caption: try c.decodeIfPresent(String.self, forKey: .caption), kenBurnsStart: try c.decodeIfPresent(Rect.self, forKey: .kenBurnsStart),
                  kenBurnsEnd: try c.decodeIfPresent(Rect.self, forKey: .kenBurnsEnd), captureDate: date,
                  focus: try c.decodeIfPresent(Point.self, forKey: .focus))
    }

    /// Writes the path and the fields that are set (the date as the encoder's date strategy says).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileLocation(url), forKey: .url)
        try c.encodeIfPresent(duration, forKey: .duration)
        try c.encodeIfPresent(caption, forKey: .caption)
        try c.encodeIfPresent(kenBurnsStart, forKey: .kenBurnsStart)
        try c.encodeIfPresent(kenBurnsEnd, forKey: .kenBurnsEnd)
        try c.encodeIfPresent(captureDate, forKey: .captureDate)
        try c.encodeIfPresent(focus, forKey: .focus)
    }
}

extension Slideshow: Codable {
    private enum CodingKeys: String, CodingKey {
        case photos, duration, fit, background, kenBurns, transition, captions, captionStyle, captionPosition, intro, outro
    }

    /// Reads a show: `photos` is required, every other key defaults as `Slideshow(photos:)` sets it (3 s a
    /// photo, blur fit, black, gentle Ken Burns, a one-second crossfade, no captions, captions at the
    /// bottom, no intro or outro card). `"transition": null` cuts between photos; `intro` and `outro`
    /// are title cards (`{"title": "Summer", "duration": 3}`).
    ///
    /// ```json
    /// {"photos": ["beach.jpg", {"url": "sunset.jpg", "duration": 6, "caption": "Last evening"}],
    ///  "duration": 4, "fit": "fill", "kenBurns": {"zoom": 0.2, "seed": 7},
    ///  "transition": {"kind": "wipeleft", "duration": 0.75, "easing": "ease-in-out"}}
    /// ```
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(photos: try c.decode([Photo].self, forKey: .photos))
        duration = try c.decode(.duration, or: duration)
        fit = try c.decode(.fit, or: fit)
        background = try c.decode(.background, or: background)
        kenBurns = try c.decode(.kenBurns, or: kenBurns)
        transition = try c.decodeOptional(.transition, or: transition)
        captions = try c.decode(.captions, or: captions)
        captionStyle = try c.decode(.captionStyle, or: captionStyle)
        captionPosition = try c.decode(.captionPosition, or: captionPosition)
        intro = try c.decodeIfPresent(TitleCard.self, forKey: .intro)
        outro = try c.decodeIfPresent(TitleCard.self, forKey: .outro)
    }

    /// Writes every field (`transition` as `null` when the show cuts; `intro`, `outro` and a bottom
    /// `captionPosition` only when set). Throws `MovieMakerError.notEncodable`
    /// for a custom transition or an easing made from a function.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(photos, forKey: .photos)
        try c.encode(duration, forKey: .duration)
        try c.encode(fit, forKey: .fit)
        try c.encode(background, forKey: .background)
        try c.encode(kenBurns, forKey: .kenBurns)
        if let transition { try c.encode(transition, forKey: .transition) } else { try c.encodeNil(forKey: .transition) }
        try c.encode(captions, forKey: .captions)
        try c.encode(captionStyle, forKey: .captionStyle)
        if captionPosition != .bottom { try c.encode(captionPosition, forKey: .captionPosition) }
        try c.encodeIfPresent(intro, forKey: .intro)
        try c.encodeIfPresent(outro, forKey: .outro)
    }
}
