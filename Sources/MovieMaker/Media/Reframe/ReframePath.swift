import Foundation
import Synchronization

/// Turns a shot's samples into the path of a reframing window along one axis: the subject's centres
/// (gaps held, the first found used from the shot's start), a median over five samples (a face missed
/// or mistaken once does not move the window), a dead zone of `deadZone` of the window (the window
/// holds while the subject stays near its centre: a still subject gives a still window), a Gaussian
/// over `smoothing` samples (pans ease in and out), a speed limit of `maximumSpeed` of the picture's
/// side per second, and the window kept inside the picture.
enum ReframePath {
    /// How far the subject may stray from the window's centre before the window follows (a fraction of the window).
    static let deadZone = 0.1
    /// The Gaussian's standard deviation, in samples.
    static let smoothing = 2.0
    /// The fastest the window moves, in fractions of the picture's side per second: 0.75 % per frame at
    /// 24 fps, 0.6 % at 30.
    static let maximumSpeed = 0.18

    /// The window's centre along one axis at each of `samples` (their `value`s: subject centres, nil
    /// where none was found), for a window `window` pixels long in a picture `side` pixels long.
    static func centers(times: [Time], values: [Double?], side: Int, window: Int) -> [Double] {
        let n = times.count
        let low = Double(window) / 2, high = Double(side) - Double(window) / 2
        guard n > 0 else { return [] }
        guard window < side else { return [Double](repeating: Double(side) / 2, count: n) }
        // Gaps held; before the first subject, the first subject; no subject at all: the middle.
        var raw = [Double](repeating: Double(side) / 2, count: n)
        if let first = values.firstIndex(where: { $0 != nil }) {
            var last = values[first]!
            for i in 0..<n {
                if let v = values[i] { last = v }
                raw[i] = i < first ? values[first]! : last
            }
        }
        // A median over five samples. Kept inside the picture only at the end: a subject near the edge
        // takes the window to the edge, not a dead zone short of it.
        var wanted = raw
        for i in 0..<n {
            let lo = max(0, i - 2), hi = min(n - 1, i + 2)
            let sorted = raw[lo...hi].sorted()
            wanted[i] = sorted[sorted.count / 2]
        }
        // The dead zone: the window moves only as far as keeps the subject within it.
        let zone = deadZone * Double(window)
        var held = wanted
        for i in 1..<max(1, n) {
            let previous = held[i - 1], d = wanted[i] - previous
            held[i] = abs(d) <= zone ? previous : wanted[i] - (d > 0 ? zone : -zone)
        }
        // A Gaussian (weights renormalised at the shot's ends); a constant stretch stays exactly constant.
        let radius = Int((3 * smoothing).rounded(.up))
        var smooth = held
        for i in 0..<n {
            let lo = max(0, i - radius), hi = min(n - 1, i + radius)
            let part = held[lo...hi]
            if part.min() == part.max() { smooth[i] = held[i]; continue }
            var sum = 0.0, weights = 0.0
            for j in lo...hi {
                let w = exp(-Double((j - i) * (j - i)) / (2 * smoothing * smoothing))
                sum += w * held[j]; weights += w
            }
            smooth[i] = sum / weights
        }
        // The speed limit, forwards then backwards (after the backward pass every step is within it).
        let perSecond = maximumSpeed * Double(side)
        func limit(_ step: Int) -> Double { max(0, (times[step] - times[step - 1]).seconds) * perSecond }
        for i in Swift.stride(from: 1, to: n, by: 1) {
            let m = limit(i)
            smooth[i] = min(max(smooth[i], smooth[i - 1] - m), smooth[i - 1] + m)
        }
        for i in Swift.stride(from: n - 2, through: 0, by: -1) {
            let m = limit(i + 1)
            smooth[i] = min(max(smooth[i], smooth[i + 1] - m), smooth[i + 1] + m)
        }
        return smooth.map { min(max($0, low), high) }
    }

    /// The centre at `time` from centres at `times`: linear between samples, held after the last.
    static func center(at time: Time, times: [Time], centers: [Double]) -> Double {
        guard let first = times.first, time > first else { return centers.first ?? 0 }
        // The last sample at or before `time`.
        var lo = 0, hi = times.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if times[mid] <= time { lo = mid } else { hi = mid - 1 }
        }
        guard lo + 1 < times.count else { return centers[lo] }
        let span = (times[lo + 1] - times[lo]).seconds
        let f = span > 0 ? (time - times[lo]).seconds / span : 0
        return centers[lo] + (centers[lo + 1] - centers[lo]) * f
    }
}

