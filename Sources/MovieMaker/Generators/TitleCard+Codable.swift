import Foundation

extension TitleAnimation.Style: Codable {
    /// The names of the styles without a payload.
    private static let plain: [String: TitleAnimation.Style] = [
        "none": .none, "fade": .fade, "pop": .pop, "typewriter": .typewriter, "letters": .letters, "words": .words, "blur": .blur,
    ]

    /// Reads a style's name (`"fade"`; `"slide"` slides from the bottom) or `{"type": "slide", "from": "left"}`,
    /// optionally with `"distance": 60` (pixels at 1080 lines; without it the slide starts beyond the edge).
    public init(from decoder: any Decoder) throws {
        let known = Self.plain.keys.sorted() + ["slide"]
        if let name = try decoder.singleValueContainer().decodeStringIfPossible() {
            if let style = Self.plain[name] { self = style; return }
            if name == "slide" { self = .slide(from: .bottom); return }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "unknown title animation \"\(name)\": expected one of \(known.joined(separator: ", "))"))
        }
        let c = try decoder.container(keyedBy: AnyCodingKey.self)
        let type = try c.decodeType()
        if type == "slide" {
            let distance = try c.decodeIfPresent(Double.self, forKey: AnyCodingKey("distance"))
            if let distance, !(distance.isFinite && distance >= 0) {
                throw DecodingError.dataCorruptedError(forKey: AnyCodingKey("distance"), in: c,
                                                       debugDescription: "a slide's distance must be 0 or more pixels, got \(distance)")
            }
            self = .slide(from: try c.decode(AnyCodingKey("from"), or: .bottom), distance: distance)
        } else if let style = Self.plain[type] {
            self = style
        } else {
            throw c.unknownType(type, of: "title animation", known: known)
        }
    }

    /// Writes the name, or `{"type": "slide", "from": …}` (with `"distance"` when it has one).
    public func encode(to encoder: any Encoder) throws {
        if case let .slide(edge, distance) = self {
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            try c.encode("slide", forKey: .type)
            try c.encode(edge, forKey: AnyCodingKey("from"))
            try c.encodeIfPresent(distance, forKey: AnyCodingKey("distance"))
        } else {
            var c = encoder.singleValueContainer()
            try c.encode("\(self)")
        }
    }
}

extension TitleAnimation: Codable {
    private enum CodingKeys: String, CodingKey { case style, duration, easing, cascade }

    /// Reads `{"style": "fade", "duration": 0.8, "easing": "ease-out", "cascade": 0.2}`; all but `style` may
    /// be left out (0.8 s, the style's own easing, 0.2 s).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let style = try c.decode(Style.self, forKey: .style)
        self.init(style, duration: try c.decode(.duration, or: Time(value: 4, timescale: 5)),
                  easing: try c.decodeIfPresent(Easing.self, forKey: .easing),
                  cascade: try c.decode(.cascade, or: Time(value: 1, timescale: 5)))
    }

    /// Writes every field; the times exactly.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(style, forKey: .style)
        try c.encode(duration, forKey: .duration)
        try c.encode(easing, forKey: .easing)
        try c.encode(cascade, forKey: .cascade)
    }
}

extension TitleCard.Layout: Codable {}

extension TitleCard.Background: Codable {
    private enum CodingKeys: String, CodingKey { case type, color, paint, url, fit }

    /// Reads `"none"`, a colour string (`"#102030"`), `{"type": "color", "color": …}`, `{"type": "paint",
    /// "paint": …}` or `{"type": "imageFile", "url": "/path/picture.jpg", "fit": "fill"}` (`fit` defaults to fill).
    public init(from decoder: any Decoder) throws {
        if let text = try decoder.singleValueContainer().decodeStringIfPossible() {
            self = text == "none" ? .none : .color(try Color(from: decoder))
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "none": self = .none
        case "color": self = .color(try c.decode(Color.self, forKey: .color))
        case "paint": self = .paint(try c.decode(Paint.self, forKey: .paint))
        case "imageFile": self = .imageFile(try c.decode(FileLocation.self, forKey: .url).url, fit: try c.decode(.fit, or: .fill))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c,
                debugDescription: "unknown title card background type \"\(type)\": expected none, color, paint or imageFile")
        }
    }

    /// Writes `"none"` or the object form. Throws `MovieMakerError.notEncodable` for `.image`, whose
    /// picture is pixels in memory: name its file with `.imageFile(_:fit:)` instead.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .none:
            var c = encoder.singleValueContainer()
            try c.encode("none")
        case let .color(color):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode("color", forKey: .type)
            try c.encode(color, forKey: .color)
        case let .paint(paint):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode("paint", forKey: .type)
            try c.encode(paint, forKey: .paint)
        case let .image(image, _):
            throw MovieMakerError.notEncodable(
                what: "a title card's image background (\(image.width)×\(image.height) pixels)",
                reason: "the picture is pixels in memory, not a file; use .imageFile(url, fit:) to name the picture's file")
        case let .imageFile(url, fit):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode("imageFile", forKey: .type)
            try c.encode(FileLocation(url), forKey: .url)
            try c.encode(fit, forKey: .fit)
        }
    }
}

extension TitleCard: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, subtitle, body, duration, layout, background, titleStyle, subtitleStyle, bodyStyle, safeMargin, autoFit,
             entrance, exit
    }

    /// Reads a card: only `title` is required; every other key defaults as `TitleCard(title)` sets it
    /// (4 s, full screen, a dark background, white DejaVu Sans, a fade in and out).
    ///
    /// ```json
    /// {"title": "Release 2.4", "subtitle": "What's new", "duration": 4, "layout": "lowerThird",
    ///  "entrance": {"style": {"type": "slide", "from": "left"}, "duration": 0.6}}
    /// ```
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(String.self, forKey: .title), subtitle: try c.decodeIfPresent(String.self, forKey: .subtitle),
                  body: try c.decodeIfPresent(String.self, forKey: .body), duration: try c.decode(.duration, or: 4))
        layout = try c.decode(.layout, or: layout)
        background = try c.decode(.background, or: background)
        titleStyle = try c.decode(.titleStyle, or: titleStyle)
        subtitleStyle = try c.decode(.subtitleStyle, or: subtitleStyle)
        bodyStyle = try c.decode(.bodyStyle, or: bodyStyle)
        safeMargin = try c.decode(.safeMargin, or: safeMargin)
        autoFit = try c.decode(.autoFit, or: autoFit)
        entrance = try c.decode(.entrance, or: entrance)
        exit = try c.decode(.exit, or: exit)
    }

    /// Writes every field (`subtitle` and `body` only when set). Throws `MovieMakerError.notEncodable` for an
    /// `.image` background.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(subtitle, forKey: .subtitle)
        try c.encodeIfPresent(body, forKey: .body)
        try c.encode(duration, forKey: .duration)
        try c.encode(layout, forKey: .layout)
        try c.encode(background, forKey: .background)
        try c.encode(titleStyle, forKey: .titleStyle)
        try c.encode(subtitleStyle, forKey: .subtitleStyle)
        try c.encode(bodyStyle, forKey: .bodyStyle)
        try c.encode(safeMargin, forKey: .safeMargin)
        try c.encode(autoFit, forKey: .autoFit)
        try c.encode(entrance, forKey: .entrance)
        try c.encode(exit, forKey: .exit)
    }
}
