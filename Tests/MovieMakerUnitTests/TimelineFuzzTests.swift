import Foundation
import Synchronization
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// Issue 14's "Done when": randomly mutated description files give only typed errors or renders — no
// crash, no hang. Valid seed descriptions (every item type, transition, template slot, output setting)
// are mutated by a seeded mutator, on the JSON tree and on the raw bytes, and each mutant is read,
// round-tripped, composed against real media files and, when small enough, rendered frame by frame in
// memory. A trap or a hang would end the test process: a signal handler and a watchdog print the mutant
// being tried first, so the failure can be reproduced (MOVIEMAKER_FUZZ_SEED, MOVIEMAKER_FUZZ_FIRST,
// MOVIEMAKER_FUZZ_COUNT=1).

/// The fuzz run's settings, from the environment (`make fuzz` raises the count).
struct FuzzSettings {
    /// How many mutants (MOVIEMAKER_FUZZ_COUNT, default 2,500: `make test` keeps to its time budget;
    /// `make fuzz-descriptions` tries 100,000, whose first 2,500 are these, as mutant i depends only on the seed and i).
    var count = 2_500
    /// The run's seed (MOVIEMAKER_FUZZ_SEED, default 14, the issue's number): mutant i is made from it and i alone.
    var seed: UInt64 = 14
    /// The first mutant's index (MOVIEMAKER_FUZZ_FIRST, default 0), to replay one mutant.
    var first = 0
    /// How long one mutant may take before the run is stopped as hung (MOVIEMAKER_FUZZ_HANG_SECONDS, default 60).
    var hangSeconds = 60.0
    /// Render frames of every n-th mutant that composes and is small enough (MOVIEMAKER_FUZZ_RENDER_EVERY, default 1).
    var renderEvery = 1
    /// How many mutants are tried at once (MOVIEMAKER_FUZZ_WORKERS, default 2, one per core of the test machines).
    var workers = 2

    /// The settings the environment gives.
    static var fromEnvironment: FuzzSettings {
        let env = ProcessInfo.processInfo.environment
        var s = FuzzSettings()
        if let v = env["MOVIEMAKER_FUZZ_COUNT"].flatMap(Int.init), v > 0 { s.count = v }
        if let v = env["MOVIEMAKER_FUZZ_SEED"].flatMap({ UInt64($0) }) { s.seed = v }
        if let v = env["MOVIEMAKER_FUZZ_FIRST"].flatMap(Int.init), v >= 0 { s.first = v }
        if let v = env["MOVIEMAKER_FUZZ_HANG_SECONDS"].flatMap(Double.init), v > 0 { s.hangSeconds = v }
        if let v = env["MOVIEMAKER_FUZZ_RENDER_EVERY"].flatMap(Int.init), v > 0 { s.renderEvery = v }
        if let v = env["MOVIEMAKER_FUZZ_WORKERS"].flatMap(Int.init), (1...FuzzGuard.maximumWorkers).contains(v) { s.workers = v }
        return s
    }
}

@Suite(.serialized) struct TimelineFuzzTests {
    /// The largest composition whose frames are rendered: 300 frames of at most 128×128.
    static let renderLimit = (frames: 300, pixels: 128 * 128)
    /// The sound of every n-th rendered mutant is mixed too (mixing costs more than drawing three frames).
    static let soundEvery = 4

    @Test("every seed description is valid: it reads, round-trips, composes and renders")
    func seedsAreValid() throws {
        let media = try FuzzMedia()
        let mutator = try TimelineMutator()
        #expect(mutator.seeds.count == FuzzSeeds.all.count)
        for (i, seed) in mutator.seeds.enumerated() {
            let timeline = try Timeline(json: seed)
            let text = try timeline.jsonText()
            #expect(try Timeline(jsonText: text) == timeline, "seed \(i) does not round-trip")
            for preview in [false, true] {
                let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: media.url, preview: preview, drawingThreads: 1))
                #expect(composition.frameCount > 0)
                let last = composition.frameCount - 1
                let frames = try composition.picture.renderFrames(last..<last + 1, width: composition.width, height: composition.height,
                                                                  rate: composition.frameRate, drawingThreads: 1)
                #expect(frames.count == 1, "seed \(i) (preview \(preview)) rendered \(frames.count) frames")
            }
        }
        // The seeds between them use every item type, track kind, slot kind and slot fit.
        let text = mutator.seeds.map(\.compactText).joined()
        for type in Timeline.Content.typeNames { #expect(text.contains("\"type\":\"\(type)\""), "no seed has a \(type) item") }
        for kind in Timeline.Track.Kind.allCases { #expect(text.contains("\"kind\":\"\(kind.rawValue)\""), "no seed has a \(kind) track") }
        for kind in Timeline.Slot.Kind.allCases { #expect(text.contains("\"kind\":\"\(kind.rawValue)\""), "no seed has a \(kind) slot") }
        for fit in Timeline.Slot.Fit.allCases { #expect(text.contains("\"fit\":\"\(fit.rawValue)\""), "no seed slot fits by \(fit)") }
    }

    @Test("the mutator is deterministic and changes what it is given")
    func mutatorIsDeterministic() throws {
        let mutator = try TimelineMutator()
        var changed = 0, bytesOnly = 0
        for i in 0..<500 {
            let a = mutator.mutant(i, runSeed: 99), b = mutator.mutant(i, runSeed: 99)
            #expect(a.bytes == b.bytes && a.operations == b.operations, "mutant \(i) differs between two runs")
            if a.tree != mutator.seeds[a.seedIndex] { changed += 1 }
            if a.tree == nil { bytesOnly += 1 }
        }
        #expect(changed > 480, "only \(changed) of 500 mutants differ from their seed")
        #expect((50...250).contains(bytesOnly), "\(bytesOnly) of 500 mutants were mutated as bytes")
        #expect(mutator.mutant(7, runSeed: 1).bytes != mutator.mutant(7, runSeed: 2).bytes, "the run seed does not change the mutants")
    }

    @Test("the mutants that crashed or hung now give a typed error or a render", arguments: FoundByFuzzing.all)
    func foundByFuzzing(_ found: FoundByFuzzing) throws {
        let media = try FuzzMedia()
        let json = try JSONValue(parsing: found.json)
        let mutant = Mutant(seedIndex: -1, operations: [found.what], tree: json, bytes: Array(json.canonicalText.utf8), preview: false)
        var stats = FuzzStats()
        let started = ContinuousClock.now
        FuzzRunner(media: media.url, mutant: mutant, index: 0, runSeed: 0, render: true, sound: true).run(into: &stats)
        #expect(ContinuousClock.now - started < .seconds(10), "\(found.what) took \(ContinuousClock.now - started)")
        for failure in stats.failures { Issue.record(Comment(rawValue: failure.text)) }
        switch found.outcome {
        case .notTimeline: #expect(stats.notTimeline == 1, "\(found.what) was read")
        case .notComposed: #expect(stats.decoded == 1 && stats.composed == 0, "\(found.what) was not refused by the composition")
        case .rendered: #expect(stats.rendered == 1, "\(found.what) was not rendered")
        }
    }

    @Test("randomly mutated descriptions give only typed errors or renders: no crash, no hang")
    func mutatedDescriptions() throws {
        let settings = FuzzSettings.fromEnvironment
        let media = try FuzzMedia()
        let mutator = try TimelineMutator()
        let guardian = FuzzGuard.shared
        guardian.start(hangSeconds: settings.hangSeconds, workers: settings.workers)
        defer { guardian.stop() }
        // Worker w tries mutants first + w, first + w + workers, …; each mutant's outcome depends only on
        // the mutant, so the counts are the same for any number of workers.
        let results = Mutex<[FuzzStats]>([])
        let mediaFolder = media.url
        let started = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: settings.workers) { worker in
            var stats = FuzzStats()
            for index in stride(from: settings.first + worker, to: settings.first + settings.count, by: settings.workers) {
                let mutant = mutator.mutant(index, runSeed: settings.seed)
                guardian.trying(mutant, index: index, runSeed: settings.seed, worker: worker)
                let began = ContinuousClock.now
                let render = index % settings.renderEvery == 0, sound = index % TimelineFuzzTests.soundEvery == 0
                FuzzRunner(media: mediaFolder, mutant: mutant, index: index, runSeed: settings.seed, render: render, sound: sound).run(into: &stats)
                stats.noteTime(ContinuousClock.now - began, mutant: mutant, index: index)
            }
            guardian.idle(worker: worker)
            results.withLock { $0.append(stats) }
        }
        let elapsed = ContinuousClock.now - started
        withExtendedLifetime(media) {}   // the fixtures stay until every worker is done
        let stats = results.withLock { $0.reduce(into: FuzzStats()) { $0.merge($1) } }
        print(stats.summary(count: settings.count, elapsed: elapsed, seed: settings.seed, workers: settings.workers))
        for failure in stats.failures.prefix(10) { Issue.record(Comment(rawValue: failure.text)) }
        #expect(stats.failures.isEmpty, "\(stats.failures.count) mutants broke a rule (the first ten are recorded above)")
        // A mutator that only made garbage would pass the rules above without testing much.
        let n = Double(settings.count)
        #expect(Double(stats.decoded) / n > 0.10, "only \(stats.decoded) of \(settings.count) mutants decoded")
        #expect(Double(stats.composed) / n > 0.05, "only \(stats.composed) of \(settings.count) mutants composed")
        #expect(Double(stats.rendered) / n > 0.01 / Double(settings.renderEvery), "only \(stats.rendered) of \(settings.count) mutants rendered")
        #expect(stats.slowest.duration < .seconds(settings.hangSeconds / 2), "mutant \(stats.slowest.index) took \(stats.slowest.duration)")
    }
}

// MARK: - Running one mutant

/// Counts of what happened to the mutants, the slowest one, and the rules they broke.
struct FuzzStats {
    /// Mutants whose bytes were not a JSON document.
    var notJSON = 0
    /// Mutants that were JSON but not a valid description.
    var notTimeline = 0
    /// Mutants that were read as a `Timeline`.
    var decoded = 0
    /// Decoded mutants whose composition was made.
    var composed = 0
    /// Composed mutants whose frames (and for every `soundEvery`-th mutant, the first and last 50 ms of sound) were rendered.
    var rendered = 0
    /// Composed mutants whose rendering (picture or sound) threw a `MovieMakerError`.
    var renderRefused = 0
    /// Composed mutants not rendered: too long or too large, or not sampled.
    var notRendered = 0
    /// Typed errors by stage and code (`compose: invalidDescription`).
    var errorCodes: [String: Int] = [:]
    /// The slowest mutant and how long it took.
    var slowest: (index: Int, duration: Duration) = (0, .zero)
    /// Time spent per stage.
    var stageTime: [String: Duration] = [:]
    /// One message per broken rule, with the mutant to reproduce it.
    var failures: [(index: Int, text: String)] = []

    /// Composition errors that name no JSON path (allowed, but a description's author would want one).
    var unlocated: [(index: Int, text: String)] = []
    /// Mutants that took longer than a second: index, time, what was done to the seed.
    var slow: [(index: Int, text: String)] = []

    /// Notes a mutant's time.
    mutating func noteTime(_ d: Duration, mutant: Mutant, index: Int) {
        if d > slowest.duration { slowest = (index, d) }
        if d > .seconds(1) { slow.append((index, "mutant \(index), \(d): \(mutant.operations.joined(separator: "; ").prefix(300))")) }
    }

    /// Notes a typed error thrown at `stage`.
    mutating func noteError(_ error: MovieMakerError, stage: String) {
        errorCodes["\(stage): \(error.code)", default: 0] += 1
    }

    /// Adds another worker's counts to these (failures and slow mutants in mutant order).
    mutating func merge(_ other: FuzzStats) {
        notJSON += other.notJSON; notTimeline += other.notTimeline; decoded += other.decoded; composed += other.composed
        rendered += other.rendered; renderRefused += other.renderRefused; notRendered += other.notRendered
        errorCodes.merge(other.errorCodes, uniquingKeysWith: +)
        stageTime.merge(other.stageTime, uniquingKeysWith: +)
        if other.slowest.duration > slowest.duration { slowest = other.slowest }
        failures = (failures + other.failures).sorted { $0.index < $1.index }
        slow = (slow + other.slow).sorted { $0.index < $1.index }
        unlocated = (unlocated + other.unlocated).sorted { $0.index < $1.index }
    }

    /// The run in a few lines: throughput, outcomes, errors, the slowest mutant.
    func summary(count: Int, elapsed: Duration, seed: UInt64, workers: Int) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        /// `n` and its share of the mutants.
        func share(_ n: Int) -> String { String(format: "%d (%.1f %%)", n, 100 * Double(n) / Double(max(count, 1))) }
        var lines = [
            String(format: "timeline fuzz: %d mutants (seed %llu) in %.1f s on %d threads, %.0f per second", count, seed, seconds, workers,
                   Double(count) / seconds),
            "  not JSON \(share(notJSON)), not a description \(share(notTimeline)), decoded \(share(decoded)), composed \(share(composed)), "
                + "rendered \(share(rendered)), render refused \(share(renderRefused)), composed but not rendered \(share(notRendered))",
            "  slowest: mutant \(slowest.index), \(slowest.duration); \(slow.count) took over a second",
            "  time by stage (summed over threads): " + stageTime.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
        ]
        lines += errorCodes.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
        lines += slow.prefix(20).map { "  slow: \($0.text)" }
        lines += unlocated.prefix(10).map { "  composition error without a JSON path, mutant \($0.index): \($0.text)" }
        return lines.joined(separator: "\n")
    }
}