/// One file's analysis in a render: started on its own thread when the session opens (or taken from
/// `SubjectCache`), it publishes each shot as it finishes, and a drawing thread asking for a window
/// waits only until the shot it shows is analysed. Windows' paths are computed once per shot and size.
final class SubjectAnalysisJob: @unchecked Sendable {
    // @unchecked: every mutable property is touched only under `condition`.
    let file: VideoFile
    private let condition = NSCondition()
    /// Finished shots, in order.
    private var shots: [SubjectTrack.Shot] = []
    private var isFinished = false
    /// Where the shot being analysed begins: every time before it is in a finished shot.
    private var settledUntil: Time? = nil
    private var failure: MovieMakerError? = nil
    /// Whether the analysis thread has ended (or there is none).
    private var threadEnded = true
    /// Paths per shot and window size: the shot's sample times and the centres x and y at each.
    private var paths: [PathKey: (times: [Time], x: [Double], y: [Double])] = [:]
    private let stop = CancellationToken()
    private let renderCancellation: CancellationToken?

    private struct PathKey: Hashable { var shot: Int, width: Int, height: Int }

    /// Whose turn it is to decode: one analysis at a time in the process, in the order the jobs were
    /// made (a stitch of twenty reframed clips opens twenty jobs, in the order the movie shows them;
    /// each runs ahead of the drawing of its clip).
    private struct Turns { var next = 0; var waiting: [Int] = []; var isRunning = false }
    private static let turns = Mutex(Turns())

