import Foundation

// Which frames are one video's decoded picture and nothing else, decided from the tree alone: a
// render copies such a frame from the decoder to the encoder in YUV instead of converting it to BGRA,
// drawing it and converting it back — the body of every clip in a `stitch` — and mixes the two
// pictures of a crossfade between two such videos there. It mirrors `render(in:at:session:)` node by
// node, the same time maps and the same tests of which child is drawn, and answers nil wherever
// drawing does anything else: another transition, a filter, a transform that moves or fades, a mask,
// a split, another layer.

/// A frame whose whole picture is one video leaf's decoded frame, upright and at the movie's size, or
/// a crossfade between two such frames.
struct VideoPassThrough: Sendable {
    /// The leaf's decoder in the render session.
    let key: VideoLeafKey
    /// The probed file.
    let file: VideoFile
    /// The time in the file whose frame is shown (as `VideoMedia.draw` is given it).
    let sourceTime: Time
    /// In a crossfade (`fade`) between two such videos: the incoming one, mixed over this one in YUV.
    var incoming: Incoming? = nil

    /// A crossfade's incoming video and its share of each sample.
    struct Incoming: Sendable {
        let key: VideoLeafKey
        let file: VideoFile
        let sourceTime: Time
        /// B's share, 0 < weight < 1: the transition's eased progress, as `TransitionRenderer` mixes it.
        let weight: Double
    }
}

extension Clip {
    /// The video leaf that is the whole picture at `time` (this clip's own time) of a `width`×`height`
    /// frame, when one is: opaque, upright, not mirrored, exactly the frame's size, 8-bit 4:2:0 limited
    /// range BT.709 as probed (`VideoFile.passesThrough`), with nothing drawn over it; or, in a
    /// crossfade between two such leaves, the outgoing one with the incoming one and its share
    /// (`incoming`). `session`, when given, opens ahead the decoders drawing would open ahead.
    func videoPassThrough(at time: Time, width: Int, height: Int, rate: FrameRate, session: RenderSession? = nil) -> VideoPassThrough? {
        switch node {
        case let .media(media):
            guard case let .video(video) = media.source, let key = media.videoKey else { return nil }
            let file = video.file
            guard video.reframe == nil, file.passesThrough, file.rotation == 0, !file.isMirrored, file.width == width, file.height == height,
                  file.codedWidth == width, file.codedHeight == height else { return nil }
            // The picture covers the frame whatever the fit (no bars, no blurred backdrop).
            return VideoPassThrough(key: key, file: file, sourceTime: Time.max(.zero, media.sourceRange.start + time))

        case let .sequence(track):
            guard let i = track.index(at: time) else { return nil }
            if i > 0, let transition = track.transitions[i - 1], time < track.starts[i] + transition.duration {
                return track.crossfadePassThrough(transition, into: i, at: time, width: width, height: height, rate: rate, session: session)
            }
            if let session, i + 1 < track.items.count, time >= track.starts[i + 1] - Self.videoLookahead {
                session.prefetchVideos(of: track.items[i + 1])
            }
            return track.items[i].videoPassThrough(at: time - track.starts[i], width: width, height: height, rate: rate, session: session)

        case let .stack(clips):
            // The topmost layer drawing anything at this time, when it is such a video, hides the layers
            // below (a description's background colour, a track that ended).
            guard let top = clips.last(where: { !$0.drawsNothing(at: time, rate: rate) }) else { return nil }
            return top.videoPassThrough(at: time, width: width, height: height, rate: rate, session: session)

        case let .timeMap(map, child):
            guard let local = map.childTime(time, childDuration: child.duration, rate: rate) else { return nil }
            return child.videoPassThrough(at: local, width: width, height: height, rate: rate, session: session)

        case let .transformed(transform, child):
            guard transform.isIdentity else { return nil }
            return child.videoPassThrough(at: time, width: width, height: height, rate: rate, session: session)

        case .generator, .filtered, .masked, .split:
            return nil
        }
    }

    /// Whether the clip draws nothing at `time` (its own time), as a stack's layer: past its end (a
    /// stack draws a layer only before its end), an empty generator, a delayed clip not started yet, a
    /// sequence's gap, a stack of such. Conservative: false unless shown. Only a stack's and a
    /// sequence's rules end a clip; a time map or a leaf given a later time still draws (a freeze at
    /// a video's end shows its last frame), so they are asked with the time the interpreter gives them.
    func drawsNothing(at time: Time, rate: FrameRate) -> Bool {
        time >= duration || drawsNothingWithin(at: time, rate: rate)
    }

    /// `drawsNothing(at:rate:)` without the end: what the node draws when the interpreter calls it at `time`.
    private func drawsNothingWithin(at time: Time, rate: FrameRate) -> Bool {
        switch node {
        case .generator(.empty, _):
            return true
        case let .timeMap(map, child):
            guard let local = map.childTime(time, childDuration: child.duration, rate: rate) else { return true }
            return child.drawsNothingWithin(at: local, rate: rate)
        case let .stack(clips):
            return clips.allSatisfy { $0.drawsNothing(at: time, rate: rate) }
        case let .sequence(track):
            guard let i = track.index(at: time) else { return true }
            if i > 0, track.transitions[i - 1] != nil, time < track.starts[i] + track.transitions[i - 1]!.duration { return false }
            return track.items[i].drawsNothingWithin(at: time - track.starts[i], rate: rate)
        default:
            return false
        }
    }
}

extension Clip.Track {
    /// The frame at `time` of a transition into item `i`, when it mixes two passed-through videos: only
    /// a crossfade (`fade`, which `TransitionRenderer` draws as `A·(1−p) + B·p`) between two frames
    /// that pass through alone. Its first and last moments (progress 0 or 1 after easing) show one side
    /// alone, as drawing does. Any other effect is drawn.
    fileprivate func crossfadePassThrough(_ transition: Transition, into i: Int, at time: Time, width: Int, height: Int,
                                      rate: FrameRate, session: RenderSession?) -> VideoPassThrough? {
        guard case .mix(.constant) = transition.kind.effect else { return nil }
        let p = TransitionRenderer.progress(transition, linear: (time - starts[i]).seconds / transition.duration.seconds)
        func side(_ k: Int) -> VideoPassThrough? {
            guard let video = items[k].videoPassThrough(at: time - starts[k], width: width, height: height, rate: rate, session: session),
                  video.incoming == nil else { return nil }
            return video
        }
        if p <= 0 { return side(i - 1) }
        if p >= 1 { return side(i) }
        guard var a = side(i - 1), let b = side(i) else { return nil }
        a.incoming = .init(key: b.key, file: b.file, sourceTime: b.sourceTime, weight: p)
        return a
    }
}
