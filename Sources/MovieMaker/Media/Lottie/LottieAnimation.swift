internal import CCairo
internal import CRLottie
import Foundation
import Synchronization

// Lottie animations (After Effects exports, LottieFiles) drawn in-process by rlottie straight into the
// frame's pixels. rlottie renders whole frames of the file's own rate, so a movie frame shows the
// Lottie frame whose interval holds its time (as a 25 fps video does in a 30 fps movie).
//
// The file is read and parsed when a render opens its media (a broken file fails before the first
// frame); each drawing lane takes its own rlottie animation from the render's pool (an rlottie
// animation renders one frame at a time and is not shareable between threads), so 4 lanes draw what 1
// lane draws, pixel for pixel.

/// What MovieMaker knows about a Lottie file before drawing it: its canvas, rate and length, read from
/// its JSON, and the checks that make a broken or unsupported file fail before the first frame.
package struct LottieFile: Sendable, Hashable {
    /// The file.
    package let url: URL
    /// The canvas size (`w`, `h`), in the file's pixels.
    package let width: Int, height: Int
    /// Frames per second (`fr`).
    package let frameRate: Double
    /// How many frames it has (`op` − `ip`).
    package let frameCount: Int
    /// The names of its layers (`nm`), top level and in precompositions: what `colors` may name.
    package let layerNames: Set<String>
    /// The image files its assets name (`u` + `p`, beside the animation), which rlottie reads itself
    /// when it draws: files a render reads, as the animation is (embedded images are not files).
    package let externalAssets: [URL]
    /// The file's bytes, as read (rlottie parses them; its parser has the last word on what it draws).
    let json: Data

    /// How long it plays at its own speed: `frameCount / frameRate` seconds.
    package var duration: Time { Time(seconds: Double(frameCount) / frameRate) }

    /// The largest canvas side accepted.
    static let maximumSide = 16384

    /// Reads `url`'s JSON and checks it is a Lottie animation rlottie draws. Throws
    /// `.animationUnreadable` naming the file and what is wrong.
    package init(url: URL) throws(MovieMakerError) {
        self.url = url
        func fail(_ reason: String) -> MovieMakerError { .animationUnreadable(path: url.path, reason: reason) }
        guard FileManager.default.fileExists(atPath: url.path) else { throw fail("no such file") }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw fail("cannot read it (\(error.localizedDescription))") }
        if url.pathExtension.lowercased() == "lottie" || data.starts(with: [0x50, 0x4B]) {
            throw fail("it is a dotLottie archive (a ZIP); unzip it and give the animation's .json file (animations/*.json)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
            throw fail("it is not JSON (a Lottie animation is a JSON file exported by Bodymovin or LottieFiles)")
        }
        func number(_ key: String) -> Double? { (root[key] as? NSNumber)?.doubleValue }
        guard let w = number("w"), let h = number("h"), let fr = number("fr"), let ip = number("ip"), let op = number("op"),
              root["layers"] is [Any] else {
            throw fail("it is JSON but not a Lottie animation: it needs \"w\", \"h\", \"fr\", \"ip\", \"op\" and \"layers\"")
        }
        guard w >= 1, h >= 1, w <= Double(Self.maximumSide), h <= Double(Self.maximumSide) else {
            throw fail("its canvas is \(Int(w))×\(Int(h)); a side must be from 1 to \(Self.maximumSide) pixels")
        }
        guard fr > 0, fr <= 1000, fr.isFinite else { throw fail("its frame rate \"fr\" is \(fr); it must be above 0 and at most 1000") }
        guard op > ip, (op - ip) <= 10_000_000 else { throw fail("its out point \"op\" (\(op)) is not after its in point \"ip\" (\(ip)): it has no frames") }
        // Frames are counted in whole frames: an animation less than a frame long has none to show.
        guard op - ip + 1e-6 >= 1 else {
            throw fail("its in point \"ip\" (\(ip)) and out point \"op\" (\(op)) are less than one frame apart: it has no frames to show")
        }
        var names: Set<String> = []
        var textLayers: [String] = []
        func visit(_ layers: [Any]) {
            for case let layer as [String: Any] in layers {
                let name = layer["nm"] as? String
                if let name { names.insert(name) }
                if (layer["ty"] as? NSNumber)?.intValue == 5 { textLayers.append(name ?? "(unnamed)") }
            }
        }
        visit(root["layers"] as! [Any])
        for case let asset as [String: Any] in root["assets"] as? [Any] ?? [] {
            if let layers = asset["layers"] as? [Any] { visit(layers) }
        }
        if let first = textLayers.first {
            throw fail("the layer \"\(first)\" is a text layer, which rlottie does not draw; convert it to shapes before exporting (After Effects: Layer ▸ Create Shapes from Text) or put a title item over the animation")
        }
        width = Int(w.rounded(.up)); height = Int(h.rounded(.up))
        frameRate = fr
        frameCount = Int((op - ip).rounded())
        layerNames = names
        externalAssets = (root["assets"] as? [Any] ?? []).compactMap { item -> URL? in
            guard let asset = item as? [String: Any], let file = asset["p"] as? String, !file.isEmpty,
                  (asset["e"] as? NSNumber)?.intValue != 1, !file.hasPrefix("data:") else { return nil }
            // rlottie joins the resource path it is given (`LottieFile.resourcePath`), `u` and `p` as
            // written, with no separator of its own.
            return URL(fileURLWithPath: Self.resourcePath(of: url) + (asset["u"] as? String ?? "") + file).standardizedFileURL
        }
        // An image that is a named pipe or a device would hang or never end when rlottie reads it.
        for asset in externalAssets {
            if let problem = RegularFile.problem(asset.path) { throw fail("its image \(asset.path): \(problem)") }
        }
        json = data
    }

    /// Why `name`, a key of an animation's `colors`, recolours nothing, or nil when it names a layer.
    /// A name without a dot is a layer's; one with dots is an rlottie key path whose first part is a
    /// layer's (or `*`, `**`). rlottie splits key paths at dots, so a layer whose own name has one
    /// ("logo.ai", as After Effects names imported files) cannot be reached at all.
    package func colorProblem(_ name: String) -> String? {
        if name.contains("."), layerNames.contains(name) {
            return "the layer \"\(name)\" has a dot in its name, and rlottie reads dots as the separators of a key path, so it cannot be recoloured: rename the layer without dots (in After Effects, or its \"nm\" in the JSON)"
        }
        let layer = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
        guard layer != "*", layer != "**", !layerNames.contains(layer) else { return nil }
        let known = layerNames.sorted()
        let layers = known.isEmpty ? "its layers have no names"
            : "its layers are \(known.prefix(12).map { "\"\($0)\"" }.joined(separator: ", "))" + (known.count > 12 ? " and \(known.count - 12) more" : "")
        let what = layer == name ? "names no layer" : "is a key path whose first part \"\(layer)\" names no layer"
        return "\(what) of \(url.lastPathComponent): \(layers) (a key path is \"layer.shape.fill\")"
    }

    /// The folder rlottie reads an animation's images from: the file's, with the trailing `/` rlottie
    /// does not add itself before `u` (without it, "images/" made "/anim" + "images/", a folder beside).
    static func resourcePath(of url: URL) -> String { url.deletingLastPathComponent().path + "/" }

    /// The frame (0 to `frameCount − 1`) shown at `time` into the animation played at `speed`: the one
    /// whose interval holds the time, wrapping when `loop`, else held on the last.
    package func frame(at time: Time, speed: Double, loop: Bool) -> Int {
        // The small bias keeps times that are exact frame boundaries (40 ms at 25 fps) on their frame
        // despite the rounding of `seconds × speed × rate` in binary.
        let exact = time.seconds * speed * frameRate
        let k = max(0, Int((exact + 1e-9).rounded(.down)))
        return loop ? k % max(1, frameCount) : max(0, min(k, frameCount - 1))
    }
}

