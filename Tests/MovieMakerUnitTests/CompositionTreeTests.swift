import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// The clip tree: what it says about itself without drawing, and that drawing it gives exactly the
/// pixels the former closure-wrapping combinators gave.
@Suite struct CompositionTreeTests {
    /// A clip whose picture changes every frame (a moving square, shaded by progress), so wrong times show.
    static func moving(_ color: Color, duration: Time) -> Clip {
        Clip(duration: duration) { ctx, f in
            ctx.clear(color)
            ctx.setFill(Color(white: f.progress))
            ctx.fillRect(Rect(x: 2 + Double(f.index % 40), y: 4 + f.time * 3, width: 12, height: 10))
        }
    }

    /// The composition of the tests: sequence + transition + overlay + trim + repeat (+ an offset), with a
    /// photo among the sequence's items.
    static func composition(photo: URL) -> Clip {
        let a = Clip.color(.red, duration: 2)
        let b = moving(.blue, duration: 3)
        let c = Clip.photo(photo, duration: 1.5)
        let seq = Clip.sequence([a, b, c], transition: .crossfade(duration: 0.5))     // 2 + 3 + 1.5 − 1 = 5.5 s
        let trimmed = seq.trimmed(from: 1, to: 5)                                         // 4 s
        let green = moving(.green, duration: 0.5).repeated(3)                             // 1.5 s
        return Clip.overlay(trimmed, green.delayed(by: 1))                                // max(4, 2.5) = 4 s
    }

