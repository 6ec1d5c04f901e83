import Foundation

// The `slideshow` item: photos one after another, fitted and moved as a `Slideshow` does.

// MARK: Model

extension Timeline {
    /// A slideshow item (`"type": "slideshow"`): photos one after another, each for `duration`, joined
    /// by `photoTransition`, fitted and moved as a `Slideshow` does.
    public struct SlideshowItem: Sendable, Hashable {
        /// The photos (files or slots), in order.
        public var photos: [Source]
        /// How long each photo is shown (default 3 s).
        public var duration: TimeValue?
        /// How photos fill the frame (default `blur`).
        public var fit: Slideshow.Fit?
        /// The colour around fitted photos (default black).
        public var background: ColorText?
        /// The transition between photos (default a 1 s crossfade).
        public var photoTransition: TransitionSpec?
        /// Pan and zoom (default on: `Slideshow.KenBurns`'s defaults). The `from`/`to` form is not
        /// accepted here: each photo gets its own seeded movement.
        public var kenBurns: KenBurnsSpec?
        /// Captions (default none).
        public var captions: Slideshow.Captions?
        /// What the cuts snap to: `"beats"`, the beats of the movie's music (the first music item of the
        /// audio tracks, where its `at` and `in` put it); nil: each photo lasts `duration`, which
        /// `cutOn` replaces.
        public var cutOn: String?
        /// With `cutOn`: cut on every n-th beat (default 1).
        public var every: Int?
        /// With `cutOn`: the shortest a photo is shown (default 1 s); closer beats are skipped.
        public var minimumShot: TimeValue?

        /// A slideshow item; nil fields take their defaults.
        public init(_ photos: [Source], duration: TimeValue? = nil, fit: Slideshow.Fit? = nil, background: ColorText? = nil,
                    photoTransition: TransitionSpec? = nil, kenBurns: KenBurnsSpec? = nil, captions: Slideshow.Captions? = nil) {
            self.photos = photos; self.duration = duration; self.fit = fit; self.background = background
            self.photoTransition = photoTransition; self.kenBurns = kenBurns; self.captions = captions
        }
    }
}

// MARK: Description file

extension Timeline.SlideshowItem: TimelineItemKind {
    static let itemTypes = [
        TimelineItemType("slideshow", doc: "Photos one after another, fitted and moved as a slideshow does.", splitCell: true, fields: [
                SpecField("photos", Schema.array(Schema.ref("source"), minItems: 1), required: true, "The photos, in order."),
                SpecField("duration", Schema.ref("duration"), "How long each photo is shown (default 3s)."),
                SpecField("fit", Schema.ref("fit"), "How photos fill the frame (default blur)."),
                SpecField("background", Schema.ref("color"), "The colour around fitted photos (default black)."),
                SpecField("photoTransition", Schema.ref("transition"), "The transition between photos (default a 1s fade; {\"name\": \"none\"} for cuts)."),
                SpecField("kenBurns", Schema.oneOf([Schema.boolean, Schema.ref("kenBurnsSettings")]), "Pan and zoom: true, false or {zoom, pan, direction, seed} (default true)."),
                SpecField("captions", Schema.enumeration(Slideshow.Captions.allCases.map(\.rawValue)), "What captions show (default none)."),
                SpecField("cutOn", Schema.enumeration(["beats"]), "beats: each photo after the first starts on the frame holding a beat of the movie's music (the first music item; duration is then unused)."),
                SpecField("every", Schema.integer(minimum: 1, maximum: 64), "With cutOn: cut on every n-th beat (default 1)."),
                SpecField("minimumShot", Schema.ref("duration"), "With cutOn: the shortest a photo is shown (default 1s); closer beats are skipped."),
        ]),
    ]