/// One rlottie animation of a file, with its colour overrides applied and the surface it renders into.
/// Its one owner frees it; it draws one frame at a time (its player hands each lane its own).
final class LottieRenderer {
    private let animation: OpaquePointer   // owned Lottie_Animation
    /// The surface the last frame was rendered into (reused while the size stays).
    private var surface: CairoSurface?

    /// Parses the file's JSON with rlottie and applies `colors` (layer name or rlottie key path → colour).
    init(file: LottieFile, colors: [String: Color]) throws(MovieMakerError) {
        let text = String(decoding: file.json, as: UTF8.self)
        // An empty cache key: rlottie keeps no model of its own between animations.
        guard let animation = lottie_animation_from_data(text, "", LottieFile.resourcePath(of: file.url)) else {
            throw .animationUnreadable(path: file.url.path, reason: "rlottie cannot parse it (a Lottie feature it does not support, or a damaged file)")
        }
        self.animation = animation
        for (name, color) in colors.sorted(by: { $0.key < $1.key }) {
            // A bare layer name recolours everything in the layer; a key path (with dots) is used as written.
            let keypath = name.contains(".") ? name : name + ".**"
            func unit(_ v: Double) -> Double { min(1, max(0, v)) }
            let (r, g, b, a) = (unit(color.red), unit(color.green), unit(color.blue), unit(color.alpha))
            mm_lottie_fill_color(animation, keypath, r, g, b)
            mm_lottie_stroke_color(animation, keypath, r, g, b)
            if a < 1 {
                mm_lottie_fill_opacity(animation, keypath, a * 100)
                mm_lottie_stroke_opacity(animation, keypath, a * 100)
            }
        }
    }