/// Takes one mutant through every stage, checking the rules: each error a `MovieMakerError` (reading
/// errors `invalidDescription` at a JSON path), a decoded description round-trips, a composition
/// renders the frames asked for.
struct FuzzRunner {
    /// The folder the seeds' relative paths point into.
    let media: URL
    /// The mutant.
    let mutant: Mutant
    /// Its index in the run.
    let index: Int
    /// The run's seed.
    let runSeed: UInt64
    /// Whether to render its frames when it composes and is small enough.
    let render: Bool
    /// Whether to mix its sound too, when it renders.
    let sound: Bool

    /// Runs the stages, counting into `stats`.
    func run(into stats: inout FuzzStats) {
        /// Records a broken rule with the mutant.
        func fail(_ rule: String) { stats.failures.append((index, "\(rule)\n\(mutant.report(index: index, runSeed: runSeed))")) }
        /// Runs one stage, adding its time to the stage's total.
        func timed<T, E: Error>(_ stage: String, _ body: () throws(E) -> T) throws(E) -> T {
            let start = ContinuousClock.now
            defer { stats.stageTime[stage, default: .zero] += ContinuousClock.now - start }
            return try body()
        }

        // 1. The bytes as JSON. A tree mutant's canonical text must read back as the same tree.
        let json: JSONValue
        do throws(MovieMakerError) {
            json = try timed("parse") { () throws(MovieMakerError) in try JSONValue(parsing: Data(mutant.bytes)) }
        } catch {
            stats.notJSON += 1
            stats.noteError(error, stage: "parse")
            if error.code != .invalidDescription || error.location?.jsonPath == nil { fail("a JSON error without a JSON path: \(error)") }
            if let tree = mutant.tree, tree.depth < JSONValue.maximumDepth { fail("the canonical text of a JSON tree does not read back: \(error)") }
            return
        }
        if let tree = mutant.tree, json != tree { fail("the canonical text of a JSON tree reads back as another tree") }

        // 2. The description, and its round trip through the canonical writer.
        let timeline: Timeline
        do throws(MovieMakerError) {
            timeline = try timed("read") { () throws(MovieMakerError) in try Timeline(json: json) }
        } catch {
            stats.notTimeline += 1
            stats.noteError(error, stage: "read")
            if error.code != .invalidDescription || error.location?.jsonPath == nil { fail("a reading error without a JSON path: \(error)") }
            return
        }
        stats.decoded += 1
        do throws(MovieMakerError) {
            try timed("round trip") { () throws(MovieMakerError) in
                let text = try timeline.jsonText()
                let again = try Timeline(jsonText: text)
                if again != timeline { fail("decode(encode(x)) != x; encoded:\n\(text)") }
                if try again.jsonText() != text { fail("encoding the decoded description again gives other bytes; first encoding:\n\(text)") }
            }
        } catch {
            fail("a decoded description does not round-trip: \(error)")
        }

        // 3. The composition: media opened, clip tree built.
        let options = Timeline.RenderOptions(mediaFolder: media, preview: mutant.preview, drawingThreads: 1)
        let composition: TimelineComposition
        do throws(MovieMakerError) {
            composition = try timed("compose") { () throws(MovieMakerError) in try timeline.composition(options) }
        } catch {
            stats.noteError(error, stage: "compose")
            if error.location?.jsonPath == nil { stats.unlocated.append((index, "\(error.code): \(error)")) }
            return
        }
        stats.composed += 1
        if composition.frameCount < 1 || composition.width < 16 || composition.height < 16 || composition.width % 2 != 0 || composition.height % 2 != 0 {
            fail("a composition of \(composition.width)x\(composition.height), \(composition.frameCount) frames")
        }

        // 4. A few frames in memory (the first, the middle and the last) and the sound's ends, when the movie is small.
        let frameCount = composition.frameCount
        guard render, frameCount <= TimelineFuzzTests.renderLimit.frames,
              composition.width * composition.height <= TimelineFuzzTests.renderLimit.pixels else {
            stats.notRendered += 1
            return
        }
        do {
            try timed("render") {
                for frame in Set([0, frameCount / 2, frameCount - 1]).sorted() {
                    let pixels = try composition.picture.renderFrames(frame..<frame + 1, width: composition.width, height: composition.height,
                                                                      rate: composition.frameRate, drawingThreads: 1,
                                                                      videoDecoderLimit: composition.encoderSettings.videoDecoderLimit)
                    if pixels.count != 1 || pixels.first?.width != composition.width || pixels.first?.height != composition.height {
                        fail("frame \(frame) rendered as \(pixels.count) pictures of \(pixels.first.map { "\($0.width)x\($0.height)" } ?? "no size")")
                    }
                }
            }
            if sound { try timed("sound") { try renderSound(of: composition, fail: fail) } }
            stats.rendered += 1
        } catch let error as MovieMakerError {
            stats.renderRefused += 1
            stats.noteError(error, stage: "render")
        } catch {
            fail("rendering threw \(type(of: error)), not a MovieMakerError: \(error)")
        }
    }

    /// Mixes the movie's sound as a render would (the sound track, or else the picture's own sounds)
    /// and reads its first and last 50 ms: every sample must be a finite number.
    func renderSound(of composition: TimelineComposition, fail: (String) -> Void) throws {
        var mix = composition.soundtrack ?? AudioMix(duration: composition.duration)
        if composition.soundtrack == nil {
            for sound in composition.picture.sounds where sound.isHeard { mix.add(sound.heardSound, at: sound.firstHeard, role: .unaffected) }
        }
        guard !mix.tracks.isEmpty else { return }
        let format = AudioFormat.standard
        let total = format.frame(at: composition.duration)
        let window: Int64 = 2_400
        for start in Set([0, max(0, total - window)]).sorted() {
            let samples = try AudioInTesting.render(mix, frames: Int(min(window, total - start)), format: format, startingAt: start, endingAt: total - start)
            if let bad = samples.firstIndex(where: { !$0.isFinite }) {
                fail("the sound has \(samples[bad]) at sample frame \(start + Int64(bad / format.channelCount)) of \(total)")
                return
            }
        }
    }
}

