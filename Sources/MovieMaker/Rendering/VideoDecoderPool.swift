import Foundation

/// The identity of one video media leaf: copies of a clip (a trimmed or repeated video) share it, and
/// so share their decoders: one per render, or one per place for a leaf shown in several places at once.
final class VideoLeafKey: Sendable {
    /// The probed file.
    let file: VideoFile
    /// A new identity for a leaf showing `file`.
    init(file: VideoFile) { self.file = file }
}

/// The video decoders of one render, at most `limit` open at once.
///
/// A drawing thread borrows a leaf's decoder for one picture (`withSource`), exclusively: decoding
/// and converting happen under the loan, drawing the picture into the frame after it, so threads
/// drawing other frames decode other clips, or draw, meanwhile. A leaf without an open decoder gets
/// one when a slot is free, or by closing the decoder used least recently that nobody holds; with
/// every slot held the thread waits. Before a cut the next clip's decoder is opened ahead on a
/// background queue (`prefetch`), so the cut does not wait for the file to open. A decoder that drew
/// frames and has since gone unused while others were lent many times (the clip before a cut or a
/// crossfade, once the movie has moved on) is closed and its memory handed back.
///
/// A leaf the composition shows in several places at once (`allowDecoders(_:for:)`) may have a decoder
/// per place: each loan names the source time, and the decoder holding or reaching it without seeking
/// is lent. Such a leaf opens another decoder only in a free slot, or in place of another leaf's decoder
/// unused for a while; otherwise one of its decoders seeks.
final class VideoDecoderPool: @unchecked Sendable {
    // @unchecked: every mutable field is touched only under `condition`.
    /// The most decoders open at once.
    let limit: Int
    /// One leaf's decoder: being opened, or open.
    // @unchecked: fields are touched only under the pool's `condition`.
    private final class Entry: @unchecked Sendable {
        let key: VideoLeafKey
        var source: VideoFrameSource?
        var inUse = false
        var lastUse: UInt64 = 0
        /// Whether a frame has borrowed it (a decoder opened ahead has not, yet).
        var used = false
        /// The source time last asked of it (or it was opened ahead for), when known.
        var lastTime: Time?
        init(key: VideoLeafKey) { self.key = key }
    }
    private let condition = NSCondition()
    /// The open decoders (and those being opened), a few at most: `limit` of them.
    private var entries: [Entry] = []
    /// How many of a leaf's decoders may be open at once: the most places the composition shows it
    /// at one time (see `allowDecoders(_:for:)`); one when not said.
    private var decodersPerLeaf: [ObjectIdentifier: Int] = [:]
    /// Leaves whose decoder failed to open ahead: not opened ahead again (the thread that draws one
    /// opens it itself and meets the error then).
    private var failedAhead: Set<ObjectIdentifier> = []
    private var useCounter: UInt64 = 0
    private var peak = 0
    private var isClosed = false
    private let opener = DispatchQueue(label: "MovieMaker.VideoDecoderPool.prefetch", qos: .userInitiated)
    /// A decoder unused for this many loans (of any decoder) may be closed to open the next clip's ahead,
    /// or another place's: more than a frame's loans apart (each of `drawingThreads` frames in flight
    /// borrowing up to `limit` decoders), so a video shown on every frame is never taken.
    private let staleAfter: UInt64
    /// A decoder that drew frames and has then been unused for this many loans of other decoders is
    /// closed, and its pictures' memory handed back: the clip before a cut or a crossfade is done with
    /// (about two seconds of one other video at 30 fps, one second of two). Never fewer than a frame's
    /// loans can be apart for a video shown on every frame (each of `drawingThreads` frames in flight
    /// borrowing up to `limit` decoders), with a margin of 4, so such a video is not closed between
    /// its frames; one needed again later opens again, at the cost of a seek. Which frame is shown
    /// never depends on it.
    private let closeIdleAfter: UInt64

    /// How many threads draw the render's frames (each decoder keeps a frame more than that).
    let drawingThreads: Int

    /// A pool opening at most `limit` (≥ 1) decoders at once, for frames drawn on `drawingThreads` threads.
    init(limit: Int, drawingThreads: Int = 1) {
        self.limit = max(1, limit)
        self.drawingThreads = max(1, drawingThreads)
        closeIdleAfter = UInt64(max(64, 4 * self.limit * self.drawingThreads))
        staleAfter = UInt64(max(12, self.limit * self.drawingThreads + 4))
    }

