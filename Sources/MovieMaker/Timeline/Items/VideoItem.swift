import Foundation

// The `video` item: a video file or slot, trimmed, sped up or slowed down, reversed or frozen.

// MARK: Model

extension Timeline {
    /// A video item (`"type": "video"`).
    ///
    /// It shows the file from `in` (source time) for `duration` (time in the movie) at `speed`: the
    /// source span is `duration × speed`. With `reverse` that span plays backwards; with `freeze` the
    /// frame at `in` is held for `duration`. The file's own sound plays with it at `volume`.
    public struct Video: Sendable, Hashable {
        /// The file or slot.
        public var source: Source
        /// Where in the file it starts (default 0).
        public var `in`: TimeValue?
        /// How long it lasts in the movie (default: to the end of the file, at `speed`).
        public var duration: TimeValue?
        /// Playback speed, ¼…4 (default 1); written as a number or an exact fraction string (`"2/3"`).
        public var speed: Speed?
        /// Whether the span plays backwards (default false).
        public var reverse: Bool?
        /// Whether the frame at `in` is held still for `duration`, silent (default false).
        public var freeze: Bool?
        /// How the picture fills the frame (default `fill`).
        public var fit: Slideshow.Fit?
        /// The colour of the bars around a fitted picture (default: none, so the canvas or the tracks below show).
        public var background: ColorText?
        /// How loud its own sound plays (default 1; 0 mutes it).
        public var volume: Volume?
        /// Word-by-word captions of its own speech (default none).
        public var captions: VideoCaptions?
        /// The silent stretches of its sound cut out, picture and sound together (at speed 1, forwards).
        public var removeSilence: SilenceRemoval?
        /// Its picture reframed to another aspect ratio, following the subject (default: `output.reframe`, else none).
        public var reframe: ReframeSpec?

        /// A video item; nil fields take their defaults.
        public init(_ source: Source, in start: TimeValue? = nil, duration: TimeValue? = nil, speed: Speed? = nil, reverse: Bool? = nil,
                    freeze: Bool? = nil, fit: Slideshow.Fit? = nil, background: ColorText? = nil, volume: Volume? = nil,
                    captions: VideoCaptions? = nil, removeSilence: SilenceRemoval? = nil, reframe: ReframeSpec? = nil) {
            self.source = source; self.in = start; self.duration = duration; self.speed = speed; self.reverse = reverse
            self.freeze = freeze; self.fit = fit; self.background = background; self.volume = volume; self.captions = captions
            self.removeSilence = removeSilence; self.reframe = reframe
        }
    }
}

// MARK: Description file