    typealias Summary = (path: [Int], start: Double, end: Double, local: Double)
    static func summary(_ placements: [Clip.Placement]) -> [Summary] {
        placements.map { ($0.path, $0.range.start.seconds, $0.range.end.seconds, $0.localStart.seconds) }
    }
    static func same(_ a: [Summary], _ b: [Summary]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.path == $1.path && $0.start == $1.start && $0.end == $1.end && $0.local == $1.local }
    }

    @Test("the tree alone gives the duration, every leaf's placement and the leaves active in a time range")
    func treeInspection() throws {
        let clip = Self.composition(photo: URL(fileURLWithPath: "/nonexistent/photo.png"))   // inspection opens nothing
        #expect(clip.duration == 4)
        guard case let .stack(layers) = clip.node, layers.count == 2 else { Issue.record("not a stack: \(clip.node)"); return }
        guard case let .timeMap(.trim(from, to), seq) = layers[0].node else { Issue.record("not a trim"); return }
        #expect(from == 1 && to == 5 && seq.duration == Time(seconds: 5.5))
        guard case let .sequence(track) = seq.node else { Issue.record("not a sequence"); return }
        #expect(track.starts == [0, Time(seconds: 1.5), 4])
        #expect(track.transitions.map { $0?.duration } == [Time(seconds: 0.5), Time(seconds: 0.5)])

        // Each leaf once per placement: red from 1 s of its time, blue, the photo cut at 5 s, and three
        // repetitions of green starting at 1 s.
        let expected: [Summary] = [
            ([0, 0, 0], 0, 1, 1),           // red: sequence [0, 2) seen through the trim from 1 s
            ([0, 0, 1], 0.5, 3.5, 0),       // blue: sequence [1.5, 4.5)
            ([0, 0, 2], 3, 4, 0),           // photo: sequence [4, 5.5) cut at 5
            ([1, 0, 0], 1, 1.5, 0),         // green, three times
            ([1, 0, 0], 1.5, 2, 0),
            ([1, 0, 0], 2, 2.5, 0),
        ]
        let all = Self.summary(clip.leafPlacements)
        #expect(Self.same(all, expected), "\(all)")
        #expect(clip.leafPlacements.map(\.clip.duration) == [2, 3, Time(seconds: 1.5), Time(seconds: 0.5), Time(seconds: 0.5), Time(seconds: 0.5)])

        // Three windows.
        let early = Self.summary(clip.leaves(in: 0..<Time(seconds: 0.5)))
        #expect(Self.same(early, [([0, 0, 0], 0, 0.5, 1)]), "\(early)")
        let middle = Self.summary(clip.leaves(in: Time(seconds: 0.9)..<Time(seconds: 1.6)))
        #expect(Self.same(middle, [([0, 0, 0], 0.9, 1, 1.9), ([0, 0, 1], 0.9, 1.6, 0.4), ([1, 0, 0], 1, 1.5, 0), ([1, 0, 0], 1.5, 1.6, 0)]), "\(middle)")
        let late = Self.summary(clip.leaves(in: Time(seconds: 3.2)..<10))
        #expect(Self.same(late, [([0, 0, 1], 3.2, 3.5, 2.7), ([0, 0, 2], 3.2, 4, 0.2)]), "\(late)")

        // Media only: the photo, with the part of its own time that is shown.
        let media = clip.mediaLeaves(in: 0..<4)
        #expect(media.count == 1)
        #expect(media.first?.localRange == TimeRange(start: 0, duration: 1))
        if case let .media(m)? = media.first?.clip.node { #expect(m.url.lastPathComponent == "photo.png") } else { Issue.record("not media") }
        #expect(clip.mediaLeaves(in: 0..<3).isEmpty)
    }

    @Test("under a speed change a leaf's local range is its own time shown, not the movie's", arguments: [2.0, 0.5])
    func localRangeUnderSpeed(_ factor: Double) throws {
        // 4 s of its own time, shown faster or slower: at 2× it fills 2 s of the movie, at ½× 8 s.
        let clip = Self.moving(.red, duration: 4).trimmed(from: 1, to: 4).speed(factor)
        let placement = try #require(clip.leafPlacements.first)
        #expect(placement.range == TimeRange(start: 0, duration: Time(seconds: 3 / factor)))
        #expect(placement.localRange == TimeRange(start: 1, duration: 3))
        // A window of the movie: the part of the leaf's time that window shows.
        let window = try #require(clip.leaves(in: 0..<Time(seconds: 1)).first)
        #expect(window.localRange == TimeRange(start: 1, duration: Time(seconds: factor)))
    }

    @Test("a slideshow is one leaf, and its photos are the media leaves inside it")
    func slideshowLeaves() throws {
        let urls = (0..<4).map { URL(fileURLWithPath: "/nowhere/p\($0).jpg") }
        var show = Slideshow(photos: urls.map { Slideshow.Photo(url: $0) })
        show.duration = 2
        show.transition = .crossfade(duration: 1)
        let clip = try show.clip(width: 64, height: 48)
        #expect(clip.duration == 8)
        #expect(clip.leafPlacements.count == 1)
        let media = clip.mediaLeaves(in: Time(seconds: 2.5)..<Time(seconds: 3.5))
        // Photo 0 shows [0, 3), photo 1 [2, 5): both are drawn in [2.5, 3) (the crossfade).
        #expect(media.map { "\($0.range.start.seconds)-\($0.range.end.seconds)" } == ["2.5-3.0", "2.5-3.5"])
        #expect(media.compactMap { if case let .media(m) = $0.clip.node { return m.url.lastPathComponent } else { return nil } } == ["p0.jpg", "p1.jpg"])
    }

    // MARK: The former closure combinators, for comparison

    /// The combinators as they were before the tree: each wraps its clips in a new closure.
    enum Closures {
        static func sequence(_ clips: [Clip]) -> Clip {
            var starts: [Time] = []
            var total = Time.zero
            for c in clips { starts.append(total); total = total + c.duration }
            let fixedStarts = starts
            return Clip(duration: total) { ctx, frame in
                let starts = fixedStarts
                var i = clips.count - 1
                while i > 0 && (starts[i] > frame.exactTime || clips[i].duration == .zero) { i -= 1 }
                guard i >= 0, clips[i].duration > .zero else { return }
                try clips[i].draw(in: ctx, at: frame.shifted(by: starts[i], duration: clips[i].duration))
            }
        }
        static func overlay(_ clips: [Clip]) -> Clip {
            Clip(duration: clips.map(\.duration).max() ?? .zero) { ctx, frame in
                for c in clips where frame.exactTime < c.duration {
                    try ctx.withSavedState { try c.draw(in: ctx, at: Frame(index: frame.index, movieIndex: frame.movieIndex, rate: frame.rate, exactTime: frame.exactTime, duration: c.duration)) }
                }
            }
        }
        static func trimmed(_ clip: Clip, from start: Time, to end: Time) -> Clip {
            let s = Time.max(.zero, start), e = Time.min(end, clip.duration)
            return Clip(duration: Time.max(.zero, e - s)) { ctx, frame in
                let t = frame.exactTime + s
                try clip.draw(in: ctx, at: Frame(index: frame.rate.frameCount(for: t), movieIndex: frame.movieIndex, rate: frame.rate, exactTime: t, duration: clip.duration))
            }
        }
        static func delayed(_ clip: Clip, by delay: Time) -> Clip { sequence([Clip(duration: delay) { _, _ in }, clip]) }
        static func repeated(_ clip: Clip, _ n: Int) -> Clip { sequence(Array(repeating: clip, count: n)) }
        /// `a` then `b` joined by `transition`, drawn by the transition renderer.
        static func transition(_ a: Clip, _ b: Clip, _ transition: Transition) -> Clip {
            let overlap = Time.min(transition.duration, Time.min(a.duration, b.duration))
            var shortened = transition
            shortened.duration = overlap
            let used = shortened
            let bStart = a.duration - overlap
            return Clip(duration: a.duration + b.duration - overlap) { ctx, frame in
                let t = frame.exactTime
                let session = RenderSession.current ?? RenderSession.standalone(for: ctx)
                if t < bStart { return try a.draw(in: ctx, at: frame.shifted(by: .zero, duration: a.duration)) }
                if t < a.duration {
                    return try TransitionRenderer.draw(used, linearProgress: (t - bStart).seconds / overlap.seconds,
                                                       from: TransitionSide(a, session), at: frame.shifted(by: .zero, duration: a.duration),
                                                       to: TransitionSide(b, session), at: frame.shifted(by: bStart, duration: b.duration), in: ctx)
                }
                try b.draw(in: ctx, at: frame.shifted(by: bStart, duration: b.duration))
            }
        }
    }

    @Test("the tree draws byte-identical frames to the same composition built from closures", arguments: [1, 3])
    func treeMatchesClosureComposition(threads: Int) throws {
        let folder = try TemporaryFolder()
        let photo = try TestPhotos.yellow(in: folder)
        let a = Clip.color(.red, duration: 2), b = Self.moving(.blue, duration: 3), c = Clip.photo(photo, duration: 1.5)
        let green = Self.moving(.green, duration: 0.5)
        let tree = Clip.overlay(
            Clip.sequence([a, b, c], transition: .wipe(.left, duration: 0.5)).trimmed(from: 1, to: 5),
            green.repeated(3).delayed(by: 1))
        let closures = Closures.overlay([
            Closures.trimmed(Closures.transition(Closures.transition(a, b, .wipe(.left, duration: 0.5)), c, .wipe(.left, duration: 0.5)), from: 1, to: 5),
            Closures.delayed(Closures.repeated(green, 3), by: 1)])
        #expect(tree.duration == closures.duration)
        let rate = FrameRate(numerator: 25, denominator: 2)!    // 12.5 fps: frame times off the half-second grid too
        let fromTree = try tree.renderFrames(width: 64, height: 48, rate: rate, drawingThreads: threads)
        let fromClosures = try closures.renderFrames(width: 64, height: 48, rate: rate, drawingThreads: 1)
        #expect(fromTree.count == rate.frameCount(for: tree.duration) && fromTree.count == 50)
        for (i, (x, y)) in zip(fromTree, fromClosures).enumerated() {
            #expect(x == y, "frame \(i) differs")
        }
        // And the photo really is drawn (yellow) once the sequence reaches it (at 3.25 s, frame 41).
        let p = fromTree[41].rgba(x: 60, y: 40)
        #expect(p.red > 240 && p.green > 240 && p.blue < 20, "photo pixel \(p)")
    }

    @Test("a frame range renders exactly the whole render's frames at those indices, on any number of threads")
    func frameRangesMatchTheWholeRender() throws {
        let folder = try TemporaryFolder()
        let clip = Self.composition(photo: try TestPhotos.yellow(in: folder))
        let whole = try clip.renderFrames(width: 48, height: 36, rate: 10, drawingThreads: 2)
        #expect(whole.count == 40)
        for (range, threads) in [(0..<40, 1), (7..<19, 3), (33..<40, 2), (12..<13, 4)] {
            let part = try clip.renderFrames(range, width: 48, height: 36, rate: 10, drawingThreads: threads)
            #expect(part == Array(whole[range]), "frames \(range) on \(threads) threads")
        }
        #expect(throws: MovieMakerError.self) { _ = try clip.renderFrames(30..<41, width: 48, height: 36, rate: 10) }
    }

    @Test("frames drawn out of order on several threads arrive in order, whatever each frame costs")
    func schedulerKeepsOrderUnderUnevenWork() throws {
        let finished = Mutex<[Int]>([])
        let frameTwoDone = DispatchSemaphore(value: 0)
        let clip = Clip(duration: 3) { ctx, f in
            // Frame 0 waits until frame 2 is drawn (by another thread); every third frame is slow.
            if f.index == 0, f.movieIndex == 0 { _ = frameTwoDone.wait(timeout: .now() + 5) }
            if f.index % 3 == 0 { usleep(4_000) }
            ctx.clear(Color(white: Double(f.index) / 30))
            finished.withLock { $0.append(f.index) }
            if f.index == 2 { frameTwoDone.signal() }
        }
        let frames = try clip.renderFrames(width: 8, height: 8, rate: 10, drawingThreads: 3)
        let order = finished.withLock { $0 }
        #expect(order.count == 30)
        #expect((order.firstIndex(of: 2) ?? 99) < (order.firstIndex(of: 0) ?? -1), "finished in order \(order)")
        // Frame i is grey i/30: strictly brighter frame after frame, and equal to a one-thread render.
        let levels = frames.map { Int($0.bytes[0]) }
        #expect(levels.count == 30 && zip(levels, levels.dropFirst()).allSatisfy { $0 < $1 }, "\(levels)")
        frameTwoDone.signal()   // the one-thread render's frame 0 must not wait
        #expect(frames == (try clip.renderFrames(width: 8, height: 8, rate: 10, drawingThreads: 1)))
    }
}