    /// Lets the leaf `key` have up to `count` decoders open at once: a clip shown in several places at
    /// one time (two moments of one take side by side, a crossfade from one part of a take to another)
    /// gets a decoder per place, where one decoder would seek back and forth for every frame.
    func allowDecoders(_ count: Int, for key: VideoLeafKey) {
        condition.withLock { decodersPerLeaf[ObjectIdentifier(key)] = max(1, count) }
    }

    /// Runs `body` with a decoder of `key`, opening it (and waiting for a free slot) first. With `time`
    /// (the source time the body asks for), a leaf with several decoders lends the one that reaches it
    /// without seeking, or opens another while the leaf has fewer than it may.
    func withSource<R>(for key: VideoLeafKey, at time: Time? = nil, _ body: (VideoFrameSource) throws -> R) throws -> R {
        let entry = try acquire(key, at: time)
        defer {
            let idle: [VideoFrameSource] = condition.withLock {
                entry.inUse = false
                entry.lastUse = useCounter      // used until now: a long loan does not make it idle
                condition.broadcast()
                return entries.filter { $0.used && !$0.inUse && $0.source != nil && useCounter - $0.lastUse >= closeIdleAfter }
                    .compactMap { remove($0) }
            }
            if !idle.isEmpty {
                _ = consume idle    // closed here, outside the lock
                FreedMemory.release()
            }
        }
        return try body(entry.source!)
    }

    /// Marks a decoder of `key` in use (for `time`, when given), opening one first when needed.
    ///
    /// A free decoder that reaches `time` without seeking is lent; failing that the thread waits for a
    /// lent one last asked for a time near it, or one being opened; failing that a leaf with fewer
    /// decoders than it may have opens another; failing that a free one seeks.
    private func acquire(_ key: VideoLeafKey, at time: Time?) throws(MovieMakerError) -> Entry {
        condition.lock()
        while true {
            let mine = entries.filter { $0.key === key }
            let free = mine.filter { $0.source != nil && !$0.inUse }
            // Only this thread looks at a free decoder (under the lock), so asking it is safe. One holding
            // the frame comes first: another place's decoder a few frames behind would reach it too, and
            // then that place would have to seek.
            // Of those reaching it, the one last asked for the nearest time: another place's decoder
            // further behind would decode over that place's window, which would then have to seek.
            let chosen = time.map { t in
                free.first { $0.source!.holds(t) }
                    ?? free.filter { $0.source!.reaches(t) }.min { Self.isNearer($0.lastTime, than: $1.lastTime, to: t) }
            } ?? free.first
            if let entry = chosen {
                lend(entry, at: time)
                condition.unlock()
                return entry
            }
            let busyNear = mine.contains { ($0.inUse || $0.source == nil) && Self.isNear($0.lastTime, time) }
            let allowed = decodersPerLeaf[ObjectIdentifier(key)] ?? 1
            if busyNear {
                condition.wait()      // lent or being opened: given back (or opened) soon
                continue
            }
            // Another decoder for a leaf that has one only in a free slot, or in place of another leaf's
            // decoder unused for a while: never by closing a decoder another place is using (the two
            // would then reopen each other's files on every frame). Otherwise a free one seeks.
            var victim: Entry? = nil
            if entries.count >= limit {
                victim = mine.isEmpty ? leastRecentlyUsed(unusedFor: 0)
                    : entries.filter { $0.key !== key && !$0.inUse && $0.source != nil && useCounter - $0.lastUse >= staleAfter }
                        .min { $0.lastUse < $1.lastUse }
            }
            if !mine.isEmpty && (mine.count >= allowed || (entries.count >= limit && victim == nil)) {
                guard let entry = free.min(by: { $0.lastUse < $1.lastUse }) else {
                    condition.wait()
                    continue
                }
                lend(entry, at: time)
                condition.unlock()
                return entry
            }
            var closing: VideoFrameSource? = nil
            if entries.count >= limit {
                guard let victim else {
                    condition.wait()      // every slot is lent: one comes back
                    continue
                }
                closing = remove(victim)
            }
            let entry = Entry(key: key)
            lend(entry, at: time)
            entries.append(entry)
            peak = max(peak, entries.count)
            condition.unlock()
            _ = consume closing    // the evicted decoder closes here, outside the lock, before the new one opens
            do {
                let source = try VideoFrameSource(file: key.file, drawingThreads: drawingThreads)
                condition.withLock { entry.source = source }
                return entry
            } catch {
                condition.withLock {
                    entries.removeAll { $0 === entry }
                    condition.broadcast()
                }
                throw error
            }
        }
    }