extension Timeline.Video: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("video", doc: "A video file, trimmed, sped up or slowed down, reversed or frozen.", splitCell: true, fields: [
                SpecField("source", Schema.ref("source"), required: true, "The file (\"a.mp4\" or {\"file\": \"a.mp4\", …}) or slot ({\"slot\": \"name\"})."),
                SpecField("in", Schema.ref("time"), "Where in the file it starts (default 0)."),
                SpecField("duration", Schema.ref("duration"), "How long it lasts in the movie (default: to the file's end at speed, in whole frames of the movie)."),
                SpecField("speed", Schema.ref("speed"), "Playback speed, 0.25…4 (default 1); the source span is duration × speed."),
                SpecField("reverse", Schema.boolean, "Play the span backwards (default false)."),
                SpecField("freeze", Schema.boolean, "Hold the frame at in for duration, silent (default false)."),
                SpecField("fit", Schema.ref("fit"), "How the picture fills the frame (default fill)."),
                SpecField("background", Schema.ref("color"), "The colour around a fitted picture (default: none, so output.background or the tracks below show)."),
                SpecField("volume", Schema.ref("volume"), "How loud its own sound plays: a factor (1; 0 mutes) or \"-6dB\"."),
                SpecField("captions", Schema.ref("videoCaptions"), "Word-by-word captions of its own speech: {\"transcript\": {\"file\": …}} or {\"align\": {\"file\": \"talk.txt\"}}."),
                SpecField("reframe", Timeline.ReframeSpec.schema, "Its picture reframed to another aspect ratio by a window following the subject (faces, else motion): {\"aspect\": \"9:16\"} (default: output.reframe)."),
                SpecField("removeSilence", Timeline.SilenceRemoval.schema, "Cut its silent stretches out, picture and sound together: true or {\"threshold\": \"-40dB\", \"min\": \"0.4s\", \"keep\": \"0.1s\"}."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let v = Timeline.Video(try i.source("source", context, kinds: [.video, .media], what: "a video item"),
                               in: try i.time("in"), duration: try i.time("duration", positive: true),
                               speed: try i.speed("speed"), reverse: try i.bool("reverse"), freeze: try i.bool("freeze"),
                               fit: try i.choice("fit", Slideshow.Fit.self, what: "fit"), background: try i.color("background", context),
                               volume: try i.volume("volume"), captions: try Timeline.VideoCaptions.read(i, context),
                               removeSilence: try Timeline.SilenceRemoval.read(i), reframe: try Timeline.ReframeSpec.read(i))
        if v.removeSilence != nil, v.freeze == true || v.reverse == true || (v.speed != nil && v.speed != .normal) || v.captions != nil {
            throw .invalidDescription(path.appending("removeSilence"), "cuts silences out of a clip played forwards at speed 1 without captions: remove \"freeze\", \"reverse\", \"speed\" or \"captions\", or \"removeSilence\"")
        }
        if v.freeze == true, v.duration == nil {
            throw .invalidDescription(path, "a frozen video item needs \"duration\": how long the frame at \"in\" is held")
        }
        if v.freeze == true, v.reverse == true || v.speed != nil {
            throw .invalidDescription(path.appending("freeze"), "a frozen frame has no speed or direction: remove \"speed\" and \"reverse\", or \"freeze\"")
        }
        return v
    }

    var content: Timeline.Content { .video(self) }

    func write(to w: inout SpecWriter) {
        w.set("source", source.json)
        w.set("in", self.in)
        w.set("duration", duration)
        w.set("speed", speed?.specJSON)
        w.set("reverse", reverse)
        w.set("freeze", freeze)
        w.set("fit", fit)
        w.set("background", background)
        w.set("volume", volume?.json)
        w.set("captions", captions?.json)
        w.set("removeSilence", removeSilence?.json)
        w.set("reframe", reframe?.json)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        var compiled = try compiler.video(self, at: path)
        if let captions {
            compiled.over = try compiler.captions(of: compiled.clip, video: self, captions: captions, at: path)
            compiled.detail += (compiled.detail.isEmpty ? "" : ", ") + "captioned"
        }
        return compiled
    }

    var mediaSlotSources: [Timeline.Source] { [source] }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var v = self
        v.source = source.mappingFilePath(transform)
        v.captions = captions?.mappingFilePath(transform)
        return v
    }

    func withLength(_ length: Timeline.TimeValue) -> Self { var v = self; v.duration = length; return v }

    func fitting(_ fit: ImageFit) -> Self {
        var x = self
        if x.fit == nil { x.fit = fit == .fit ? .fit : .fill }
        return x
    }
}

// MARK: Compiling