    static func read(_ i: SpecObject, type: String, at path: JSONPath, _ context: SpecContext) throws(MovieMakerError) -> Self {
        let photos = try i.array("photos", required: true)
        guard !photos.isEmpty else { throw i.fail("photos", "must hold at least one photo: [{\"file\": \"a.jpg\"}, …]") }
        var item = Timeline.SlideshowItem(
            try photos.mapTyped { (v, p) throws(MovieMakerError) in try i.source(v, at: p, context, kinds: [.photo], what: "a slideshow") },
            duration: try i.time("duration", positive: true), fit: try i.choice("fit", Slideshow.Fit.self, what: "fit"),
            background: try i.color("background", context), photoTransition: try i.transition("photoTransition"),
            kenBurns: try i.kenBurns("kenBurns", allowPath: false),
            captions: try i.choice("captions", Slideshow.Captions.self, what: "captions"))
        if let cutOn = try i.string("cutOn") {
            guard cutOn == "beats" else { throw i.fail("cutOn", "the cuts snap to beats: write \"cutOn\": \"beats\", got \"\(cutOn)\"") }
            item.cutOn = cutOn
        }
        item.every = try i.int("every", in: 1...64)
        item.minimumShot = try i.time("minimumShot", positive: true)
        if item.cutOn == nil, item.every != nil || item.minimumShot != nil {
            throw i.fail(item.every != nil ? "every" : "minimumShot", "goes with \"cutOn\": \"beats\"")
        }
        return item
    }

    var content: Timeline.Content { .slideshow(self) }

    func write(to w: inout SpecWriter) throws(MovieMakerError) {
        w.set("photos", .array(photos.map(\.json)))
        w.set("duration", duration)
        w.set("fit", fit)
        w.set("background", background)
        if let t = photoTransition { w.set("photoTransition", try t.json()) }
        w.set("kenBurns", kenBurns?.json)
        w.set("captions", captions)
        w.set("cutOn", cutOn)
        w.set("every", every)
        w.set("minimumShot", minimumShot)
    }

    func compile(_ compiler: inout TimelineCompiler, at path: JSONPath, onOverlay: Bool) throws(MovieMakerError) -> TimelineCompiler.CompiledItem {
        try compiler.slideshow(self, at: path)
    }

    var mediaSlotSources: [Timeline.Source] { photos }

    func mappingFilePaths(_ transform: (String) -> String, items: (Timeline.Item) -> Timeline.Item) -> Self {
        var s = self
        s.photos = photos.map { $0.mappingFilePath(transform) }
        return s
    }

    /// A slideshow's length is its photos'.
    func withLength(_ length: Timeline.TimeValue) -> Self { self }

    func fitting(_ fit: ImageFit) -> Self {
        var x = self
        if x.fit == nil { x.fit = fit == .fit ? .fit : .fill }
        return x
    }
}

// MARK: Compiling