/// A description the fuzzer found that crashed or hung, reduced, and what it gives now.
struct FoundByFuzzing: Sendable, CustomTestStringConvertible {
    /// How far it gets.
    enum Outcome: Sendable { case notTimeline, notComposed, rendered }
    /// What was wrong.
    let what: String
    /// The reduced description.
    let json: String
    /// What it gives now.
    let outcome: Outcome
    /// The name in test output.
    var testDescription: String { what }

    /// Every one found.
    static let all = [
        FoundByFuzzing(what: "abs(Int.min) on a time's exponent", outcome: .notTimeline, json: #"""
            {"version": 1, "tracks": [{"kind": "video", "items": [{"type": "gap", "duration": "1e-9223372036854775808s"}]}]}
            """#),
        FoundByFuzzing(what: "abs(Int.min) on a frame rate's exponent", outcome: .notTimeline, json: #"""
            {"version": 1, "output": {"fps": 1e-9223372036854775808}, "tracks": []}
            """#),
        FoundByFuzzing(what: "steps + 1 overflowing in a jump-both easing", outcome: .notTimeline, json: #"""
            {"version": 1, "tracks": [{"kind": "video", "items": [
              {"type": "color", "color": "red", "duration": "1s", "transition": {"name": "fade", "easing": "steps(9223372036854775807, jump-both)"}},
              {"type": "gap", "duration": "1s"}]}]}
            """#),
        FoundByFuzzing(what: "a 70000-character easing taking seconds for \"did you mean\"", outcome: .notTimeline,
                       json: #"{"version": 1, "tracks": [{"kind": "video", "items": [{"type": "title", "text": "a", "easing": ""#
                           + String(repeating: "a", count: 70_000) + #""}]}]}"#),
        FoundByFuzzing(what: "Time arithmetic overflowing on a transition of 1/9223372036854775807 s (now refused as finer than a nanosecond)", outcome: .notTimeline, json: #"""
            {"version": 1, "output": {"size": "32x32", "fps": 30}, "tracks": [{"kind": "video", "items": [
              {"type": "color", "color": "red", "duration": "0.2s", "transition": {"name": "fade", "duration": "1/9223372036854775807s"}},
              {"type": "color", "color": "blue", "duration": "0.2s"}]}]}
            """#),
        FoundByFuzzing(what: "sample arithmetic overflowing on a speed of 9223372036854775807/9223372036854775806 (now refused: terms over 1000000)", outcome: .notTimeline, json: #"""
            {"version": 1, "output": {"size": "64x48", "fps": 30}, "tracks": [{"kind": "video", "items": [
              {"type": "video", "source": {"file": "clip.mp4"}, "speed": "9223372036854775807/9223372036854775806"}]}]}
            """#),
        FoundByFuzzing(what: "a 70000-character typewriter title taking 28 s a frame", outcome: .notComposed,
                       json: #"{"version": 1, "output": {"size": "64x48"}, "tracks": [{"kind": "video", "items": [{"type": "title", "style": "typewriter", "duration": "0.5s", "text": ""#
                           + String(repeating: "W", count: 70_000) + #""}]}]}"#),
    ]

    /// One finding.
    init(what: String, outcome: Outcome, json: String) { self.what = what; self.outcome = outcome; self.json = json }
}

// MARK: - Fixtures

/// Small real media the seeds name, made once per test in a temporary folder: a 64×48 PNG and JPEG, a
/// one-second 64×48 video with sound, a one-second WAV, and files of the wrong kind (text, empty, a folder).
struct FuzzMedia {
    /// The folder (removed when the value goes).
    let folder: TemporaryFolder
    /// The folder as a directory URL (ending in "/"), as `RenderOptions.mediaFolder` needs: relative paths
    /// resolve against a URL's directory, and without the slash that would be the folder's parent.
    var url: URL { URL(fileURLWithPath: folder.url.path, isDirectory: true) }

    /// Writes the fixtures.
    init() throws {
        folder = try TemporaryFolder("TimelineFuzz")
        let picture = RGBAPicture.quadrants(width: 64, height: 48)
        FixturePNG.write(picture, kind: .rgba8, to: folder.file("photo.png"))
        try FixtureJPEG.data(picture, quality: 80).write(to: folder.file("photo.jpg"))
        let video = try VideoFixtures.movie(VideoFixtures.Spec(frameCount: 30, rate: 30, width: 64, height: 48, keyframeInterval: 10))
        try FileManager.default.copyItem(at: video, to: folder.file("clip.mp4"))
        try ProceduralSound.tone(frequency: 440, amplitude: 0.3, duration: 1).writeWAV(to: folder.file("tone.wav"), sampleFormat: .int16)
        try Data(FixtureGIF.data(width: StickerFixtures.side, height: StickerFixtures.side, frames: StickerFixtures.frames()))
            .write(to: folder.file("anim.gif"))
        try Data("1\n00:00:00,000 --> 00:00:00,400\nHello <i>there</i>\n\n2\n00:00:00,500 --> 00:00:00,900\nمرحبا\n".utf8)
            .write(to: folder.file("talk.srt"))
        try Data("LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n".utf8).write(to: folder.file("identity.cube"))
        try LottieFixture.movingSquare(width: 64, height: 48, frames: 10, side: 6, path: [.init(frame: 0, x: 8, y: 8), .init(frame: 10, x: 56, y: 40)])
            .write(to: folder.file("square.json"))
        try Data("not a picture, a film or a sound\n".utf8).write(to: folder.file("notes.txt"))
        try Data().write(to: folder.file("empty.mp4"))
        try FileManager.default.createDirectory(at: folder.file("folder.mp4"), withIntermediateDirectories: true)
    }
}

// MARK: - Crash and hang reports

/// Prints the mutants being tried when the process is about to die: a signal handler for traps and
/// faults (a Swift precondition failure is SIGILL or SIGTRAP), and a watchdog thread that stops the
/// run when one mutant takes longer than the hang limit.
final class FuzzGuard: @unchecked Sendable {
    // @unchecked: each worker writes only its own slot's report, read only by the signal handler and the
    // watchdog (a torn report is acceptable in a dying process); lengths and start times are atomic.
    /// The one guard (signal handlers are process-wide).
    static let shared = FuzzGuard()
    /// The signals a dying process gets: traps (Swift's precondition failures), aborts, faults.
    static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGBUS, SIGSEGV]
    /// The most workers (report slots).
    static let maximumWorkers = 8

    /// What one worker is trying.
    final class Slot: Sendable {
        /// How many bytes of a report are kept.
        static let capacity = 1 << 17
        /// The report of the mutant being tried, allocated once so the handler needs no allocation.
        nonisolated(unsafe) let report = UnsafeMutablePointer<UInt8>.allocate(capacity: Slot.capacity)
        /// The report's length in bytes.
        let length = Atomic<Int>(0)
        /// When the mutant being tried started (uptime nanoseconds), 0 when none is.
        let startedAt = Atomic<UInt64>(0)
    }
    /// One slot per worker.
    let slots = (0..<FuzzGuard.maximumWorkers).map { _ in Slot() }
    /// The handlers the signals had before `start`, restored by `stop` and by a dying process.
    let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: FuzzGuard.signals.count)
    /// Whether the watchdog runs.
    private let watching = Atomic<Bool>(false)

    /// Writes every slot's report to standard error (from the signal handler or the watchdog).
    func writeReports() {
        for slot in slots where slot.startedAt.load(ordering: .relaxed) != 0 {
            _ = write(2, slot.report, slot.length.load(ordering: .relaxed))
        }
    }

    /// Installs the signal handlers and starts the watchdog.
    func start(hangSeconds: Double, workers: Int) {
        for (i, number) in FuzzGuard.signals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Nothing allocated: a literal's bytes and the reports written before the mutants were tried.
                let header: StaticString = "\n*** the timeline fuzz test died (a trap or a fault) while trying the mutant(s) below:\n"
                _ = write(2, header.utf8Start, header.utf8CodeUnitCount)
                FuzzGuard.shared.writeReports()
                // Then whatever handled the signal before (the Swift runtime's backtracer) handles it again.
                if let i = FuzzGuard.signals.firstIndex(of: number) { sigaction(number, FuzzGuard.shared.previous + i, nil) }
                raise(number)
            }
            sigaction(number, &action, previous + i)
        }
        watching.store(true, ordering: .relaxed)
        let limit = UInt64(hangSeconds * 1e9)
        Thread.detachNewThread { [self] in
            while watching.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.5)
                let now = DispatchTime.now().uptimeNanoseconds
                for slot in slots {
                    let started = slot.startedAt.load(ordering: .relaxed)
                    guard started != 0, now > started, now - started > limit else { continue }
                    let header = "\n*** the timeline fuzz test hung: a mutant took longer than \(hangSeconds) s; the mutant(s) being tried:\n"
                    _ = header.withCString { write(2, $0, strlen($0)) }
                    writeReports()
                    // The abort prints them again, with the stacks.
                    abort()
                }
            }
        }
    }

    /// Notes the mutant `worker` is about to try: how to make it again, then its bytes.
    func trying(_ mutant: Mutant, index: Int, runSeed: UInt64, worker: Int) {
        let slot = slots[worker]
        slot.startedAt.store(0, ordering: .relaxed)
        let header = Array(mutant.header(index: index, runSeed: runSeed).utf8)
        var length = 0
        for part in [header, mutant.bytes, [0x0A]] {
            let n = min(part.count, Slot.capacity - length)
            part.withUnsafeBufferPointer { (slot.report + length).update(from: $0.baseAddress!, count: n) }
            length += n
        }
        slot.length.store(length, ordering: .relaxed)
        slot.startedAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    /// Notes that `worker` tries nothing.
    func idle(worker: Int) { slots[worker].startedAt.store(0, ordering: .relaxed) }

    /// Stops the watchdog and restores the signal handlers there were before.
    func stop() {
        for worker in slots.indices { idle(worker: worker) }
        watching.store(false, ordering: .relaxed)
        for (i, number) in FuzzGuard.signals.enumerated() { sigaction(number, previous + i, nil) }
    }
}

// MARK: - The mutator

/// The library's SplitMix64, with the helpers the mutator draws with: the same sequence on every machine.
struct FuzzRandom {
    /// The generator.
    private var generator: SplitMix64
    /// A generator starting from `seed`.
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    /// The next 64 random bits.
    mutating func next() -> UInt64 { generator.next() }
    /// A whole number in 0..<n (n > 0).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
    /// One element of a non-empty array.
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
    /// An index chosen with the given weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var r = below(weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }
}

/// One mutated description: its bytes, the JSON tree they are the canonical text of (nil when the
/// bytes themselves were mutated), and what was done to the seed.
struct Mutant {
    /// The seed it was made from (an index into `FuzzSeeds.all`).
    let seedIndex: Int
    /// The operations applied, in order.
    let operations: [String]
    /// The mutated tree, when the bytes are its canonical (or compact) text.
    let tree: JSONValue?
    /// The description file's bytes.
    let bytes: [UInt8]
    /// Whether it is composed as a preview (a quarter of the size).
    let preview: Bool

    /// How to make the mutant again and what was done to its seed.
    func header(index: Int, runSeed: UInt64) -> String {
        "mutant \(index) of run seed \(runSeed) (seed description \(seedIndex), preview \(preview)); replay with "
            + "MOVIEMAKER_FUZZ_SEED=\(runSeed) MOVIEMAKER_FUZZ_FIRST=\(index) MOVIEMAKER_FUZZ_COUNT=1\n"
            + "operations: \(operations.joined(separator: "; "))\n"
    }

    /// What to print about the mutant: `header`, then its text (base64 when it is not UTF-8).
    func report(index: Int, runSeed: UInt64) -> String {
        var text = header(index: index, runSeed: runSeed)
        if let utf8 = String(validating: bytes, as: UTF8.self) {
            text += utf8.count > 20_000 ? String(utf8.prefix(20_000)) + "\n… (\(bytes.count) bytes in all)" : utf8
        } else {
            text += "(not UTF-8; base64:) " + Data(bytes).base64EncodedString()
        }
        return text
    }
}

/// One step of a path into a JSON tree.
enum JSONStep: Hashable, CustomStringConvertible {
    /// An object's member.
    case key(String)
    /// An array's element.
    case index(Int)
    /// `.key` or `[3]`.
    var description: String {
        switch self {
        case let .key(k): return "." + k
        case let .index(i): return "[\(i)]"
        }
    }
}

extension JSONValue {
    /// How deeply arrays and objects nest (a scalar is 0).
    var depth: Int {
        switch self {
        case let .array(a): return 1 + (a.map(\.depth).max() ?? 0)
        case let .object(o): return 1 + (o.values.map(\.depth).max() ?? 0)
        default: return 0
        }
    }

    /// Every path in the tree, the root first, down to `maximumDepth` steps, members in sorted order.
    func paths(maximumDepth: Int = 48) -> [[JSONStep]] {
        var out: [[JSONStep]] = []
        /// Adds the path of `v` and those below it.
        func walk(_ v: JSONValue, _ path: [JSONStep]) {
            out.append(path)
            guard path.count < maximumDepth else { return }
            switch v {
            case let .object(o): for k in o.keys.sorted() { walk(o[k]!, path + [.key(k)]) }
            case let .array(a): for (i, e) in a.enumerated() { walk(e, path + [.index(i)]) }
            default: break
            }
        }
        walk(self, [])
        return out
    }

    /// The value at `path`, if there is one.
    func value(at path: ArraySlice<JSONStep>) -> JSONValue? {
        guard let first = path.first else { return self }
        switch (self, first) {
        case let (.object(o), .key(k)): return o[k]?.value(at: path.dropFirst())
        case let (.array(a), .index(i)) where a.indices.contains(i): return a[i].value(at: path.dropFirst())
        default: return nil
        }
    }

    /// Changes the value at `path` with `body` (nothing happens when there is no such value).
    mutating func update(at path: ArraySlice<JSONStep>, _ body: (inout JSONValue) -> Void) {
        guard let first = path.first else { body(&self); return }
        switch (self, first) {
        case (.object(var o), let .key(k)):
            guard var child = o[k] else { return }
            self = .null
            child.update(at: path.dropFirst(), body)
            o[k] = child
            self = .object(o)
        case (.array(var a), let .index(i)) where a.indices.contains(i):
            self = .null
            a[i].update(at: path.dropFirst(), body)
            self = .array(a)
        default:
            return
        }
    }
}

/// Mutates the seed descriptions: mutant `i` of a run depends only on the run's seed and `i`.
struct TimelineMutator {
    /// The seed descriptions, parsed.
    let seeds: [JSONValue]
    /// Every key the seeds use.
    let keys: [String]
    /// Every value under each key in the seeds (for splicing a valid value of another seed in).
    let valuesByKey: [String: [JSONValue]]
    /// Every array element in the seeds, by the array's key (items, tracks, photos, markers…).
    let elementsByKey: [String: [JSONValue]]

    /// Parses the seeds and indexes their keys and values.
    init() throws {
        seeds = try FuzzSeeds.all.map { try JSONValue(parsing: $0) }
        var keys = Set<String>(), values: [String: [JSONValue]] = [:], elements: [String: [JSONValue]] = [:]
        /// Notes the keys, values and array elements in `v`.
        func walk(_ v: JSONValue) {
            switch v {
            case let .object(o):
                for (k, child) in o.sorted(by: { $0.key < $1.key }) {
                    keys.insert(k)
                    values[k, default: []].append(child)
                    if case let .array(a) = child { elements[k, default: []] += a }
                    walk(child)
                }
            case let .array(a): a.forEach(walk)
            default: break
            }
        }
        seeds.forEach(walk)
        self.keys = keys.sorted()
        valuesByKey = values
        elementsByKey = elements
    }

    /// Mutant `index` of the run seeded `runSeed`.
    func mutant(_ index: Int, runSeed: UInt64) -> Mutant {
        var mixer = FuzzRandom(seed: runSeed ^ 0x7469_6D65_6C69_6E65)
        var rng = FuzzRandom(seed: mixer.next() &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        let seedIndex = rng.below(seeds.count)
        var tree = seeds[seedIndex]
        var operations: [String] = []
        // Mostly a few changes, so many mutants stay close to valid; now and then many.
        var count = 1
        while count < 12, rng.chance(0.35) { count += 1 }
        for _ in 0..<count { operations.append(mutate(&tree, &rng)) }
        let preview = rng.chance(0.5)
        var bytes = Array((rng.chance(0.8) ? tree.canonicalText : tree.compactText).utf8)
        guard rng.chance(0.2) else {
            return Mutant(seedIndex: seedIndex, operations: operations, tree: tree, bytes: bytes, preview: preview)
        }
        let byteCount = 1 + (rng.chance(0.3) ? rng.below(4) : 0)
        for _ in 0..<byteCount { operations.append(ByteMutations.apply(&bytes, &rng)) }
        return Mutant(seedIndex: seedIndex, operations: operations, tree: nil, bytes: bytes, preview: preview)
    }

    // MARK: Tree operations

    /// Applies one random change to `tree` and says what it was.
    func mutate(_ tree: inout JSONValue, _ rng: inout FuzzRandom) -> String {
        let paths = tree.paths()
        let path = rng.pick(paths)
        let shown = path.isEmpty ? "$" : path.map(\.description).joined()
        let key = FuzzValues.key(of: path, in: tree)
        switch rng.weighted([30, 10, 8, 6, 6, 5, 16, 6, 6, 3, 2, 2]) {
        case 0:   // a value that means something for this key: an edge case, another valid choice, nonsense
            let value = FuzzValues.interesting(for: key, current: tree.value(at: path[...]), &rng)
            tree.update(at: path[...]) { $0 = value }
            return "set \(shown) to \(value.compactText.prefix(80))"
        case 1:   // delete a member or element
            guard let last = path.last else { return mutate(&tree, &rng) }
            tree.update(at: path.dropLast()) { parent in
                switch (parent, last) {
                case (.object(var o), let .key(k)): o[k] = nil; parent = .object(o)
                case (.array(var a), let .index(i)): a.remove(at: i); parent = .array(a)
                default: break
                }
            }
            return "delete \(shown)"
        case 2:   // another type
            let value = FuzzValues.otherType(than: tree.value(at: path[...]) ?? .null, &rng)
            tree.update(at: path[...]) { $0 = value }
            return "retype \(shown) as \(value.compactText.prefix(80))"
        case 3:   // duplicate: an element again, or a member's value under another key
            guard let last = path.last, let value = tree.value(at: path[...]) else { return mutate(&tree, &rng) }
            let newKey = rng.pick(keys), position = rng.below(1_000)
            tree.update(at: path.dropLast()) { parent in
                switch (parent, last) {
                case (.object(var o), _): o[newKey] = value; parent = .object(o)
                case (.array(var a), .index): a.insert(value, at: position % (a.count + 1)); parent = .array(a)
                default: break
                }
            }
            return "duplicate \(shown) (as \(newKey) in an object)"
        case 4:   // rename a key
            guard case let .key(old)? = path.last, let value = tree.value(at: path[...]) else { return mutate(&tree, &rng) }
            let new = FuzzValues.renamed(old, keys: keys, &rng)
            tree.update(at: path.dropLast()) { parent in
                if case var .object(o) = parent { o[old] = nil; o[new] = value; parent = .object(o) }
            }
            return "rename \(shown) to \"\(new.prefix(40))\""
        case 5:   // swap two values
            let other = rng.pick(paths)
            guard !path.starts(with: other), !other.starts(with: path),
                  let a = tree.value(at: path[...]), let b = tree.value(at: other[...]) else { return mutate(&tree, &rng) }
            tree.update(at: path[...]) { $0 = b }
            tree.update(at: other[...]) { $0 = a }
            return "swap \(shown) and \(other.map(\.description).joined())"
        case 6:   // a value of another seed under the same key (often valid, in a new context)
            let current = tree.value(at: path[...])
            guard let candidates = valuesByKey[key ?? ""]?.filter({ $0 != current }), !candidates.isEmpty else { return mutate(&tree, &rng) }
            let value = rng.pick(candidates)
            tree.update(at: path[...]) { $0 = value }
            return "splice \(shown) from another seed"
        case 7:   // insert an element of a seed array of the same key (items, tracks, photos…)
            guard case let .array(a)? = tree.value(at: path[...]), case let .key(k)? = path.last,
                  let candidates = elementsByKey[k], !candidates.isEmpty else { return mutate(&tree, &rng) }
            let value = rng.pick(candidates)
            let at = rng.below(a.count + 1)
            tree.update(at: path[...]) { if case var .array(x) = $0 { x.insert(value, at: at); $0 = .array(x) } }
            return "insert a seed \(k) element at \(shown)[\(at)]"
        case 8:   // a number or time nudged
            let value = FuzzValues.nudged(tree.value(at: path[...]) ?? .null, &rng)
            tree.update(at: path[...]) { $0 = value }
            return "nudge \(shown) to \(value.compactText.prefix(80))"
        case 9:   // an unknown or misplaced key
            let newKey = rng.chance(0.5) ? rng.pick(keys) : FuzzValues.renamed(rng.pick(keys), keys: keys, &rng)
            let value = FuzzValues.interesting(for: newKey, current: nil, &rng)
            var added = false
            tree.update(at: path[...]) { if case var .object(o) = $0 { o[newKey] = value; $0 = .object(o); added = true } }
            return added ? "add \(newKey) = \(value.compactText.prefix(60)) to \(shown)" : mutate(&tree, &rng)
        case 10:  // deep nesting
            let depth = rng.pick([3, 40, 198, 199, 200, 201, 1_000])
            let wrapInArrays = rng.chance(0.5)
            tree.update(at: path[...]) { v in
                for _ in 0..<depth { v = wrapInArrays ? .array([v]) : .object(["k": v]) }
            }
            return "nest \(shown) \(depth) levels deep"
        default:  // a very long string
            let length = rng.pick([300, 5_000, 70_000])
            let unit = rng.pick(["a", "é", "🎬", "e\u{301}", " ", "{{name}}", "\\", "\"", "\u{202E}", "W", "\n", "ٱ"])
            let value = JSONValue.string(String(repeating: unit, count: length / unit.utf8.count))
            tree.update(at: path[...]) { $0 = value }
            return "set \(shown) to a string of \(length) bytes of \(unit.debugDescription)"
        }
    }
}

/// The values mutations draw from: edge cases by kind of field, valid alternatives, nonsense.
enum FuzzValues {
    /// Keys whose values are times.
    static let timeKeys: Set<String> = ["duration", "in", "at", "entranceDuration", "fadeIn", "fadeOut", "attack", "release", "hold"]
    /// Keys whose values are colours.
    static let colorKeys: Set<String> = ["color", "background"]
    /// Keys whose values are text.
    static let textKeys: Set<String> = ["text", "subtitle", "body", "label", "title", "description", "comment", "font", "$schema"]

    /// Numbers at and beyond every edge (all valid JSON number texts).
    static let numbers = [
        "0", "-0", "1", "-1", "2", "0.5", "0.25", "4", "4.0000001", "0.2499999", "16", "17", "51", "52", "240", "241", "1000", "1001",
        "-5", "-70", "-71", "86400", "86401", "86400.000001", "1e308", "-1e308", "1e-300", "4.9e-324", "1.7976931348623157e308",
        "1e400", "-1e400", "1e39", "1e40", "1e-39", "1e-40", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "99999999999999999999", "123456789012345678901234567890", "1E2", "0.000000000000000000000000001",
        "1e-9223372036854775808", "1e9223372036854775807", "2147483647", "2147483648", "32000", "512001", "0.1", "2.5", "30", "12.5",
    ]
    /// Times: odd forms, edges, exact fractions whose sums grow large denominators.
    static let times = [
        "-1s", "NaNs", "1/0s", "0/0s", "90.5f", "99999999999999999999f", "s", "", "f", "ms", "0s", "0f", "-0s", "-0f", "1e400s", "1e-400s",
        " 1 s ", "1ms", "0.001ms", "86400s", "86401s", "86400000ms", "86400001ms", "20736000f", "20736001f", "+5f", "-5f", "5 f", "1/3s",
        "1001/30000s", "2/3s", "1/7s", "1/11s", "1/13s", "9223372036854775807/9223372036854775806s", "1/9223372036854775807s",
        "863999999999999999/10000000000007s", "1e-9223372036854775808s", "1e9223372036854775807s", "0x10s", "∞s", "1,5s", "1.5",
        "1.5 sec", "Infinitys", "1/-2s", "--1s", "1e39s", "1e-39s", "0.1e1s", ".5s", "5.s", "1/0.5s", "0.5/0.25s", "١s", "1f", "2f",
        "0.04s", "0.3s", "1s", "2s", "10s", "3f", "1/1000000007s", "1/999999937s", "7/1000000009s", "5e-324s", "1e-30s", "0.000001s",
    ]
    /// Frame sizes.
    static let sizes = [
        "8192x8192", "0x0", "3x3", "16x16", "18x16", "17x16", "16x4320", "8192x16", "8194x16", "64×48", "64X48", "-64x48", "64x",
        "x48", "64x48x2", "99999999999999999999x2", " 64x48", "６４x48", "1x1", "128x128", "130x130", "20x20", "64x48", "32x32",
        "9223372036854775807x9223372036854775807", "4096x4096", "7680x4320", "",
    ]
    /// Frame rates, numbers and strings.
    static let rates: [JSONValue] = [
        .number("0"), .number("1000"), .string("30000/0"), .string("30000/1001"), .string("1/1"), .number("240"), .number("241"),
        .string("1/2"), .number("0.5"), .number("24.000"), .number("1e2"), .string("2147483647/8947848"), .number("2147483648"),
        .number("-30"), .string("30/-1"), .string("1e-9223372036854775808"), .number("1"), .number("12.5"), .string("25/2"),
        .string("240/1.0000001"), .string(""), .string("NaN"), .number("29.97"), .string("1e2/1e1"), .number("1e-9223372036854775808"),
    ]
    /// Names that are valid somewhere, and names that are nowhere.
    static let names: [String] = Array(([
        Transition.knownNames, ["crossfade", "pushleft", "pushdown"], Easing.allNames,
        Slideshow.Fit.allCases.map(\.rawValue), Timeline.Slot.Fit.allCases.map(\.rawValue), Timeline.TitleStyle.allCases.map(\.rawValue),
        Edge.allCases.map(\.rawValue), TitleCard.Layout.allCases.map(\.rawValue), Slideshow.Captions.allCases.map(\.rawValue),
        Slideshow.KenBurns.Direction.allCases.map(\.rawValue), EncoderPreset.allCases.map(\.rawValue),
        Timeline.Track.Kind.allCases.map(\.rawValue), Timeline.Slot.Kind.allCases.map(\.rawValue), Timeline.Content.typeNames,
        GeneratorRegistry.builtIn,
        ["fadee", "FADE", "", " ", "custom", "pixelize", "hblur", "wipeleft ", "none", "zoom", "stretch", "bottomleft", "fullscreen",
         "ease-in-out.reversed", "steps(0)", "steps(-1)", "steps(9223372036854775807, jump-both)", "steps(9223372036854775807)",
         "steps(2, jump-none)", "steps(1, jump-none)", "spring(1, 100, 10)", "spring(0, 0, 0)", "spring(1e-300, 1e300, 1e-300)",
         "spring(1e300, 1e-300, 1e300, 1e300)", "spring(1, 1e308, 1e-308)", "cubic-bezier(0, 1e308, 1, -1e308)", "cubic-bezier(2, 0, 0, 1)",
         "cubic-bezier(0.2, 0, 0, 1)", "linear.then(linear.then(linear))", "quadIn.squished(into: 0.2…0.8)",
         "quadIn.squished(into: 1e308...1e308)", "quadIn.squished(into: 0.8…0.2)", "quadIn.then(bounceOut, at: 1e308)",
         "quadIn.then(bounceOut, at: -1)", "((((", "))", "a.b.c.d", "hold.mirrored.reversed", "elasticInOut.mirrored",
         "spring(1, 100, 10).then(steps(3), at: 0.5)", "nonexistent", "ffmpeg", "rainbow", "audio2"],
    ] as [[String]]).joined())
    /// Colours: CSS forms, edges, slot references.
    static let colors = [
        "#ff8000", "tomato", "rgb(255, 128, 0)", "hsl(120, 50%, 50%)", "none", "transparent", "#fff", "#ffff", "#ff800080", "#gggggg",
        "rgb(999, -1, 1e308)", "hsl(NaN, 0%, 0%)", "{{accent}}", "{{name}}", "{{missing}}", "{{}}", "{{ accent }}", "rgba(0,0,0,2)",
        "", "#", "rgb(", "black", "WHITE", "rgb(1e400, 0, 0)", "hsl(1e308, 1e308%, 1e308%)", "#12345678901",
    ]
    /// Texts: placeholders, scripts, control characters.
    static let texts = [
        "{{name}}", "{{unknown}}", "{{", "}}{{", "{{{{name}}}}", "{{accent}}", "{{song}}", "{{clip1}}", "🎬 Lisbon", "مرحبا بالعالم",
        "e\u{301}\u{301}\u{301}", "\u{0}", "a\nb\nc\n\n\n", "", " ", "<b>markup</b> & <i>", "\u{202E}abc", "\u{FEFF}", "%@ %s %n",
        "{{ name }} {{place}}", "{{name}}{{name}}{{name}}", "Ana", "DejaVu Sans", "No Such Font Family", "Monospace 99",
    ]
    /// File paths: the fixtures, files of the wrong kind, nothing there, odd paths.
    static let files = [
        "clip.mp4", "photo.png", "photo.jpg", "tone.wav", "notes.txt", "empty.mp4", "folder.mp4", "missing.mp4", "", " ", "/", ".", "..",
        "/dev/null", "./clip.mp4", "clip.mp4/", "file:///nonexistent.mp4", "file:clip.mp4", "http://example.com/a.mp4", "a\u{0}b.mp4",
        String(repeating: "d/", count: 3_000) + "a.mp4", "../../../../../../../../etc/hostname", "CLIP.MP4", "clip.mp4 ",
    ]
    /// Slot names: declared ones of every kind, and missing or malformed ones.
    static let slotNames = ["clip1", "clip2", "clip3", "still", "pic", "name", "place", "accent", "song", "missing", "", " clip1", "1abc", "a b", "ÿ"]
    /// Speeds.
    static let speeds: [JSONValue] = [
        .number("0.25"), .number("4"), .number("0.2499"), .number("4.0001"), .number("0"), .number("-1"), .string("2/3"), .string("1/0"),
        .string("1/4"), .string("4/1"), .string("9223372036854775807/9223372036854775806"), .string("1/3"), .string("0.5"), .number("1e-300"),
        .string("7/9"), .number("1.5"),
    ]
    /// Volumes.
    static let volumes: [JSONValue] = [
        .number("0"), .number("16"), .number("16.01"), .number("-0.1"), .string("-6dB"), .string("24dB"), .string("24.1dB"),
        .string("-100dB"), .string("-101dB"), .string("dB"), .string("NaNdB"), .string("1e308dB"), .string("+3 dB"), .string("-6db"),
        .string("--6dB"), .number("1e-300"), .number("0.5"),
    ]

    /// The key a value sits under: its own key, or for an array element the array's key.
    static func key(of path: [JSONStep], in tree: JSONValue) -> String? {
        for step in path.reversed() { if case let .key(k) = step { return k } }
        return nil
    }

    /// A value that means something where `key` is: an edge of what it takes, a valid alternative, nonsense.
    static func interesting(for key: String?, current: JSONValue?, _ rng: inout FuzzRandom) -> JSONValue {
        if rng.chance(0.15) { return otherType(than: current ?? .null, &rng) }
        switch key ?? "" {
        case let k where timeKeys.contains(k):
            return rng.chance(0.8) ? .string(rng.pick(times)) : .number(rng.pick(numbers))
        case "size": return .string(rng.pick(sizes))
        case "fps": return rng.pick(rates)
        case "speed": return rng.pick(speeds)
        case "volume": return rng.pick(volumes)
        case "file", "thumbnail": return .string(rng.pick(files))
        case "slot": return .string(rng.pick(slotNames))
        case "default":
            return rng.chance(0.5) ? .object(["file": .string(rng.pick(files))]) : .string(rng.pick(rng.chance(0.5) ? colors : texts))
        case "version": return rng.pick([.number("1"), .number("0"), .number("2"), .string("1"), .number("1.0"), .number("-1"), .number("1e308"), .number("1e0")])
        case "colors": return .array((0..<rng.below(4)).map { _ in .string(rng.pick(colors)) })
        case "from", "to":
            if rng.chance(0.5) { return .string(rng.pick(names)) }
            return .object(["x": .number(rng.pick(numbers)), "y": .number(rng.pick(numbers)), "width": .number(rng.pick(numbers)),
                            "height": .number(rng.pick(numbers))])
        case "kenBurns":
            return rng.pick([.bool(true), .bool(false), .object(["zoom": .number(rng.pick(numbers))]),
                             .object(["seed": .number(rng.pick(numbers)), "direction": .string(rng.pick(names))]), .null])
        case let k where colorKeys.contains(k): return .string(rng.pick(colors))
        case let k where textKeys.contains(k): return .string(rng.pick(texts))
        case "name", "easing", "style", "exitStyle", "fit", "layout", "captions", "direction", "preset", "kind", "type":
            return .string(rng.pick(names))
        default:
            switch current {
            case .number?: return .number(rng.pick(numbers))
            case .string?: return .string(rng.pick(rng.pick([names, texts, times, colors])))
            case .bool?: return .bool(rng.chance(0.5))
            default: return rng.chance(0.5) ? .number(rng.pick(numbers)) : .string(rng.pick(names))
            }
        }
    }

    /// A value of another JSON type, made from `value` where it can be.
    static func otherType(than value: JSONValue, _ rng: inout FuzzRandom) -> JSONValue {
        let options: [JSONValue]
        switch value {
        case let .number(t): options = [.string(t), .string(t + "s"), .bool(t != "0"), .null, .array([value]), .object(["value": value])]
        case let .string(s):
            options = [.number(s.isEmpty || Double(s) == nil ? "0" : (s.contains(where: { !"0123456789.eE+-".contains($0) }) ? "1" : s)),
                       .bool(!s.isEmpty), .null, .array([value]), .object([s: value])]
        case let .bool(b): options = [.number(b ? "1" : "0"), .string(b ? "true" : "false"), .null, .array([value])]
        case .null: options = [.number("0"), .string("null"), .bool(false), .array([]), .object([:])]
        case let .array(a): options = [.object(Dictionary(uniqueKeysWithValues: a.enumerated().map { ("\($0.offset)", $0.element) })),
                                       a.first ?? .null, .string("[]"), .number("\(a.count)"), .null]
        case let .object(o): options = [.array(o.keys.sorted().map { o[$0]! }), .string("{}"), .null, .bool(true), .number("\(o.count)")]
        }
        return rng.pick(options)
    }

    /// `old` renamed: another known key, a near miss, or something odd.
    static func renamed(_ old: String, keys: [String], _ rng: inout FuzzRandom) -> String {
        switch rng.below(6) {
        case 0: return rng.pick(keys)
        case 1: return old.uppercased()
        case 2: return old.isEmpty ? "x" : String(old.dropLast())
        case 3: return old + rng.pick(["s", "_", " ", "\u{0}", "2"])
        case 4: return String(old.reversed())
        default: return rng.pick(["", " ", "__proto__", "$ref", "ключ", "🎬", "a\"b", "\\", "\u{FEFF}version", "version ", "Version"])
        }
    }

    /// A number or time moved a little or a lot (other values get an interesting scalar).
    static func nudged(_ value: JSONValue, _ rng: inout FuzzRandom) -> JSONValue {
        switch value {
        case let .number(t):
            guard let d = Double(t) else { return value }
            let factor = rng.pick([-1.0, 0.5, 2.0, 10.0, 1000.0, 1.0 / 3.0, 1e-6])
            return JSONValue.double(d * factor + rng.pick([0.0, 1.0, -1.0, 0.001])) ?? .number("0")
        case let .string(s) where s.hasSuffix("s") || s.hasSuffix("f"):
            let unit = s.hasSuffix("ms") ? "ms" : String(s.last!)
            let digits = s.dropLast(unit.count)
            return .string(rng.pick(["\(digits)0", "\(digits)\(digits)", "-\(digits)", "\(digits).5", "\(digits)/3", "\(digits)/7",
                                     "\(digits)e3", "\(digits)e-3"]) + rng.pick([unit, "s", "f", "ms"]))
        default:
            return interesting(for: nil, current: value, &rng)
        }
    }
}

/// Mutations of the raw bytes: bit flips, truncation, tokens JSON does not have, byte order marks,
/// invalid UTF-8, repeated keys.
enum ByteMutations {
    /// Tokens and byte sequences inserted into the text.
    static let insertions: [[UInt8]] = [
        Array("NaN".utf8), Array("Infinity".utf8), Array("-Infinity".utf8), [0xEF, 0xBB, 0xBF], [0xFF], [0xFE, 0xFF], [0xC0, 0x80],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], Array("\\ud800".utf8),
        Array("\\udc00".utf8), Array("\\ud800\\u0041".utf8), Array("\\u0000".utf8), Array("\\uZZZZ".utf8), Array("\\x41".utf8),
        Array("//comment\n".utf8), Array("/*c*/".utf8), Array(",".utf8), Array("]".utf8), Array("}".utf8), Array("{".utf8),
        Array("[".utf8), Array("\"".utf8), Array("1e999999".utf8), Array("-".utf8), Array("0123".utf8), Array("tru".utf8),
        Array("nul".utf8), [0x09], [0x0D, 0x0A], [0x00], [0x0B], [0x0C], Array("\u{2028}".utf8), Array("\u{A0}".utf8), Array(",,".utf8),
        Array("1.".utf8), Array(".5".utf8), Array("+1".utf8), Array("0x1F".utf8), Array("'a'".utf8), Array("\"\":".utf8),
    ]
    /// Bytes written over others.
    static let interestingBytes: [UInt8] = [0x00, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x80, 0xBF, 0xC0, 0xFF, 0xFE, 0x0A, 0x20, 0x09, 0x0D, 0x7F, 0x2D, 0x30, 0x65]

    /// Applies one random change to `bytes` and says what it was.
    static func apply(_ bytes: inout [UInt8], _ rng: inout FuzzRandom) -> String {
        guard !bytes.isEmpty else { bytes = rng.pick(insertions); return "bytes: replace nothing with a token" }
        let at = rng.below(bytes.count)
        switch rng.below(10) {
        case 0:
            let bit = rng.below(8)
            bytes[at] ^= 1 << UInt8(bit)
            return "bytes: flip bit \(bit) of byte \(at)"
        case 1:
            bytes[at] = rng.pick(interestingBytes)
            return "bytes: set byte \(at) to 0x\(String(bytes[at], radix: 16))"
        case 2:
            bytes.removeSubrange(at...)
            return "bytes: truncate at \(at)"
        case 3:
            let token = rng.pick(insertions)
            bytes.insert(contentsOf: token, at: at)
            return "bytes: insert \(String(decoding: token, as: UTF8.self).debugDescription) at \(at)"
        case 4:
            // A number token replaced by a non-number.
            guard let start = bytes.indices.first(where: { $0 >= at && (0x30...0x39).contains(bytes[$0]) && $0 > 0 && [0x20, 0x3A, 0x5B, 0x2C].contains(bytes[$0 - 1]) }) else {
                bytes.insert(contentsOf: Array("NaN".utf8), at: at); return "bytes: insert NaN at \(at)"
            }
            var end = start
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) || [0x2E, 0x65, 0x45, 0x2B, 0x2D].contains(bytes[end]) { end += 1 }
            let token = rng.pick(["NaN", "Infinity", "-Infinity", "1e99999", "00", "0x10", "1_000"])
            bytes.replaceSubrange(start..<end, with: Array(token.utf8))
            return "bytes: number at \(start) becomes \(token)"
        case 5:
            // A line repeated: in canonical text, a key given twice.
            let lineStart = bytes[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            let lineEnd = bytes[at...].firstIndex(of: 0x0A) ?? bytes.count
            var line = Array(bytes[lineStart..<lineEnd])
            if line.last != 0x2C { line.append(0x2C) }
            bytes.insert(contentsOf: line + [0x0A], at: lineStart)
            return "bytes: repeat the line at \(lineStart)"
        case 6:
            let end = min(bytes.count, at + 1 + rng.below(64))
            bytes.removeSubrange(at..<end)
            return "bytes: delete \(at)..<\(end)"
        case 7:
            let end = min(bytes.count, at + 1 + rng.below(256))
            let slice = Array(bytes[at..<end])
            bytes.insert(contentsOf: slice, at: rng.below(bytes.count + 1))
            return "bytes: copy \(at)..<\(end) elsewhere"
        case 8:
            // Invalid UTF-8 inside a string.
            let quote = bytes[at...].firstIndex(of: 0x22) ?? at
            let token = rng.pick([[0xFF], [0xC3], [0xC0, 0xAF], [0xED, 0xB0, 0x80], [0xF0, 0x9F, 0x8E], [0x80, 0x80]] as [[UInt8]])
            bytes.insert(contentsOf: token, at: min(quote + 1, bytes.count))
            return "bytes: invalid UTF-8 after the quote at \(quote)"
        default:
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            bytes.insert(contentsOf: rng.chance(0.5) ? bom : bom + bom, at: rng.chance(0.7) ? 0 : at)
            return "bytes: byte order mark"
        }
    }
}

// MARK: - Seeds

/// Valid descriptions between them using every item type, track kind, transition form, template slot
/// kind and fit, and output setting; small (64×48, about a second or a few) so their mutants render quickly.
enum FuzzSeeds {
    /// The seed descriptions' text.
    static let all = [videoEdits, photosAndTitles, slideshowGeneratorsAndSound, template, colorsAndTitles, minimal, pictureEditing, narration]

    /// A narration: scenes timed by its bookmark and end, its captions and audiogram, music ducking under it.
    static let narration = #"""
    {
      "version": 1,
      "output": {"size": "64x48", "fps": 15, "audio": {"loudness": -16}},
      "tracks": [
        {"kind": "video", "items": [
          {"type": "color", "color": "navy", "duration": {"mark": "n1#next"}, "transition": {"name": "fade", "duration": "2f"}},
          {"type": "title", "text": "Next", "duration": {"until": "n1"}}
        ]},
        {"kind": "overlay", "items": [
          {"type": "captions", "narration": "n1", "style": "pop", "wordsPerPage": 2},
          {"type": "color", "color": "red", "at": "0.2s", "duration": {"mark": "n1#next"}, "transform": {"scale": 0.2}},
          {"type": "audiogram", "narration": "n1", "style": "circle", "bars": 12, "at": "0.3s", "release": "0.1s"},
          {"type": "audiogram", "source": {"file": "tone.wav"}, "in": "0.1s", "style": "waveform", "shape": "line", "duration": "0.5s",
           "color": "yellow", "trackColor": "navy", "gap": 0, "frequencies": [100, 5000], "floor": -50, "attack": "2f",
           "area": {"x": 0.1, "y": 0.5, "width": 0.8, "height": 0.3}}
        ]},
        {"kind": "audio", "items": [
          {"type": "music", "source": {"file": "tone.wav"}, "duration": {"until": "n1"}},
          {"type": "narration", "id": "n1", "text": "Hi there. <mark name=\"next\"/> Bye.", "voice": "en-gb", "rate": 300, "pitch": 60, "volume": 0.9, "at": "0.1s"}
        ]}
      ]
    }
    """#

    /// Filters, transforms, masks, split screens, stickers, subtitles and a blurred background.
    static let pictureEditing = #"""
    {
      "version": 1,
      "output": {"size": "64x48", "fps": 24, "background": "blur"},
      "tracks": [
        {"kind": "video", "items": [
          {"type": "photo", "source": {"file": "photo.png"}, "duration": "0.5s", "fit": "fit",
           "filters": [{"name": "lut", "file": "identity.cube", "interpolation": "trilinear"}, {"name": "vignette", "amount": 0.5},
                       {"name": "grain", "amount": 0.05, "seed": 2}, {"name": "brightness", "amount": [{"at": "0s", "value": -0.2}, {"at": "0.5s", "value": 0.1, "easing": "ease-out"}]}],
           "transform": {"position": [{"at": "0s", "value": [20, 20]}, {"at": "0.5s", "value": [40, 30]}], "scale": 0.8, "rotation": 30,
                         "opacity": 0.9, "flip": "horizontal", "crop": {"x": 0.1, "y": 0, "width": 0.8, "height": 1}, "cornerRadius": 4, "blend": "screen"},
           "transition": {"name": "fade", "duration": "0.1s"}},
          {"type": "split", "layout": "2x2", "gutter": 2, "borderWidth": 1, "borderColor": "white", "cornerRadius": 3, "fits": ["fill", "fit", "stretch", "center"],
           "cells": [{"type": "video", "source": {"file": "clip.mp4"}, "duration": "0.5s", "filters": [{"name": "look", "look": "noir"}],
                      "removeSilence": {"threshold": "-30dB", "min": "0.2s", "keep": "0.05s"}},
                     {"type": "color", "color": "teal", "duration": "0.4s", "at": "0.1s"},
                     {"type": "photo", "source": {"file": "photo.jpg"}, "duration": "0.5s"},
                     {"type": "title", "text": "Cell", "duration": "0.5s"}]},
          {"type": "split", "layout": "pip", "corner": "topLeft", "size": 0.3, "margin": 3, "duration": "0.5s",
           "cells": [{"type": "color", "color": "navy", "duration": "0.5s", "mask": {"mode": "luma", "item": {"type": "photo", "source": {"file": "photo.png"}, "duration": "0.5s"}}},
                     {"type": "video", "source": {"file": "clip.mp4"}, "duration": "0.5s", "reframe": {"aspect": "1:1"}}]}
        ]},
        {"kind": "overlay", "items": [
          {"type": "sticker", "source": {"file": "anim.gif"}, "at": "0.1s", "duration": "0.8s", "width": 16, "enter": "pop", "exit": "slide-left",
           "transform": {"position": [10, 10]}},
          {"type": "sticker", "emoji": "⭐", "at": "0.5s", "duration": "0.5s", "width": 12, "loop": false, "enter": "fade"},
          {"type": "subtitles", "file": "talk.srt", "style": "box", "size": 0.1, "color": "yellow"},
          {"type": "chart", "kind": "counter", "from": 10, "to": 2500, "decimals": 1, "prefix": "$", "locale": "fr_FR", "at": "0.2s", "duration": "0.6s", "fontSize": 40},
          {"type": "chart", "kind": "barRace", "data": [["name", "a", "b", "c"], ["x", 1, 5, 2], ["y", 3, 2, 4.5]], "title": "Race", "colors": ["red", "#00ff00"], "at": "0.1s", "duration": "0.6s"},
          {"type": "lottie", "source": {"file": "square.json"}, "colors": {"bg": "navy"}, "speed": 2, "loop": false, "fit": "fill", "at": "0.3s", "duration": "0.5s"},
          {"type": "captions", "source": {"file": "talk.srt"}, "style": "karaoke", "at": "0.1s", "fontSize": 0.12, "highlightBackground": "purple",
           "outlineColor": "none", "position": [0.5, 0.3], "wordsPerPage": 3, "pauseBreak": "0.2s", "hold": "3f", "uppercase": true, "weight": "heavy"}
        ]}
      ]
    }
    """#

    /// Video items: trims, speeds, reverse, freeze, fits, volumes; transitions; markers and metadata.
    static let videoEdits = #"""
    {
      "$schema": "https://moviemaker.dev/schema/timeline-1.schema.json",
      "version": 1,
      "output": {"size": "64x48", "fps": 30, "background": "#102030",
                 "encoder": {"crf": 30, "preset": "ultrafast", "keyframeInterval": 30}},
      "tracks": [
        {"kind": "video", "name": "main", "items": [
          {"type": "video", "source": {"file": "clip.mp4"}, "in": "0.2s", "duration": "0.5s", "speed": 1, "fit": "fit",
           "background": "black", "volume": 0.8, "transition": {"name": "fade", "duration": "0.2s", "easing": "ease-in-out"}},
          {"type": "video", "source": {"file": "clip.mp4"}, "in": "3f", "duration": "10f", "speed": "2/3", "reverse": true,
           "fit": "fill", "volume": "-6dB", "transition": {"name": "wipeleft", "duration": "4f"}},
          {"type": "video", "source": {"file": "clip.mp4"}, "in": 0.5, "duration": "0.3s", "freeze": true, "fit": "blur",
           "transition": {"name": "pushleft", "duration": "0.1s", "easing": "steps(3)"}},
          {"type": "video", "source": {"file": "clip.mp4"}, "speed": 4, "volume": 0, "label": "fast"}
        ]}
      ],
      "markers": [{"name": "start", "at": "0s"}, {"name": "cut", "at": "0.5s", "duration": "2f", "color": "RED", "comment": "first cut"}],
      "metadata": {"author": "fuzz", "n": 1.50, "nested": {"list": [1, "a", null, true]}}
    }
    """#

    /// Photos with every Ken Burns form, a colour, titles on an overlay track.
    static let photosAndTitles = #"""
    {
      "version": 1,
      "output": {"size": "64x48", "fps": "25/2", "duration": "2s"},
      "tracks": [
        {"kind": "video", "items": [
          {"type": "photo", "source": {"file": "photo.png"}, "duration": "0.5s", "fit": "fit", "background": "tomato", "kenBurns": true,
           "transition": {"name": "dissolve", "duration": "0.2s"}},
          {"type": "photo", "source": {"file": "photo.jpg"}, "duration": "0.5s", "kenBurns": {"zoom": 0.3, "pan": 0.1, "direction": "in", "seed": 7}},
          {"type": "photo", "source": {"file": "photo.png"}, "duration": "6f", "fit": "blur",
           "kenBurns": {"from": {"x": 0, "y": 0, "width": 1, "height": 1}, "to": {"x": 0.25, "y": 0.25, "width": 0.5, "height": 0.5}}},
          {"type": "photo", "source": {"file": "photo.png"}, "duration": "0.2s", "kenBurns": false},
          {"type": "color", "color": "rgb(10, 200, 30)", "duration": "0.3s"}
        ]},
        {"kind": "overlay", "items": [
          {"type": "title", "text": "Hello", "subtitle": "sub", "body": "body text", "at": "0.1s", "duration": "1s", "style": "slide",
           "from": "left", "easing": "cubic-bezier(0.2, 0, 0, 1)", "entranceDuration": "0.3s", "exitStyle": "typewriter",
           "layout": "lowerThird", "color": "white", "background": "none", "font": "DejaVu Sans", "fontSize": 40},
          {"type": "title", "text": "Pop", "at": "1s", "duration": "0.5s", "style": "pop", "easing": "quadIn.then(bounceOut, at: 0.4)",
           "background": "#00000080", "markers": [{"name": "pop", "at": "0.1s"}], "metadata": {"id": 7}}
        ]}
      ]
    }
    """#

    /// A slideshow, a gap, both generators, music and a sound with every setting, loudness and ducking.
    static let slideshowGeneratorsAndSound = #"""
    {
      "version": 1,
      "output": {"size": "64x48", "fps": 24,
                 "audio": {"loudness": -16, "bitrate": 128000, "ducking": {"depth": 10, "attack": "50ms", "release": "0.3s", "hold": "100ms"}}},
      "tracks": [
        {"kind": "video", "items": [
          {"type": "slideshow", "photos": [{"file": "photo.png"}, {"file": "photo.jpg"}], "duration": "0.5s", "fit": "fit",
           "background": "navy", "photoTransition": {"name": "slideleft", "duration": "0.2s"}, "kenBurns": {"zoom": 0.1},
           "captions": "filename", "transition": {"name": "circleopen", "duration": "0.25s", "easing": "spring(1, 100, 10)"}},
          {"type": "gap", "duration": "0.25s"},
          {"type": "generator", "name": "gradient", "params": {"colors": ["#ff0000", "#0000ff"], "angle": 45, "rotation": 90}, "duration": "0.5s"}
        ]},
        {"kind": "overlay", "enabled": true, "items": [
          {"type": "generator", "name": "confetti", "params": {"count": 20, "colors": ["gold", "teal"], "seed": 3, "speed": 2, "size": 1.5},
           "at": "0.2s", "duration": "0.6s", "label": "party"}
        ]},
        {"kind": "audio", "name": "sound", "items": [
          {"type": "music", "source": {"file": "tone.wav"}, "volume": 0.5, "fadeIn": "0.2s", "fadeOut": "0.3s", "loop": true, "ducking": true},
          {"type": "audio", "source": {"file": "tone.wav"}, "at": "0.3s", "in": "0.1s", "duration": "0.4s", "volume": "-3dB",
           "fadeIn": "10ms", "fadeOut": "20ms", "loop": false, "ducking": false}
        ]}
      ]
    }
    """#

    /// A template: slots of every kind and every fit, `{{slot}}` text and colour.
    static let template = #"""
    {
      "version": 1,
      "template": {"title": "Fuzz template", "description": "every slot kind", "thumbnail": "photo.png"},
      "slots": {
        "clip1": {"kind": "video", "description": "a clip", "default": {"file": "clip.mp4"}, "fit": "speedToFit"},
        "clip2": {"kind": "video", "default": {"file": "clip.mp4"}, "fit": "loop"},
        "clip3": {"kind": "media", "default": {"file": "clip.mp4"}, "fit": "freezeLast"},
        "clip4": {"kind": "video", "default": {"file": "clip.mp4"}, "fit": "center"},
        "clip5": {"kind": "video", "default": {"file": "clip.mp4"}, "fit": "cutHead"},
        "clip6": {"kind": "video", "default": {"file": "clip.mp4"}, "fit": "cutTail"},
        "still": {"kind": "photo", "default": {"file": "photo.png"}},
        "pic": {"kind": "media", "default": {"file": "photo.jpg"}},
        "name": {"kind": "text", "default": "Ana"},
        "place": {"kind": "text", "default": "Lisbon"},
        "accent": {"kind": "color", "default": "#ff8000"},
        "song": {"kind": "audio", "default": {"file": "tone.wav"}}
      },
      "output": {"size": "64x48", "fps": "30000/1001"},
      "tracks": [
        {"kind": "video", "items": [
          {"type": "title", "text": "{{name}} in {{place}}", "subtitle": "{{ place }}", "duration": "0.5s", "color": "{{accent}}", "style": "letters"},
          {"type": "video", "source": {"slot": "clip1"}, "duration": "2s"},
          {"type": "video", "source": {"slot": "clip2"}, "duration": "1.5s"},
          {"type": "video", "source": {"slot": "clip3"}, "duration": "1.2s"},
          {"type": "video", "source": {"slot": "clip4"}, "duration": "0.4s"},
          {"type": "video", "source": {"slot": "clip5"}, "duration": "0.4s"},
          {"type": "video", "source": {"slot": "clip6"}, "duration": "0.4s"},
          {"type": "video", "source": {"slot": "pic"}, "duration": "0.3s"},
          {"type": "photo", "source": {"slot": "still"}, "duration": "0.3s"},
          {"type": "slideshow", "photos": [{"slot": "still"}], "duration": "0.3s", "kenBurns": false}
        ]},
        {"kind": "audio", "items": [{"type": "music", "source": {"slot": "song"}}]}
      ]
    }
    """#

    /// Colours and titles with the other styles, easings and transitions; disabled items and tracks; markers everywhere.
    static let colorsAndTitles = #"""
    {
      "version": 1,
      "output": {"size": "32x32", "fps": 60, "background": "hsl(200, 50%, 20%)", "duration": "1.5s"},
      "tracks": [
        {"kind": "video", "markers": [{"name": "track", "at": "1f"}], "metadata": {"editor": "fuzz"}, "items": [
          {"type": "color", "color": "teal", "duration": "0.3s", "transition": {"name": "crossfade", "duration": "0.1s", "easing": "elasticOut"}},
          {"type": "title", "text": "Words here", "duration": "0.4s", "style": "words", "exitStyle": "blur", "layout": "fullScreen",
           "transition": {"name": "circleclose", "duration": "3f", "easing": "quadIn.reversed"}},
          {"type": "title", "text": "Type", "duration": "0.4s", "style": "typewriter", "exitStyle": "none", "background": "maroon",
           "enabled": false, "transition": {"name": "zoomout"}},
          {"type": "title", "text": "Blur", "duration": "0.3s", "style": "blur", "from": "top", "easing": "hold", "entranceDuration": "2f",
           "markers": [{"name": "inside", "at": "1f", "duration": "1f"}]},
          {"type": "gap", "duration": "3f", "label": "breath"}
        ]},
        {"kind": "overlay", "enabled": false, "items": [{"type": "color", "color": "red", "duration": "1s"}]},
        {"kind": "overlay", "items": [{"type": "title", "text": "None", "style": "none", "duration": "0.5s", "at": "0.5s"}]}
      ]
    }
    """#

    /// The least a description needs (default size and rate).
    static let minimal = #"""
    {"version": 1, "tracks": [{"kind": "video", "items": [{"type": "color", "color": "red", "duration": "1f"}]}]}
    """#
}
