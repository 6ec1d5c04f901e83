internal import CPango
import Foundation
import Synchronization

/// The fonts fontconfig knows about: installed families, lookup by name, and font files added at run time.
///
/// Families added with `TextFont.file(_:size:weight:slant:)` are listed here too. Registering a file
/// waits until no text is being laid out (fontconfig does not guard its font lists itself), so it is
/// safe while other threads draw text, though best done once before a movie starts.
public enum FontLibrary {
    /// Generic family names fontconfig resolves to a configured font (so they are never "unknown").
    static let genericFamilies: Set<String> = ["sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "emoji"]

    /// Every installed family name (including other names a font carries, e.g. "DejaVu Sans Condensed"), sorted and unique.
    public static func installedFamilies() -> [String] { families().sorted }

    /// True when `name` is an installed family (compared ignoring case) or a generic name: sans, sans-serif, serif, monospace, mono, system-ui, emoji.
    public static func hasFamily(_ name: String) -> Bool {
        let key = name.trimmingCharacters(in: .whitespaces).lowercased()
        return genericFamilies.contains(key) || families().lowered.contains(key)
    }

    /// Up to `limit` installed families to suggest for `name`, best first: a near spelling of it (a typo
    /// within a fifth of its letters, or an installed family that starts with it as a word, as
    /// "DejaVu" starts "DejaVu Sans"), then fontconfig's own substitute for it (the font `fc-match`
    /// picks: Liberation Sans for Arial, Nimbus Sans for Helvetica, when installed), then the other
    /// installed families fontconfig's configuration lists for it, which are of a similar style (sans,
    /// serif or monospace).
    public static func closestFamilies(to name: String, limit: Int = 3) -> [String] {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let query = Array(trimmed.lowercased())
        guard limit > 0, !query.isEmpty else { return [] }
        let installed = families()
        var result: [String] = []
        func add(_ family: String) {
            let key = family.lowercased()
            if installed.lowered.contains(key), !result.contains(where: { $0.lowercased() == key }) { result.append(family) }
        }
        let near = installed.sorted.compactMap { family -> (distance: Int, name: String)? in
            let candidate = Array(family.lowercased())
            let distance = editDistance(query, candidate)
            let startsWithWord = query.count >= 3 && candidate.starts(with: query + [" "])
            return distance <= max(1, query.count / 5) || startsWithWord ? (distance, family) : nil
        }
        for n in near.sorted(by: { ($0.distance, $0.name) < ($1.distance, $1.name) }) { add(n.name) }
        let (match, similar) = fontconfigSubstitutes(for: trimmed)
        if let match { add(match) }
        for family in similar { add(family) }
        return Array(result.prefix(limit))
    }

    /// What fontconfig makes of a request for `family`: the family of the font it matches (as
    /// `fc-match` does) and the family names its configuration substitutes for the request, in its
    /// order of preference (aliases of the same style first, then its generic family's list).
    static func fontconfigSubstitutes(for family: String) -> (match: String?, similar: [String]) {
        _ = fontconfigReady
        return fontListLock.reading {
            guard let pattern = FcPatternCreate() else { return (nil, []) }
            defer { FcPatternDestroy(pattern) }
            let added = family.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            guard added != 0 else { return (nil, []) }
            guard FcConfigSubstitute(nil, pattern, FcMatchPattern) != 0 else { return (nil, []) }
            FcDefaultSubstitute(pattern)
            var similar: [String] = []
            var value: UnsafeMutablePointer<FcChar8>? = nil
            var n: Int32 = 1   // 0 is the request itself
            while FcPatternGetString(pattern, FC_FAMILY, n, &value) == FcResultMatch, let v = value {
                similar.append(String(cString: v))
                n += 1
            }
            var result = FcResultNoMatch
            var match: String? = nil
            if let font = FcFontMatch(nil, pattern, &result) {
                if FcPatternGetString(font, FC_FAMILY, 0, &value) == FcResultMatch, let v = value { match = String(cString: v) }
                FcPatternDestroy(font)
            }
            return (match, similar)
        }
    }

    // MARK: Internals

    /// True once fontconfig has loaded its configuration (done once per process, on first use).
    static let fontconfigReady: Bool = FcInit() != 0

    /// Guards fontconfig's font lists: Pango reads them while laying out text (readers, concurrent),
    /// `FcConfigAppFontAddFile` grows them (the writer, alone); fontconfig itself does not lock them.
    static let fontListLock = ReadWriteLock()

    /// Bumped each time a font file is registered: per-thread Pango font maps made before then are replaced.
    static let generation = Atomic<Int>(0)

    private struct FamilyCache { var generation: Int; var sorted: [String]; var lowered: Set<String> }
    private static let familyCache = Mutex<FamilyCache?>(nil)
    /// Paths already handed to fontconfig, with what `register` found in them.
    private static let registered = Mutex<[String: RegisteredFont]>([:])

    /// What a registered font file holds.
    struct RegisteredFont: Sendable { var family: String; var weight: FontWeight; var slant: FontSlant }

    private static func families() -> FamilyCache {
        let current = generation.load(ordering: .acquiring)
        if let cached = familyCache.withLock({ $0 }), cached.generation == current { return cached }
        let list = listFamilies()
        let fresh = FamilyCache(generation: current, sorted: list, lowered: Set(list.map { $0.lowercased() }))
        familyCache.withLock { $0 = fresh }
        return fresh
    }

    /// Asks fontconfig for every family name of every font it knows (system and application fonts).
    private static func listFamilies() -> [String] {
        _ = fontconfigReady
        return fontListLock.reading { listFamiliesLocked() }
    }
    private static func listFamiliesLocked() -> [String] {
        guard let pattern = FcPatternCreate() else { return [] }
        defer { FcPatternDestroy(pattern) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        _ = FcObjectSetAdd(objects, FC_FAMILY)
        guard let set = FcFontList(nil, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var names = Set<String>()
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var n: Int32 = 0
            var value: UnsafeMutablePointer<FcChar8>? = nil
            while FcPatternGetString(font, FC_FAMILY, n, &value) == FcResultMatch, let value {
                names.insert(String(cString: value))
                n += 1
            }
        }
        return names.sorted()
    }

    /// Adds the font file at `path` to fontconfig's application fonts (once per path) and returns its family, weight and slant.
    static func register(path: String) throws(MovieMakerError) -> RegisteredFont {
        _ = fontconfigReady
        guard FileManager.default.fileExists(atPath: path) else { throw .fontUnreadable(path: path, reason: "no such file") }
        let result: Result<RegisteredFont, MovieMakerError> = registered.withLock { known in
            if let font = known[path] { return .success(font) }
            var count: Int32 = 0
            guard let pattern = FcFreeTypeQuery(path, 0, nil, &count) else {
                return .failure(.fontUnreadable(path: path, reason: "fontconfig cannot read it as a font (expected a .ttf, .otf or .ttc file)"))
            }
            defer { FcPatternDestroy(pattern) }
            var value: UnsafeMutablePointer<FcChar8>? = nil
            guard FcPatternGetString(pattern, FC_FAMILY, 0, &value) == FcResultMatch, let value else {
                return .failure(.fontUnreadable(path: path, reason: "the font names no family"))
            }
            let family = String(cString: value)
            var fcWeight: Int32 = Int32(FC_WEIGHT_REGULAR)
            if FcPatternGetInteger(pattern, FC_WEIGHT, 0, &fcWeight) != FcResultMatch { fcWeight = Int32(FC_WEIGHT_REGULAR) }
            var fcSlant: Int32 = Int32(FC_SLANT_ROMAN)
            if FcPatternGetInteger(pattern, FC_SLANT, 0, &fcSlant) != FcResultMatch { fcSlant = Int32(FC_SLANT_ROMAN) }
            guard fontListLock.writing({ FcConfigAppFontAddFile(nil, path) }) != 0 else {
                return .failure(.fontUnreadable(path: path, reason: "fontconfig refused to add it"))
            }
            let font = RegisteredFont(family: family, weight: FontWeight(fontconfigWeight: Int(fcWeight)),
                                      slant: fcSlant == Int32(FC_SLANT_ITALIC) ? .italic : fcSlant == Int32(FC_SLANT_OBLIQUE) ? .oblique : .normal)
            known[path] = font
            generation.add(1, ordering: .releasing)
            return .success(font)
        }
        return try result.get()
    }

    /// Levenshtein distance between two character arrays.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// The Pango font map text is laid out with on the calling thread.
///
/// Pango's cairo font maps are not thread-safe, so Pango keeps one default font map per thread; each
/// `TextLayout` remembers the one it was made with and is rebuilt when used on another thread. When a
/// font file has been registered since a thread's map was made, the map is replaced so it sees the file.
enum PangoFontMaps {
    private static let generationQuark: GQuark = g_quark_from_string("moviemaker-font-generation")

    /// The calling thread's font map (borrowed: Pango's per-thread default holds it).
    static func current() -> UnsafeMutablePointer<PangoFontMap> {
        _ = FontLibrary.fontconfigReady
        let wanted = FontLibrary.generation.load(ordering: .acquiring) + 1   // 0 in the tag means "never tagged"
        let map = pango_cairo_font_map_get_default()!
        let seen = Int(bitPattern: g_object_get_qdata(gObject(map), generationQuark))
        if seen == wanted { return map }
        if seen == 0 && wanted == 1 {   // made before any font file was registered: nothing to miss
            g_object_set_qdata(gObject(map), generationQuark, UnsafeMutableRawPointer(bitPattern: wanted))
            return map
        }
        let fresh = pango_cairo_font_map_new()!
        pango_cairo_font_map_set_default(OpaquePointer(fresh))   // takes its own reference
        g_object_unref(fresh)
        g_object_set_qdata(gObject(fresh), generationQuark, UnsafeMutableRawPointer(bitPattern: wanted))
        return fresh
    }
}

/// A GObject instance pointer as `GObject *` (Swift cannot use the G_OBJECT cast macro).
func gObject<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GObject> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self)
}
/// An opaque GObject instance pointer as `GObject *`.
func gObject(_ pointer: OpaquePointer) -> UnsafeMutablePointer<GObject> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self)
}

/// A pthread read-write lock: many readers at once, or one writer.
final class ReadWriteLock: @unchecked Sendable {
    // @unchecked: the pthread lock is the synchronisation; its storage never moves.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }
    deinit { pthread_rwlock_destroy(lock); lock.deallocate() }
    /// Takes the lock shared with other readers (pair with `unlock()`).
    func readLock() { pthread_rwlock_rdlock(lock) }
    /// Releases the lock taken by `readLock()`.
    func unlock() { pthread_rwlock_unlock(lock) }
    /// Runs `body` holding the lock shared with other readers.
    func reading<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
    /// Runs `body` holding the lock alone.
    func writing<R>(_ body: () throws -> R) rethrows -> R {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
