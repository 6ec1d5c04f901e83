import Foundation

/// Reframing a video to another aspect ratio: a window of that shape cut out of each picture,
/// following the subject (`Clip.reframed(_:)`, `"reframe": {"aspect": "9:16"}`, `--reframe 9:16`).
///
/// The window is as large as the picture allows (the full height when narrowing, the full width when
/// widening) and moves over the picture: onto the faces OpenCV's face detector finds, else onto where
/// things move, and it holds still when the subject does. Its path is smoothed (eased pans, no jitter),
/// at most 18 % of the picture's width or height per second of the file (0.6 % a frame at 30 fps),
/// starts afresh at each cut of the file (a new shot gets its own framing), and never leaves the
/// picture. The analysis runs once per file content (cached by its SHA-256, in memory and on disk):
/// see ARCHITECTURE.md, "Reframing".
public struct Reframe: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The window's width in units of `aspectHeight` (9 in 9:16).
    public let aspectWidth: Int
    /// The window's height in units of `aspectWidth` (16 in 9:16).
    public let aspectHeight: Int

    /// A window `aspectWidth`:`aspectHeight` (both 1…100), e.g. `Reframe(aspectWidth: 9, aspectHeight: 16)`.
    public init(aspectWidth: Int, aspectHeight: Int) throws(MovieMakerError) {
        guard (1...100).contains(aspectWidth), (1...100).contains(aspectHeight) else {
            throw .invalidSetting(.reframe, value: "\(aspectWidth):\(aspectHeight)", expected: "an aspect ratio W:H with whole numbers from 1 to 100, such as 9:16, 1:1 or 4:5")
        }
        self.aspectWidth = aspectWidth
        self.aspectHeight = aspectHeight
    }

    /// A window of the aspect ratio `text` says: `"9:16"`, `"1:1"`, `"4:5"` (also `"9x16"`, `"9/16"`).
    public init(aspect text: String) throws(MovieMakerError) {
        // Exactly two numbers around one separator (`9:17x` is not 9:17), spaces allowed, as the schema's pattern.
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "x" || $0 == "/" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw .invalidSetting(.reframe, value: "\"\(text)\"", expected: "an aspect ratio W:H with whole numbers from 1 to 100, such as 9:16, 1:1 or 4:5")
        }
        try self.init(aspectWidth: w, aspectHeight: h)
    }

    /// `"9:16"`.
    public var description: String { "\(aspectWidth):\(aspectHeight)" }

    /// Reads `"9:16"` or `{"aspectWidth": 9, "aspectHeight": 16}`.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            do { try self.init(aspect: text) } catch { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message)) }
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(aspectWidth: try c.decode(Int.self, forKey: .aspectWidth), aspectHeight: try c.decode(Int.self, forKey: .aspectHeight))
        } catch let error as MovieMakerError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Writes `"9:16"`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    private enum CodingKeys: String, CodingKey { case aspectWidth, aspectHeight }

    /// The largest window of this aspect ratio inside a `width`×`height` picture, in whole pixels, the
    /// side it narrows even (4:2:0 pictures are cut on whole chroma samples).
    func window(inWidth width: Int, height: Int) -> (width: Int, height: Int) {
        // Narrowing keeps the height, widening the width (compared exactly, in integers).
        if width * aspectHeight >= height * aspectWidth {
            let w = height * aspectWidth / aspectHeight
            return (max(2, min(width, w - w % 2)), height)
        }
        let h = width * aspectHeight / aspectWidth
        return (width, max(2, min(height, h - h % 2)))
    }

    /// The frame size a whole movie reframed from `width`×`height` gets: this aspect ratio with the
    /// source's longer side kept (1920×1080 at 9:16 gives 1080×1920, what vertical video platforms
    /// show), in even pixels.
    package func frameSize(from width: Int, height: Int) -> (width: Int, height: Int) {
        let long = max(width, height)
        func even(_ v: Int) -> Int { max(2, v - v % 2) }
        if aspectWidth >= aspectHeight { return (even(long), even(long * aspectHeight / aspectWidth)) }
        return (even(long * aspectWidth / aspectHeight), even(long))
    }
}

extension Clip {
    /// This clip with every video in it reframed to `reframe`'s aspect ratio, following the subject:
    /// each video's picture is the moving window `Reframe` describes, shown in the frame by the video's
    /// fit (a 9:16 window fills a 9:16 frame exactly). Photos, titles and drawings are unchanged.
    ///
    /// The analysis of each file (faces, motion, cuts) starts on its own thread when a render opens
    /// and runs ahead of the drawing; a frame waits only for its own shot. A missing face model (Debian's
    /// `opencv-data`) fails when the render opens, before the first frame.
    public func reframed(_ reframe: Reframe) -> Clip {
        mappingVideoMedia { video in
            var v = video
            v.reframe = reframe
            return v
        }
    }
}

extension Clip {
    /// This clip with `change` applied to every video leaf's settings, every other node kept (the
    /// leaves keep their identity, so copies still share their decoders).
    func mappingVideoMedia(_ change: (VideoMedia) -> VideoMedia) -> Clip {
        let node: Node
        switch self.node {
        case .generator: return self
        case let .media(media):
            guard case let .video(video) = media.source else { return self }
            node = .media(media.replacingSource(.video(change(video))))
        case let .sequence(track):
            node = .sequence(Track(track.items.map { $0.mappingVideoMedia(change) }, transitions: track.requestedTransitions,
                                   audioCrossfade: track.audioCrossfade))
        case let .stack(clips): node = .stack(clips.map { $0.mappingVideoMedia(change) })
        case let .timeMap(map, child): node = .timeMap(map, child.mappingVideoMedia(change))
        case let .filtered(filters, child): node = .filtered(filters, child.mappingVideoMedia(change))
        case let .transformed(transform, child): node = .transformed(transform, child.mappingVideoMedia(change))
        case let .masked(child, mask, mode): node = .masked(child.mappingVideoMedia(change), mask: mask.mappingVideoMedia(change), mode)
        case let .split(split):
            var s = split
            s.cells = split.cells.map { cell in
                var c = cell
                c.clip = cell.clip.mappingVideoMedia(change)
                return c
            }
            node = .split(s)
        }
        var mapped = Clip(node)
        mapped.attachedSounds = attachedSounds
        return mapped
    }
}