    /// The analysis of `file`: from the cache when it has it (an analysis cut short resumes where it
    /// stopped), else started now on its own thread. Throws (before any frame) when the face model is
    /// missing.
    init(file: VideoFile, cancellation: CancellationToken?) throws(MovieMakerError) {
        self.file = file
        renderCancellation = cancellation
        let key = SubjectCache.key(for: file.url)
        var resume: Time? = nil
        if let key, let cached = SubjectCache.track(for: key) {
            shots = cached.shots
            guard let end = cached.end else { isFinished = true; return }
            settledUntil = end
            resume = end
        }
        let detector = try FaceDetector(model: try FaceDetector.modelURL())
        let analyser = SendableBox(SubjectAnalyser(file: file, detector: detector))
        let stop = stop
        threadEnded = false
        let start = resume
        let ticket = Self.turns.withLock { t in
            defer { t.next += 1 }
            t.waiting.append(t.next)
            return t.next
        }
        let thread = Thread { [self] in
            // Waits its turn, giving up when stopped first.
            while !Self.turns.withLock({ t in
                guard !t.isRunning, t.waiting.first == ticket else { return false }
                t.waiting.removeFirst()
                t.isRunning = true
                return true
            }) {
                if stop.isCancelled {
                    Self.turns.withLock { $0.waiting.removeAll { $0 == ticket } }
                    finish(failure: .cancelled, key: key)
                    return
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            defer { Self.turns.withLock { $0.isRunning = false } }
            do {
                _ = try analyser.value.run(from: start, cancellation: stop) { shot, next in
                    self.condition.withLock {
                        self.shots.append(shot)
                        self.settledUntil = next
                        self.condition.broadcast()
                    }
                }
                finish(failure: nil, key: key)
            } catch {
                finish(failure: (error as? MovieMakerError) ?? .failedEarlier(error), key: key)
            }
        }
        thread.name = "MovieMaker reframe analysis"
        thread.start()
    }

    /// Records how the analysis ended and keeps what it found: the whole track, or, when it was stopped
    /// after finishing some shots, those shots and where it stopped (a later analysis resumes there).
    private func finish(failure error: MovieMakerError?, key: String?) {
        let (track, stopped): (SubjectTrack?, Bool) = condition.withLock {
            if let error { failure = error } else { isFinished = true }
            condition.broadcast()
            let track = SubjectTrack(width: file.width, height: file.height, shots: shots, end: error == nil ? nil : settledUntil)
            return (shots.isEmpty || (error != nil && settledUntil == nil) ? nil : track, error?.code == .cancelled)
        }
        if let key, let track, error == nil || stopped { SubjectCache.store(track, for: key) }
        // Ended only once stored: a render that closes waits for it, so the next one finds it.
        condition.withLock {
            threadEnded = true
            condition.broadcast()
        }
    }

    /// The shot `sourceTime` falls in and its window path for a `width`×`height` window, once the
    /// analysis has passed that shot.
    private func settledPath(at sourceTime: Time, width: Int, height: Int) throws(MovieMakerError) -> (times: [Time], x: [Double], y: [Double]) {
        condition.lock()
        defer { condition.unlock() }
        // The frame shown at a time may be presented up to its tolerance (≤ 2 ms) after it
        // (`VideoFrameSource`): a frame that is a cut's first belongs to the new shot.
        let shown = sourceTime + VideoFrameSource.largestTolerance
        // Settled: the analysis is done, or the shot being analysed began after `sourceTime`.
        while !(isFinished || settledUntil.map { shown < $0 } ?? false) {
            if let failure { throw failure }
            if stop.isCancelled || (renderCancellation?.isCancelled ?? false) { throw .cancelled }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        guard !shots.isEmpty else { throw .movieUnreadable(path: file.url.path, reason: "no frame decodes") }
        var index = 0
        for (i, s) in shots.enumerated() where s.start <= shown { index = i }
        let key = PathKey(shot: index, width: width, height: height)
        if let known = paths[key] { return known }
        let s = shots[index]
        let times = s.samples.map(\.time)
        let computed = (times: times,
                        x: ReframePath.centers(times: times, values: s.samples.map(\.x), side: file.width, window: width),
                        y: ReframePath.centers(times: times, values: s.samples.map(\.y), side: file.height, window: height))
        paths[key] = computed
        return computed
    }

    /// Stops the analysis (the render is over) and waits up to a second for its thread to end, so
    /// what it finished is kept; a drawing thread still waiting gets `.cancelled`.
    func cancel() {
        stop.cancel()
        condition.lock()
        defer { condition.unlock() }
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 1)
        while !threadEnded, condition.wait(until: deadline) {}
    }

    /// The window (in displayed pixels of the file) `reframe` shows at `sourceTime`, waiting until the
    /// shot it falls in is analysed.
    func window(at sourceTime: Time, reframe: Reframe) throws(MovieMakerError) -> (x: Int, y: Int, width: Int, height: Int) {
        let (ww, wh) = reframe.window(inWidth: file.width, height: file.height)
        let path = try settledPath(at: sourceTime, width: ww, height: wh)
        let cx = ReframePath.center(at: sourceTime, times: path.times, centers: path.x)
        let cy = ReframePath.center(at: sourceTime, times: path.times, centers: path.y)
        // Whole even pixels (4:2:0 chroma), inside the picture.
        func origin(_ c: Double, _ size: Int, _ side: Int) -> Int {
            let o = Int((c - Double(size) / 2).rounded())
            return min(max(0, o - (o & 1)), side - size - ((side - size) & 1))
        }
        return (origin(cx, ww, file.width), origin(cy, wh, file.height), ww, wh)
    }
}

/// Hands a non-Sendable value to one other thread, which alone uses it from then on.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A render's reframing analyses, one per file (leaves showing the same file share it): started when
/// the session opens, stopped when it closes.
final class ReframeJobs: Sendable {
    private let jobs = Mutex<[VideoFile: SubjectAnalysisJob]>([:])
    private let cancellation: CancellationToken?

    init(cancellation: CancellationToken?) { self.cancellation = cancellation }

    /// Starts the analysis of each of `files` not started yet; throws the first that cannot start.
    func open(_ files: [VideoFile]) throws(MovieMakerError) {
        for file in files { _ = try job(for: file) }
    }

    /// The analysis of `file`, started now if the session has none.
    func job(for file: VideoFile) throws(MovieMakerError) -> SubjectAnalysisJob {
        // Keyed by the probed file (path, size, rate, codec…), asked for every frame drawn: no file
        // system call here, and a file replaced on disk and probed again is another key.
        if let job = jobs.withLock({ $0[file] }) { return job }
        let job = try SubjectAnalysisJob(file: file, cancellation: cancellation)
        return jobs.withLock { stored in
            if let existing = stored[file] { job.cancel(); return existing }
            stored[file] = job
            return job
        }
    }

    /// Stops every analysis still running (each keeps the shots it finished).
    func close() {
        let all = jobs.withLock { j in defer { j.removeAll() }; return Array(j.values) }
        for job in all { job.cancel() }
    }
}

extension Clip {
    /// The files of the video leaves that are reframed, in the tree's order, once each.
    var reframedVideoFiles: [VideoFile] {
        var files: [VideoFile] = []
        var seen = Set<String>()
        forEachMediaLeaf { media in
            guard case let .video(video) = media.source, video.reframe != nil else { return }
            if seen.insert(video.file.url.standardizedFileURL.path).inserted { files.append(video.file) }
        }
        return files
    }
}