    deinit { lottie_animation_destroy(animation) }

    /// Renders `frame` at `width`×`height` pixels (the canvas scaled, aspect kept) and returns the
    /// surface holding it, valid until the next call.
    func render(frame: Int, width: Int, height: Int) throws(MovieMakerError) -> CairoSurface {
        let target: CairoSurface
        if let surface, surface.width == width, surface.height == height {
            target = surface
        } else {
            target = try CairoSurface(width: width, height: height)
            surface = target
        }
        target.flush()
        let stride = target.stride
        target.data.update(repeating: 0, count: stride * height)
        // rlottie writes premultiplied ARGB32 in native order: Cairo's ARGB32.
        target.data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * height) { pixels in
            lottie_animation_render(animation, frame, pixels, width, height, stride)
        }
        target.markDirty()
        return target
    }
}

/// What a Lottie leaf draws from: the file and its overrides. A reference type so copies of a clip share
/// one entry in a render's store.
final class LottieSource: Sendable {
    /// The file.
    let url: URL
    /// Layer name (or rlottie key path) → colour.
    let colors: [String: Color]
    /// The opened file used outside any render (`Clip.draw(in:at:)` on a canvas of your own).
    private let standalone = Mutex<LottiePlayer?>(nil)

    init(url: URL, colors: [String: Color]) { self.url = url; self.colors = colors }

    /// Reads and checks the file, and makes the first renderer.
    func open() throws(MovieMakerError) -> LottiePlayer {
        let file = try LottieFile(url: url)
        for name in colors.keys.sorted() {
            if let problem = file.colorProblem(name) { throw .animationUnreadable(path: url.path, reason: "\"colors\" key \"\(name)\" \(problem)") }
        }
        return try LottiePlayer(file: file, colors: colors)
    }

    func standalonePlayer() throws(MovieMakerError) -> LottiePlayer {
        if let player = standalone.withLock({ $0 }) { return player }
        let player = try open()
        standalone.withLock { $0 = player }
        return player
    }
}

