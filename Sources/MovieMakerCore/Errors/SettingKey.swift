/// Names a setting in an `.invalidSetting` error: a stable `rawValue` to branch on and the words the
/// message uses for it (`description`).
///
/// `if error.setting == .crf { … }`. Settings of numbered items are functions: `.audioTrackClip(2)`.
public struct SettingKey: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The setting's stable name: the `static` that declares it (`"keyframeInterval"`), with the number
    /// in brackets for numbered settings (`"audioTrackClip[2]"`).
    public let rawValue: String
    /// How messages name the setting, e.g. `"keyframe interval"`.
    public let description: String

    /// A setting named `rawValue` in code and `description` in messages.
    package init(rawValue: String, description: String) {
        self.rawValue = rawValue
        self.description = description
    }

    /// The setting MovieMaker knows by `rawValue` (numbered ones too), or nil.
    public init?(rawValue: String) {
        if let known = Self.all.first(where: { $0.rawValue == rawValue }) { self = known; return }
        guard rawValue.hasSuffix("]"), let open = rawValue.firstIndex(of: "["),
              let number = Int(rawValue[rawValue.index(after: open)..<rawValue.index(before: rawValue.endIndex)]),
              let make = Self.numbered[String(rawValue[..<open])] else { return nil }
        self = make(number)
    }

    /// Settings are the same when their stable names are.
    public static func == (a: SettingKey, b: SettingKey) -> Bool { a.rawValue == b.rawValue }

    /// Hashes the stable name.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// `EncoderSettings.crf`: x264's constant rate factor.
    public static let crf = SettingKey(rawValue: "crf", description: "crf")
    /// `EncoderSettings.codec`: the video codec asked for.
    public static let videoCodec = SettingKey(rawValue: "videoCodec", description: "video codec")
    /// `EncoderSettings.bitDepth`: bits per colour sample.
    public static let bitDepth = SettingKey(rawValue: "bitDepth", description: "bit depth")
    /// `AnimatedImageSettings.colors`: the colours in a GIF's palette.
    public static let gifColors = SettingKey(rawValue: "gifColors", description: "GIF colours")
    /// `AnimatedImageSettings.plays`: how many times an animated image plays.
    public static let plays = SettingKey(rawValue: "plays", description: "plays")
    /// `AnimatedImageSettings.webpQuality`: the quality of a lossy animated WebP.
    public static let webpQuality = SettingKey(rawValue: "webpQuality", description: "WebP quality")
    /// `AnimatedImageSettings.maxFileSize`: the largest animated image wanted.
    public static let maxFileSize = SettingKey(rawValue: "maxFileSize", description: "maximum file size")
    /// `MovieMaker(hlsIn:…)`'s segment duration.
    public static let segmentDuration = SettingKey(rawValue: "segmentDuration", description: "segment duration")
    /// `MovieMaker.setChapters(_:)`: the movie's chapters.
    public static let chapters = SettingKey(rawValue: "chapters", description: "chapters")
    /// `EncoderSettings.bitrate`: the video bit rate.
    public static let bitrate = SettingKey(rawValue: "bitrate", description: "bitrate")
    /// `EncoderSettings.keyframeInterval`: frames between keyframes.
    public static let keyframeInterval = SettingKey(rawValue: "keyframeInterval", description: "keyframe interval")
    /// `EncoderSettings.bufferCount`: frames in flight between drawing and encoding.
    public static let bufferCount = SettingKey(rawValue: "bufferCount", description: "buffer count")
    /// `EncoderSettings.drawingThreads`: threads drawing frames.
    public static let drawingThreads = SettingKey(rawValue: "drawingThreads", description: "drawing threads")
    /// `EncoderSettings.threads`: the encoder's threads.
    public static let threads = SettingKey(rawValue: "threads", description: "threads")
    /// The number of frames asked of `addFrames(count:)`.
    public static let frameCount = SettingKey(rawValue: "frameCount", description: "frame count")
    /// `AudioSettings.sampleRate` (or a decoder's output rate).
    public static let audioSampleRate = SettingKey(rawValue: "audioSampleRate", description: "audio sample rate")
    /// `AudioSettings.channelCount` (or a decoder's output channels).
    public static let audioChannelCount = SettingKey(rawValue: "audioChannelCount", description: "audio channel count")
    /// `AudioSettings.bitRate`.
    public static let audioBitRate = SettingKey(rawValue: "audioBitRate", description: "audio bit rate")
    /// Where a sound added to a movie starts (`addAudio(_:at:)`).
    public static let soundStartTime = SettingKey(rawValue: "soundStartTime", description: "sound start time")
    /// The format of the reader an `AudioSource` made, which must be the one asked for.
    package static let audioReaderFormat = SettingKey(rawValue: "audioReaderFormat", description: "audio reader format")
    /// The gain of `addMusic(_:volume:)`.
    public static let musicVolume = SettingKey(rawValue: "musicVolume", description: "music volume")
    /// The fade-in and fade-out of `addMusic`.
    public static let musicFade = SettingKey(rawValue: "musicFade", description: "music fade")
    /// The time of a clip that `Clip.still(at:width:height:)` draws.
    public static let stillTime = SettingKey(rawValue: "stillTime", description: "still time")
    /// A time written as data (a JSON number of seconds or an exact fraction string).
    public static let time = SettingKey(rawValue: "time", description: "time")
    /// The frames of a clip to render (`MovieMaker.add(_:frames:)`, `Clip.renderFrames`): within the clip's frames.
    public static let frameRange = SettingKey(rawValue: "frameRange", description: "frame range")
    /// The environment variables `moviemaker studio` runs a script with (`MOVIEMAKER_STUDIO_DIR`, `MOVIEMAKER_STUDIO_MODE`).
    package static let studioHook = SettingKey(rawValue: "studioHook", description: "moviemaker studio's environment variables")
    /// A chunk of a distributed render (`ChunkPlan`, `--chunk K/N`): an index within the chunk count.
    public static let chunk = SettingKey(rawValue: "chunk", description: "chunk")
    /// A transition's name (`Transition(xfadeName:)`).
    public static let transition = SettingKey(rawValue: "transition", description: "transition")
    /// A transition's duration.
    public static let transitionDuration = SettingKey(rawValue: "transitionDuration", description: "transition duration")
    /// The transitions of `Clip.sequence(_:transitions:)`: one between each clip and the next.
    public static let transitions = SettingKey(rawValue: "transitions", description: "transitions")
    /// A colour given as CSS text (`Color(css:)`).
    public static let color = SettingKey(rawValue: "color", description: "colour")
    /// The opacity of a drawn group.
    public static let groupOpacity = SettingKey(rawValue: "groupOpacity", description: "group opacity")
    /// A shadow's blur radius.
    public static let shadowBlur = SettingKey(rawValue: "shadowBlur", description: "shadow blur")
    /// A shadow's offset.
    public static let shadowOffset = SettingKey(rawValue: "shadowOffset", description: "shadow offset")
    /// A blur's radius.
    public static let blurRadius = SettingKey(rawValue: "blurRadius", description: "blur radius")
    /// The number of sides of `Path.regularPolygon(center:radius:sides:)`.
    public static let regularPolygonSides = SettingKey(rawValue: "regularPolygonSides", description: "regular polygon sides")
    /// The number of tips of `Path.star(center:outerRadius:innerRadius:points:)`.
    public static let starPoints = SettingKey(rawValue: "starPoints", description: "star points")
    /// A font's size in pixels.
    public static let fontSize = SettingKey(rawValue: "fontSize", description: "font size")
    /// The width text wraps at.
    public static let textWidth = SettingKey(rawValue: "textWidth", description: "text width")
    /// The digits a chart's values are written with after the decimal mark.
    public static let decimals = SettingKey(rawValue: "decimals", description: "decimals")
    /// `TextStyle.lineSpacing`.
    public static let lineSpacing = SettingKey(rawValue: "lineSpacing", description: "line spacing")
    /// `TextStyle.letterSpacing`.
    public static let letterSpacing = SettingKey(rawValue: "letterSpacing", description: "letter spacing")
    /// The width of a text outline.
    public static let outlineWidth = SettingKey(rawValue: "outlineWidth", description: "outline width")
    /// `CaptionStyle.maximumWidth`.
    public static let captionWidth = SettingKey(rawValue: "captionWidth", description: "caption width")
    /// `CaptionStyle.maximumLines`.
    public static let captionLines = SettingKey(rawValue: "captionLines", description: "caption lines")
    /// `CaptionStyle.wordsPerPage`.
    public static let captionWordsPerPage = SettingKey(rawValue: "captionWordsPerPage", description: "caption words per page")
    /// `CaptionStyle.pauseBreak` and `hold`.
    public static let captionTiming = SettingKey(rawValue: "captionTiming", description: "caption timing")
    /// `CaptionStyle.position`.
    public static let captionPosition = SettingKey(rawValue: "captionPosition", description: "caption position")
    /// How many bars an audiogram draws.
    public static let audiogramBars = SettingKey(rawValue: "audiogramBars", description: "audiogram bar count")
    /// The empty part of an audiogram bar's slot.
    public static let audiogramGap = SettingKey(rawValue: "audiogramGap", description: "audiogram gap")
    /// The frequencies an audiogram's spectrum covers.
    public static let audiogramFrequencies = SettingKey(rawValue: "audiogramFrequencies", description: "audiogram frequency range")
    /// The level an audiogram draws with no height.
    public static let audiogramFloor = SettingKey(rawValue: "audiogramFloor", description: "audiogram floor")
    /// An audiogram's attack or release.
    public static let audiogramSmoothing = SettingKey(rawValue: "audiogramSmoothing", description: "audiogram smoothing")
    /// Where an audiogram is drawn.
    public static let audiogramArea = SettingKey(rawValue: "audiogramArea", description: "audiogram area")
    /// Where in its sound an audiogram starts.
    public static let audiogramStart = SettingKey(rawValue: "audiogramStart", description: "audiogram start")
    /// The text a transcript is aligned from.
    public static let transcriptText = SettingKey(rawValue: "transcriptText", description: "transcript text")
    /// The sound a transcript is made from.
    public static let transcriptSound = SettingKey(rawValue: "transcriptSound", description: "transcript sound")
    /// The text a narration speaks.
    public static let narrationText = SettingKey(rawValue: "narrationText", description: "narration text")
    /// The eSpeak NG voice a narration speaks with.
    public static let narrationVoice = SettingKey(rawValue: "narrationVoice", description: "narration voice")
    /// How fast a narration speaks, in words per minute.
    public static let narrationRate = SettingKey(rawValue: "narrationRate", description: "narration rate")
    /// A narration voice's base pitch.
    public static let narrationPitch = SettingKey(rawValue: "narrationPitch", description: "narration pitch")
    /// The box text is fitted into.
    public static let fittingBox = SettingKey(rawValue: "fittingBox", description: "fitting box")
    /// The range of font sizes tried when fitting text.
    public static let fittingFontSizes = SettingKey(rawValue: "fittingFontSizes", description: "fitting font sizes")
    /// An easing given by name (`Easing(named:)`).
    public static let easing = SettingKey(rawValue: "easing", description: "easing")
    /// The keyframes of an animation (at least one).
    public static let keyframes = SettingKey(rawValue: "keyframes", description: "keyframes")
    /// A keyframe's time.
    public static let keyframeTime = SettingKey(rawValue: "keyframeTime", description: "keyframe time")
    /// How much of a sound to write or measure.
    public static let duration = SettingKey(rawValue: "duration", description: "duration")
    /// The length of a WAV file to write (at most 4 GB of samples).
    public static let wavLength = SettingKey(rawValue: "wavLength", description: "WAV length")
    /// An audio format's sample rate.
    public static let sampleRate = SettingKey(rawValue: "sampleRate", description: "sample rate")
    /// An audio format's channel count.
    public static let channelCount = SettingKey(rawValue: "channelCount", description: "channel count")
    /// The duration of a sound made by code.
    public static let soundDuration = SettingKey(rawValue: "soundDuration", description: "sound duration")
    /// The length of each burst of a burst sound.
    public static let burstLength = SettingKey(rawValue: "burstLength", description: "burst length")
    /// The time of one burst of a burst sound.
    public static let burstTime = SettingKey(rawValue: "burstTime", description: "burst time")
    /// The time between bursts of a repeating burst sound.
    public static let burstInterval = SettingKey(rawValue: "burstInterval", description: "burst interval")
    /// The fade in and out of a beep.
    public static let beepRamp = SettingKey(rawValue: "beepRamp", description: "beep ramp")
    /// A tone's frequency.
    public static let frequency = SettingKey(rawValue: "frequency", description: "frequency")
    /// A tone's amplitude.
    public static let amplitude = SettingKey(rawValue: "amplitude", description: "amplitude")
    /// Where an audio clip starts in its source.
    public static let audioClipInPoint = SettingKey(rawValue: "audioClipInPoint", description: "audio clip in point")
    /// Where an audio clip ends in its source.
    public static let audioClipOutPoint = SettingKey(rawValue: "audioClipOutPoint", description: "audio clip out point")
    /// `EncoderSettings.videoDecoderLimit`: video decoders a render may keep open at once.
    public static let videoDecoderLimit = SettingKey(rawValue: "videoDecoderLimit", description: "video decoder limit")
    /// How much of a clip `Clip.firstVisibleTime` scans, and the size it looks at.
    public static let visibleFrameSearch = SettingKey(rawValue: "visibleFrameSearch", description: "visible frame search")
    /// The columns and rows of `Clip.contactSheet`.
    public static let contactSheetGrid = SettingKey(rawValue: "contactSheetGrid", description: "contact sheet grid")
    /// The width of `Clip.contactSheet`.
    public static let contactSheetWidth = SettingKey(rawValue: "contactSheetWidth", description: "contact sheet width")
    /// A clip's playback speed (`Clip.speed(_:)`).
    public static let speed = SettingKey(rawValue: "speed", description: "speed")
    /// An audio clip's gain.
    public static let audioClipGain = SettingKey(rawValue: "audioClipGain", description: "audio clip gain")
    /// An audio clip's fade-in.
    public static let audioClipFadeIn = SettingKey(rawValue: "audioClipFadeIn", description: "audio clip fade-in")
    /// An audio clip's fade-out.
    public static let audioClipFadeOut = SettingKey(rawValue: "audioClipFadeOut", description: "audio clip fade-out")
    /// An audio clip's fade-out at the movie's end.
    public static let audioClipMovieEndFade = SettingKey(rawValue: "audioClipMovieEndFade", description: "audio clip movie-end fade")
    /// An audio clip's loop (its source needs a known length).
    public static let audioLoop = SettingKey(rawValue: "audioLoop", description: "audio loop")
    /// How long an audio clip loops.
    public static let audioLoopDuration = SettingKey(rawValue: "audioLoopDuration", description: "audio loop duration")
    /// The crossfade where a looped audio clip joins itself.
    public static let audioLoopCrossfade = SettingKey(rawValue: "audioLoopCrossfade", description: "audio loop crossfade")
    /// The crossfade between the clips of an `AudioTrack`.
    public static let audioTrackCrossfade = SettingKey(rawValue: "audioTrackCrossfade", description: "audio track crossfade")
    /// How far ducking lowers the music.
    public static let duckingDepth = SettingKey(rawValue: "duckingDepth", description: "ducking depth")
    /// The voice level at which ducking starts.
    public static let duckingThreshold = SettingKey(rawValue: "duckingThreshold", description: "ducking threshold")
    /// How fast ducking lowers the music.
    public static let duckingAttack = SettingKey(rawValue: "duckingAttack", description: "ducking attack")
    /// How fast ducking brings the music back.
    public static let duckingRelease = SettingKey(rawValue: "duckingRelease", description: "ducking release")
    /// How long ducking holds after the voice stops.
    public static let duckingHold = SettingKey(rawValue: "duckingHold", description: "ducking hold")
    /// Loudness normalisation of a mix (which needs an end).
    public static let loudnessNormalization = SettingKey(rawValue: "loudnessNormalization", description: "loudness normalisation")
    /// An `AudioMix`'s gain.
    public static let mixGain = SettingKey(rawValue: "mixGain", description: "mix gain")
    /// The loudness an `AudioMix` is normalised to.
    public static let loudnessTarget = SettingKey(rawValue: "loudnessTarget", description: "loudness target")
    /// An `AudioMix`'s fixed duration.
    public static let mixDuration = SettingKey(rawValue: "mixDuration", description: "mix duration")
    /// A limiter's ceiling.
    public static let limiterCeiling = SettingKey(rawValue: "limiterCeiling", description: "limiter ceiling")
    /// A limiter's lookahead.
    public static let limiterLookahead = SettingKey(rawValue: "limiterLookahead", description: "limiter lookahead")
    /// A limiter's release time.
    public static let limiterRelease = SettingKey(rawValue: "limiterRelease", description: "limiter release")
    /// The speed of a `TempoSound` (1/4 to 4).
    public static let audioSpeed = SettingKey(rawValue: "audioSpeed", description: "audio speed")
    /// The source of a `ReversedSound` (it needs a known length).
    public static let reversedSound = SettingKey(rawValue: "reversedSound", description: "reversed sound")
    /// `Clip.Transform`: a clip's position, scale, rotation, crop or opacity.
    public static let transform = SettingKey(rawValue: "transform", description: "transform")
    /// `Reframe`: the aspect ratio a video is reframed to.
    public static let reframe = SettingKey(rawValue: "reframe", description: "reframe")
    /// `Clip.SplitScreen`: a split screen's layout, cells, gutter or border.
    public static let splitScreen = SettingKey(rawValue: "splitScreen", description: "split screen")

    /// The `number`th clip (from 1) of an `AudioTrack`.
    public static func audioTrackClip(_ number: Int) -> SettingKey {
        SettingKey(rawValue: "audioTrackClip[\(number)]", description: "audio track clip \(number)")
    }
    /// The placement time of the `number`th clip (from 1) of an `AudioTrack`.
    public static func audioTrackClipTime(_ number: Int) -> SettingKey {
        SettingKey(rawValue: "audioTrackClipTime[\(number)]", description: "audio track clip \(number) time")
    }
    /// The gain of the track at `index` of an `AudioMix` (from 0).
    public static func trackGain(_ index: Int) -> SettingKey {
        SettingKey(rawValue: "trackGain[\(index)]", description: "gain of track \(index)")
    }
    /// The start of the track at `index` of an `AudioMix` (from 0).
    public static func trackStart(_ index: Int) -> SettingKey {
        SettingKey(rawValue: "trackStart[\(index)]", description: "start of track \(index)")
    }

    /// Every setting without a number that MovieMaker names, in declaration order.
    package static let all: [SettingKey] = [
        .crf, .videoCodec, .bitDepth, .gifColors, .plays, .webpQuality, .maxFileSize, .chapters, .segmentDuration, .bitrate, .keyframeInterval, .bufferCount, .drawingThreads, .threads, .frameCount, .audioSampleRate,
        .audioChannelCount, .audioBitRate, .soundStartTime, .audioReaderFormat, .musicVolume, .musicFade, .stillTime, .time, .frameRange, .studioHook, .chunk,
        .transition, .transitionDuration, .transitions, .color, .groupOpacity, .shadowBlur, .shadowOffset, .blurRadius,
        .regularPolygonSides, .starPoints, .fontSize, .textWidth, .decimals, .lineSpacing, .letterSpacing, .outlineWidth,
        .captionWidth, .captionLines, .captionWordsPerPage, .captionTiming, .captionPosition, .narrationText, .narrationVoice, .narrationRate, .narrationPitch, .audiogramBars, .audiogramGap, .audiogramFrequencies, .audiogramFloor, .audiogramSmoothing, .audiogramArea, .audiogramStart, .transcriptText, .transcriptSound, .fittingBox, .fittingFontSizes, .easing, .keyframes, .keyframeTime, .duration, .wavLength, .sampleRate,
        .channelCount, .soundDuration, .burstLength, .burstTime, .burstInterval, .beepRamp, .frequency, .amplitude,
        .audioClipInPoint, .audioClipOutPoint, .audioClipGain, .audioClipFadeIn, .audioClipFadeOut,
        .audioClipMovieEndFade, .audioLoop, .audioLoopDuration, .audioLoopCrossfade, .audioTrackCrossfade,
        .duckingDepth, .duckingThreshold, .duckingAttack, .duckingRelease, .duckingHold, .loudnessNormalization,
        .mixGain, .loudnessTarget, .mixDuration, .limiterCeiling, .limiterLookahead, .limiterRelease,
        .videoDecoderLimit, .speed, .audioSpeed, .reversedSound, .visibleFrameSearch, .contactSheetGrid, .contactSheetWidth,
        .transform, .reframe, .splitScreen
    ]

    /// The numbered settings by the name before their brackets.
    private static let numbered: [String: @Sendable (Int) -> SettingKey] = [
        "audioTrackClip": { audioTrackClip($0) },
        "audioTrackClipTime": { audioTrackClipTime($0) },
        "trackGain": { trackGain($0) },
        "trackStart": { trackStart($0) },
    ]
}