extension TimelineCompiler {
    mutating func video(_ v: Timeline.Video, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        let sourcePath = path.appending("source")
        let url = try file(v.source, at: sourcePath, kinds: [.video, .media])
        var slot: Timeline.Slot? = nil
        if case let .slot(name) = v.source { slot = timeline.slots[name] }
        // A media slot may hold a photo: it is shown for the item's duration.
        if slot?.kind == .media, (try? PhotoDecoder.info(url)) != nil {
            let d = v.duration?.time(at: rate) ?? 3
            sources[path.description] = .init(file: url)
            return CompiledItem(clip: Clip.photo(url, duration: d, fit: v.fit ?? .fill,
                                                 background: try color(v.background, at: path.appending("background")) ?? defaultItemBackground),
                                what: url.lastPathComponent, detail: "a photo in a media slot")
        }
        // A still image: FFmpeg would read a JPEG as a one-frame "video" and a PNG not at all; either way
        // the author meant a photo.
        // (An animated GIF or APNG is a moving picture FFmpeg plays: it stays a video.)
        if PhotoDecoder.isStillImage(url) {
            if case let .slot(name) = v.source {
                throw .invalidDescription(sourcePath, "the slot \"\(name)\" takes a video, and \(url.path) is a photo: give a video file "
                                          + "(a template that should take photos too makes it a media slot)", file: url.path)
            }
            throw .invalidDescription(sourcePath, "\(url.path) is a photo, not a video: show it with a photo item (\"type\": \"photo\"), "
                                      + "or give the item a media slot, which takes either", file: url.path)
        }
        let probed: VideoFile
        do {
            probed = try VideoFile.probed(url)
            try probed.checkShowable()
        } catch {
            throw .invalidDescription(sourcePath, "\(url.path) cannot be shown: \(error.message)", file: url.path)
        }
        var sound: AudioFile? = nil
        if probed.hasAudio, !(v.volume?.isSilent ?? false), v.freeze != true {
            do { sound = try AudioFile(url: url) } catch { throw .invalidDescription(sourcePath, "the sound of \(url.path) cannot be read: \(error.message)", file: url.path) }
        }
        let gain = v.volume.map { $0.isSilent ? 0 : $0.decibelValue } ?? 0
        let media = Clip.VideoMedia(file: probed, fit: v.fit ?? .fill, background: try color(v.background, at: path.appending("background")) ?? defaultItemBackground,
                                    sound: sound, soundGain: gain)
        let whole = Clip(.media(Clip.Media(.video(media), sourceRange: TimeRange(start: .zero, duration: probed.duration))))
        let fileLength = probed.duration
        let start = v.in?.time(at: rate) ?? .zero
        guard start < fileLength else {
            throw .invalidDescription(path.appending("in"), "\(v.in!) is at or past the end of \(url.lastPathComponent), which lasts \(TimelineComposition.seconds(fileLength)) s")
        }
        let available = fileLength - start
        let name = url.lastPathComponent
        var details: [String] = []
        if start > .zero { details.append("from \(TimelineComposition.seconds(start)) s") }

        var timing = TimelineComposition.SourceTiming(file: url, fileDuration: fileLength, start: start)
        if v.freeze == true {
            let d = v.duration!.time(at: rate)
            timing.isFrozen = true
            sources[path.description] = timing
            return CompiledItem(clip: whole.frozen(at: start, for: d), what: name, detail: (details + ["frozen"]).joined(separator: ", "))
        }
        var speed = v.speed ?? .normal
        let asked = v.duration?.time(at: rate)
        var clip: Clip
        // What a span of the file `from`, lasting `span` of source time, played at `speed` gives.
        func played(from: Time, span: Time, at speed: Speed) -> Clip {
            var c = whole.trimmed(from: from, to: from + span)
            if speed != .normal { c = c.speed(speed) }
            return c
        }
        let natural = speed.outputTime(at: available)
        if let asked, asked > natural || (slot != nil && asked < natural) {
            guard let slot else {
                throw .invalidDescription(path.appending("duration"),
                                          "\(v.duration!) at speed \(speed) needs \(TimelineComposition.seconds(speed.sourceTime(at: asked))) s of \(name) from \(TimelineComposition.seconds(start)) s, but it has only \(TimelineComposition.seconds(available)) s: shorten the duration or move \"in\" earlier")
            }
            // A slot's clip of another length than the item: its fit says what happens.
            let fit = slot.fit ?? .cutTail
            let slotName: String = if case let .slot(name) = v.source { name } else { "" }
            let need = speed.sourceTime(at: asked)
            switch fit {
            case .cutTail, .cutHead, .center:
                if available >= need {
                    let from = fit == .cutTail ? start : fit == .cutHead ? fileLength - need : start + (available - need) / 2
                    clip = played(from: from, span: need, at: speed)
                    timing.start = from
                    if from != start { details.append("\(fit.rawValue): from \(TimelineComposition.seconds(from)) s") }
                } else {
                    // Whole frames, as an item without a duration: what follows starts on a frame.
                    clip = played(from: start, span: speed.sourceTime(at: rate.wholeFrames(of: natural)), at: speed)
                    warnings.append("\(path): the clip in slot \"\(slotName)\" (\(url.lastPathComponent)) lasts \(TimelineComposition.seconds(rate.wholeFrames(of: natural))) s, shorter than the item's \(TimelineComposition.seconds(asked)) s: the item is shorter, as the slot's fit \"\(fit.rawValue)\" cuts a longer clip but does not fill for a shorter one (give the slot \"fit\": \"loop\", \"freezeLast\" or \"speedToFit\" to fill the item)")
                }
            case .speedToFit:
                speed = Self.speed(covering: available, in: asked)
                let fitted = speed.outputTime(at: available)
                clip = played(from: start, span: speed.sourceTime(at: fitted > asked ? asked : rate.wholeFrames(of: fitted)), at: speed)
                details.append("speedToFit: \(speed)")
                if fitted < asked {
                    warnings.append("\(path): the clip in slot \"\(slotName)\" (\(url.lastPathComponent)) would need a speed beyond 1/4…4 to last \(TimelineComposition.seconds(asked)) s; it plays at \(speed) and lasts \(TimelineComposition.seconds(rate.wholeFrames(of: fitted))) s")
                }
            case .loop:
                if available >= need {
                    clip = played(from: start, span: need, at: speed)
                } else {
                    clip = played(from: start, span: available, at: speed).looped(toFill: asked)
                    details.append("looped")
                }
            case .freezeLast:
                if available >= need {
                    clip = played(from: start, span: need, at: speed)
                } else {
                    let once = played(from: start, span: available, at: speed)
                    // Held on the frame showing at its last frame time.
                    let last = Time.max(.zero, once.duration - rate.frameDuration)
                    clip = Clip.sequence([once, once.frozen(at: last, for: asked - once.duration)])
                    details.append("last frame held \(TimelineComposition.seconds(asked - once.duration)) s")
                }
            }
        } else {
            // Without a duration the item lasts the file's whole frames of the movie (its last part of a
            // frame left out), so what follows starts on a frame with its picture and sound together: a
            // 29.97 fps file in a 25 fps movie ends between frames, and the next item's sound led its picture.
            let d = asked ?? rate.wholeFrames(of: natural)
            clip = played(from: start, span: speed.sourceTime(at: d), at: speed)
        }
        if speed != .normal, !details.contains(where: { $0.hasPrefix("speedToFit") }) { details.append("speed \(speed)") }
        if v.reverse == true { clip = clip.reversed(); details.append("reversed") }
        if let removal = v.removeSilence {
            // Silences are found in the file's time: the clip must play it as it is, forwards at speed 1.
            guard speed == .normal, !details.contains(where: { $0 == "looped" || $0.hasPrefix("last frame held") }) else {
                throw .invalidDescription(path.appending("removeSilence"), "cuts silences out of a clip played as it is; the slot's fit makes it \(details.joined(separator: ", ")): give the slot a fit of cutTail, cutHead or center, or leave out \"removeSilence\"")
            }
            let detection = SilenceDetection(threshold: removal.threshold ?? -40, minimum: removal.min?.time(at: rate) ?? Time(value: 2, timescale: 5))
            let found: [TimeRange]
            do { found = try detection.silences(in: url) } catch {
                throw .invalidDescription(path.appending("removeSilence"), "cannot find the silences of \(url.path): \(error.message)", file: url.path)
            }
            // The stretches inside the part played, in the item's time.
            let from = timing.start, to = timing.start + clip.duration
            let inItem = found.compactMap { s -> TimeRange? in
                let a = Time.max(s.start, from), b = Time.min(s.end, to)
                return b > a ? TimeRange(start: a - from, duration: b - a) : nil
            }
            let before = clip.duration
            clip = clip.removingSilences(inItem, keep: removal.keep?.time(at: rate) ?? Time(value: 1, timescale: 10), rate: rate)
            details.append("\(inItem.count) silence\(inItem.count == 1 ? "" : "s") removed (\(TimelineComposition.seconds(before - clip.duration)) s)")
        }
        if let reframe = v.reframe ?? timeline.output.reframe {
            clip = clip.reframed(reframe.aspect)
            details.append("reframed to \(reframe.aspect)")
        }
        timing.speed = speed
        timing.isReversed = v.reverse == true
        sources[path.description] = timing
        if let volume = v.volume, sound != nil || volume.isSilent { details.append("volume \(volume)") }
        return CompiledItem(clip: clip, what: name, detail: details.joined(separator: ", "))
    }

    /// The speed (within ¼…4) at which `source` of material lasts `target`, as near as it gets.
    static func speed(covering source: Time, in target: Time) -> Speed {
        let ratio = Rational(source) * Rational(target.timescale, target.value)
        var speed = Speed(numerator: max(1, ratio.num), denominator: max(1, ratio.den))
        if speed < Speed.minimum { speed = .minimum }
        if Speed.maximum < speed { speed = .maximum }
        return speed
    }
}