/// An opened Lottie file: its JSON and a pool of renderers, one per lane drawing it at once.
final class LottiePlayer: Sendable {
    let file: LottieFile
    private let colors: [String: Color]
    // Renderers not in use. A renderer is only ever used by the thread that took it from here.
    private let idle: Mutex<[UncheckedRenderer]>

    /// Wraps a renderer for the pool; only the thread that took one out touches it.
    private struct UncheckedRenderer: @unchecked Sendable { let renderer: LottieRenderer }

    /// Opens `file` with rlottie (its first renderer: a file rlottie cannot parse throws here).
    init(file: LottieFile, colors: [String: Color]) throws(MovieMakerError) {
        self.file = file; self.colors = colors
        idle = Mutex([UncheckedRenderer(renderer: try LottieRenderer(file: file, colors: colors))])
    }

    /// Runs `body` with a renderer no other thread is using (one is made when all are busy).
    func withRenderer<R>(_ body: (LottieRenderer) throws -> R) throws -> R {
        let taken = idle.withLock { $0.popLast() }
        let renderer = try taken?.renderer ?? LottieRenderer(file: file, colors: colors)
        defer { idle.withLock { $0.append(UncheckedRenderer(renderer: renderer)) } }
        return try body(renderer)
    }

    /// How many renderers it has made (the most lanes that drew it at once).
    var rendererCount: Int { idle.withLock { $0.count } }
}

extension RenderSession {
    /// The opened Lottie file of `source`: the session's, or outside any render the clip's own.
    func lottiePlayer(for source: LottieSource) throws(MovieMakerError) -> LottiePlayer {
        if isStandalone { return try source.standalonePlayer() }
        return try lotties.value(for: source)
    }
}

extension Clip {
    /// A Lottie animation as a generator leaf (`Clip.lottie`).
    package struct LottieLeaf: Sendable, Hashable {
        /// The file.
        package var url: URL { source.url }
        /// How fast it plays (1: its own rate).
        package let speed: Double
        /// Whether it starts again after its last frame (false: holds the last frame).
        package let loop: Bool
        /// How its canvas is sized into the frame.
        package let fit: ImageFit
        /// Layer name (or rlottie key path) → colour.
        package var colors: [String: Color] { source.colors }
        let source: LottieSource

        package init(url: URL, speed: Double, loop: Bool, fit: ImageFit, colors: [String: Color]) {
            self.speed = speed; self.loop = loop; self.fit = fit
            source = LottieSource(url: url, colors: colors)
        }

        package static func == (a: LottieLeaf, b: LottieLeaf) -> Bool {
            a.url == b.url && a.speed == b.speed && a.loop == b.loop && a.fit == b.fit && a.colors == b.colors
        }
        package func hash(into hasher: inout Hasher) {
            hasher.combine(url); hasher.combine(speed); hasher.combine(loop); hasher.combine(fit); hasher.combine(colors)
        }

        /// Draws the animation's frame for `frame`'s exact time, its canvas fitted into the frame and
        /// rendered at the pixel size it covers on the canvas drawn into (crisp under a zoom).
        func draw(in ctx: DrawingContext, at frame: Frame, session: RenderSession) throws {
            let player = try session.lottiePlayer(for: source)
            let file = player.file
            let index = file.frame(at: frame.exactTime, speed: speed, loop: loop)
            let natural = Size(width: Double(file.width), height: Double(file.height))
            let bounds = ctx.bounds
            let shown: Size
            switch fit {
            case .stretch: shown = bounds.size
            case .fit: let s = min(bounds.width / natural.width, bounds.height / natural.height); shown = Size(width: natural.width * s, height: natural.height * s)
            case .fill: let s = max(bounds.width / natural.width, bounds.height / natural.height); shown = Size(width: natural.width * s, height: natural.height * s)
            case .center: shown = natural
            }
            // rlottie keeps the canvas's aspect: render at the aspect, at the device pixels it covers
            // (stretched, at the larger of the two scales: squeezed along the other axis, never enlarged).
            let scale = ctx.deviceScale
            let sx = shown.width / natural.width, sy = shown.height / natural.height
            let base = (fit == .stretch ? max(sx, sy) : min(sx, sy)) * scale
            let pw = min(LottieFile.maximumSide, max(1, Int((natural.width * base).rounded())))
            let ph = min(LottieFile.maximumSide, max(1, Int((natural.height * base).rounded())))
            try player.withRenderer { renderer in
                let image = Image(surface: try renderer.render(frame: index, width: pw, height: ph))
                if fit == .center {
                    let rect = Rect(x: bounds.midX - natural.width / 2, y: bounds.midY - natural.height / 2, width: natural.width, height: natural.height)
                    ctx.draw(image, in: rect, fit: .stretch)
                } else {
                    ctx.draw(image, in: bounds, fit: fit)
                }
            }
        }
    }