    /// Marks `entry` lent for `time`. Call under `condition`.
    private func lend(_ entry: Entry, at time: Time?) {
        entry.inUse = true
        entry.used = true
        useCounter += 1
        entry.lastUse = useCounter
        if let time { entry.lastTime = time }
    }

    /// Whether `a` is nearer to `time` than `b` (a time not known is the farthest: no sentinel time,
    /// whose arithmetic against another timescale could overflow).
    private static func isNearer(_ a: Time?, than b: Time?, to time: Time) -> Bool {
        guard let a else { return false }
        guard let b else { return true }
        return Time.max(a - time, time - a) < Time.max(b - time, time - b)
    }

    /// Whether a decoder last asked for `last` may reach `time` without seeking, worth waiting for: within
    /// half a second either way (drawing threads ask a few frames out of order; a little behind, the
    /// frame may still be in its window), or either is not known.
    private static func isNear(_ last: Time?, _ time: Time?) -> Bool {
        guard let last, let time else { return true }
        return Time.max(last - time, time - last) <= VideoFrameSource.forwardSeekGain
    }

    /// Opens `key`'s decoder ahead on a background queue and decodes up to `time`, when a slot is free
    /// or held by a decoder no frame has used lately; otherwise does nothing (the clip opens when first
    /// drawn). A leaf that fails to open is not opened ahead again: the thread that draws it meets the error.
    func prefetch(_ key: VideoLeafKey, at time: Time) {
        let (entry, closing): (Entry?, VideoFrameSource?) = condition.withLock {
            let mine = entries.filter { $0.key === key }
            // Nothing to open when the leaf has a decoder being opened, or one free that reaches `time`,
            // or as many as it may have.
            guard !isClosed, !failedAhead.contains(ObjectIdentifier(key)), !mine.contains(where: { $0.source == nil }),
                  !mine.contains(where: { $0.inUse ? Self.isNear($0.lastTime, time) : $0.source!.reaches(time) }),
                  mine.count < (decodersPerLeaf[ObjectIdentifier(key)] ?? 1) else { return (nil, nil) }
            var closing: VideoFrameSource? = nil
            if entries.count >= limit {
                guard let victim = leastRecentlyUsed(unusedFor: staleAfter) else { return (nil, nil) }
                closing = remove(victim)
            }
            let e = Entry(key: key)
            e.lastUse = useCounter      // counts as used now: not the first to be closed again
            e.lastTime = time
            entries.append(e)
            peak = max(peak, entries.count)
            return (e, closing)
        }
        _ = consume closing    // the evicted decoder closes here, outside the lock
        guard let entry else { return }
        opener.async {
            do {
                let source = try VideoFrameSource(file: key.file, drawingThreads: self.drawingThreads)
                _ = try? source.timestamp(at: time)
                self.condition.withLock {
                    entry.source = source
                    self.condition.broadcast()
                }
            } catch {
                // The slot is given back: a clip opened ahead that is then not drawn (or not yet) must not
                // hold it while others wait. A thread drawing the clip opens it itself and throws its error.
                self.condition.withLock {
                    self.entries.removeAll { $0 === entry }
                    self.failedAhead.insert(ObjectIdentifier(key))
                    self.condition.broadcast()
                }
            }
        }
    }

    /// The open decoder nobody holds that was used least recently, among those unused for at least
    /// `loans` loans of any decoder. Call under `condition`.
    private func leastRecentlyUsed(unusedFor loans: UInt64) -> Entry? {
        entries.filter { !$0.inUse && $0.source != nil && useCounter - $0.lastUse >= loans }
            .min { $0.lastUse < $1.lastUse }
    }

    /// Takes `entry` out of the pool and returns its decoder, for the caller to release outside the
    /// lock. Call under `condition`.
    private func remove(_ entry: Entry) -> VideoFrameSource? {
        entries.removeAll { $0 === entry }
        defer { entry.source = nil }
        return entry.source
    }

    /// Waits until the decoders being opened ahead are open (or have failed).
    func waitForOpening() { opener.sync {} }

    /// Waits for decoders being opened ahead, then closes every decoder.
    func close() {
        waitForOpening()
        let sources: [VideoFrameSource] = condition.withLock {
            isClosed = true
            defer { entries.removeAll() }
            return entries.compactMap(\.source)
        }
        _ = sources       // released here, outside the lock
    }

    /// Decoders open or being opened now (for tests).
    var openCount: Int { condition.withLock { entries.count } }
    /// The most decoders this pool has had open (or opening) at once.
    var peakOpenCount: Int { condition.withLock { peak } }
}