extension TimelineCompiler {
    /// A slideshow item's clip: a `Slideshow` of its photos, each checked with its JSON path.
    mutating func slideshow(_ s: Timeline.SlideshowItem, at path: JSONPath) throws(MovieMakerError) -> CompiledItem {
        var show = Slideshow(photos: [])
        for (i, source) in s.photos.enumerated() {
            let p = path.appending("photos").appending(i)
            let url = try file(source, at: p, kinds: [.photo])
            try checkPhoto(url, at: p)
            show.photos.append(Slideshow.Photo(url: url))
        }
        if let d = s.duration { show.duration = d.time(at: rate) }
        if let fit = s.fit { show.fit = fit }
        if let bg = try color(s.background, at: path.appending("background")) { show.background = bg }
        if let t = s.photoTransition { show.transition = try transition(t, at: path.appending("photoTransition")) }
        // The default crossfade takes at most half of each photo's time, as `moviemaker slideshow` does: short
        // photos get a short crossfade rather than none seen alone.
        if s.photoTransition?.duration == nil, s.photoTransition?.name != "none", let t = show.transition,
           t.duration > Time(value: show.duration.value, timescale: show.duration.timescale * 2) {
            show.transition = try transition(Timeline.TransitionSpec(s.photoTransition?.name ?? "fade",
                                                                     duration: .seconds(Time(value: show.duration.value, timescale: show.duration.timescale * 2)),
                                                                     easing: s.photoTransition?.easing),
                                             at: path.appending("photoTransition"))
        }
        switch s.kenBurns {
        case nil, .enabled(true)?: break
        case .enabled(false)?: show.kenBurns = .off
        case let .settings(zoom, pan, direction, seed)?:
            let standard = Slideshow.KenBurns()
            show.kenBurns = Slideshow.KenBurns(zoom: zoom ?? standard.zoom, pan: pan ?? standard.pan,
                                               direction: direction ?? standard.direction, seed: seed ?? standard.seed)
        case .path?: break   // refused when read
        }
        if let captions = s.captions { show.captions = captions }
        // A transition as long as the photos leaves none of them on screen alone (each is only seen mid-
        // transition, and the show runs longer than its photos' times): refused where it is set. Cuts on
        // the beat lengthen each photo past its transition themselves.
        if s.cutOn == nil, let t = show.transition, t.duration >= show.duration, show.photos.count > 1 {
            throw .invalidDescription(path.appending("photoTransition").appending("duration"),
                                      "the \(TimelineComposition.seconds(t.duration)) s transition is not shorter than each photo's \(TimelineComposition.seconds(show.duration)) s: "
                                      + "no photo would be seen alone; give a shorter transition or a longer \"duration\"")
        }
        if s.cutOn == "beats" {
            let (music, offset, musicLoop) = try musicForBeats(at: path.appending("cutOn"))
            let beats: Beats
            do { beats = try Beats.analysed(music) } catch {
                throw .invalidDescription(path.appending("cutOn"), "cannot find the beats of \(music.path): \(error.message)", file: music.path)
            }
            guard beats.tempo > 0 else {
                throw .invalidDescription(path.appending("cutOn"), "\(music.path) has no steady beat to cut on (\(Beats.noTempoReason(music))): "
                                          + "leave out \"cutOn\" and give the photos durations", file: music.path)
            }
            do {
                try show.cutOnBeats(beats, fps: rate, every: s.every ?? 1, minimumShot: s.minimumShot?.time(at: rate) ?? 1, offset: offset + videoItemStart,
                                    musicLoop: musicLoop)
            } catch {
                throw .invalidDescription(path.appending("cutOn"), error.message)
            }
        }
        let clip: Clip
        do { clip = try show.clip(width: width, height: height) } catch { throw error.located(jsonPath: path.description) }
        return CompiledItem(clip: clip, what: "\(s.photos.count) photo\(s.photos.count == 1 ? "" : "s")", detail: "")
    }
}

extension TimelineCompiler {
    /// The music cuts on the beat follow: the first music item of the audio tracks, and where in its
    /// file the movie's time 0 is (its `in`, less its `at`).
    mutating func musicForBeats(at path: JSONPath) throws(MovieMakerError) -> (URL, Time, (start: Time, period: Time)?) {
        for (t, track) in timeline.tracks.enumerated() where track.kind == .audio {
            for (i, item) in track.items.enumerated() where item.enabled != false {
                guard case let .audio(audio) = item.content, audio.isMusic else { continue }
                // A missing song is the music item's error, not the slideshow's.
                let url = try file(audio.source, at: JSONPath().appending("tracks").appending(t).appending("items").appending(i).appending("source"), kinds: [.audio])
                // Looped music repeats from its in point (`sound(_:at:)` compiles it so): the repeats' beats.
                let start = audio.in?.time(at: rate) ?? .zero
                var musicLoop: (start: Time, period: Time)?
                if audio.loop ?? audio.isMusic, let song = try? AudioClip(url: url), let period = song.trimmed(from: start).looped(toFill: MovieMaker.endlessLoop).loopPeriod {
                    musicLoop = (start, period)
                }
                return (url, start - (item.at?.time(at: rate) ?? .zero), musicLoop)
            }
        }
        throw .invalidDescription(path, "cuts on the beat need music: add a music item to an audio track ({\"type\": \"music\", \"source\": {\"file\": \"song.mp3\"}})")
    }
}