    /// A clip playing the Lottie animation at `url` (an After Effects export, a LottieFiles JSON) for
    /// `duration` (default: its own length at `speed`), drawn by rlottie into the frame.
    ///
    /// The animation's canvas is sized into the frame by `fit` (`.fit`: whole, letterboxed, the rest
    /// transparent) and can be moved with the usual transforms. Movie frame *i* shows the animation's
    /// frame ⌊(i / movie rate) × `speed` × its rate⌋, wrapping when `loop`, else holding its last frame.
    /// `colors` recolours layers: a layer's name (`"bg"`) sets the fill and stroke colour of everything
    /// in it; a name with dots is an rlottie key path (`"bg.rect.fill"`, `"**.fill 1"`).
    ///
    /// Throws `.animationUnreadable` now when the file is missing, not a Lottie animation, has a text
    /// layer (rlottie does not draw them), or `colors` names a layer it does not have.
    public static func lottie(_ url: URL, duration: Time? = nil, speed: Double = 1, loop: Bool = true, fit: ImageFit = .fit,
                              colors: [String: Color] = [:]) throws(MovieMakerError) -> Clip {
        guard speed > 0, speed.isFinite else { throw .invalidSetting(.speed, value: "\(speed)", expected: "a speed above 0 (1 is the animation's own)") }
        let leaf = LottieLeaf(url: url, speed: speed, loop: loop, fit: fit, colors: colors)
        let player = try leaf.source.open()
        let length = duration ?? Time(seconds: player.file.duration.seconds / speed)
        guard length >= .zero else { throw .invalidSetting(.duration, value: length.description, expected: "0 seconds or more") }
        return Clip(.generator(.lottie(leaf), duration: length))
    }

    /// The source of every Lottie leaf in the tree.
    var lottieSources: [LottieSource] {
        generatorSources { if case let .lottie(leaf) = $0 { leaf.source } else { nil } }
    }
}

extension Clip.LottieLeaf: Codable {
    private enum CodingKeys: String, CodingKey { case file, speed, loop, fit, colors }

    /// Reads `{"file": "/anim/confetti.json"}` and, when given, `speed` (1), `loop` (true), `fit` (fit)
    /// and `colors` (`{"bg": "#ff0000"}`). The file is not opened until a render opens the clip's media.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let colors = try c.decodeIfPresent([String: Color].self, forKey: .colors) ?? [:]
        self.init(url: try c.decode(FileLocation.self, forKey: .file).url, speed: try c.decode(.speed, or: 1.0),
                  loop: try c.decode(.loop, or: true), fit: try c.decode(.fit, or: .fit), colors: colors)
    }

    /// Writes the file and the settings that differ from the defaults.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FileLocation(url), forKey: .file)
        if speed != 1 { try c.encode(speed, forKey: .speed) }
        if !loop { try c.encode(loop, forKey: .loop) }
        if fit != .fit { try c.encode(fit, forKey: .fit) }
        if !colors.isEmpty { try c.encode(colors, forKey: .colors) }
    }
}
