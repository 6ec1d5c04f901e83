import Foundation
import MovieMaker
import MovieMaker

/// The filters line of `make bench` (and `make bench-filters`): what each filter costs per 1080p frame,
/// and what a typical chain — a LUT (or, before one exists, the first colour filter), a vignette at
/// amount 0.5 and fine grain at amount 0.035 (σ ≈ 2.2 levels) — adds to a 1080p30 `medium` render. Target: under 10 % of the render's CPU.
///
/// Every filter in `Clip.Filter.names` is built from its defaults (a required file parameter gets a
/// generated 33-point .cube), so filters added later are timed without changing this file. Each is
/// applied in place to a 1920×1080 photo-like picture, the picture redrawn before every run; the
/// median wall and process-CPU milliseconds of `runs` runs are reported. The renders are a panned
/// photo-like picture (x264 has real work), without and with the chain, paired A/B/A/B so slow
/// drifts of the machine fall on both; a third render without the grain separates the filters' cost
/// from what x264 spends encoding grain (noise).
struct FilterBenchmark {
    var width = 1920, height = 1080, fps = 30
    /// Timed runs per filter (after two warm-up runs).
    var runs = 15
    /// Length of each render, in seconds.
    var seconds = 3
    /// x264 preset of the renders.
    var preset: EncoderPreset = .medium
    /// Where the generated .cube is kept.
    var cache = URL(fileURLWithPath: ".build/bench-filters", isDirectory: true)

    /// One filter's cost on a frame.
    struct FilterCost: Encodable, Sendable {
        let name: String
        /// "color" or "spatial".
        let kind: String
        /// The filter as built (its description-file form).
        let spec: String
        let medianWallMilliseconds: Double
        let medianCPUMilliseconds: Double
    }

    /// One render's figures.
    struct Run: Encodable, Sendable {
        let wallSeconds: Double
        let cpuSeconds: Double
    }

    /// The line's figures.
    struct Result: Encodable, Sendable {
        let width: Int
        let height: Int
        let runs: Int
        let perFilter: [FilterCost]
        /// Filters that could not be built from their defaults, with the reason.
        let skipped: [String: String]
        let seconds: Int
        let frames: Int
        let preset: String
        /// The names of the chain's filters, in order.
        let chain: [String]
        let withoutFilters: [Run]
        let withFilters: [Run]
        /// The chain without grain: grain is noise, which x264 spends far more on (trellis, bits) than
        /// on a clean picture, so this separates the filters' own cost from the encoder's.
        let withFiltersButGrain: [Run]
        var cpuWithoutGrain: Double { withFiltersButGrain.map(\.cpuSeconds).reduce(0, +) }
        /// (CPU with the chain minus grain − CPU without) ÷ CPU without, in percent.
        var addedWithoutGrainPercent: Double { 100 * (cpuWithoutGrain - cpuWithout) / cpuWithout }
        var cpuWithout: Double { withoutFilters.map(\.cpuSeconds).reduce(0, +) }
        var cpuWith: Double { withFilters.map(\.cpuSeconds).reduce(0, +) }
        /// (CPU with − CPU without) ÷ CPU without, in percent: what the filters add to the render.
        var addedPercent: Double { 100 * (cpuWith - cpuWithout) / cpuWithout }
        /// The chain's CPU per frame measured alone (the sum of its filters' medians), in ms.
        var chainCPUMilliseconds: Double { chain.compactMap { n in perFilter.first { $0.name == n }?.medianCPUMilliseconds }.reduce(0, +) }
        /// That cost over the render's frames ÷ CPU of one render without filters, in percent: a second
        /// estimate, of the filters' own work alone (the first also counts what grain costs x264).
        var isolatedPercent: Double {
            100 * chainCPUMilliseconds / 1000 * Double(frames) / (cpuWithout / Double(max(1, withoutFilters.count)))
        }
        var passes: Bool { addedPercent < 10 }
        /// CPU seconds per render (the mean over the passes).
        func perRender(_ runs: [Run]) -> Double { runs.map(\.cpuSeconds).reduce(0, +) / Double(max(1, runs.count)) }
        /// What grain adds to one render (with − all but grain), and of that its own work (its per-frame
        /// CPU × frames) and what x264 spends encoding the noise (the rest).
        var grainSeconds: Double { perRender(withFilters) - perRender(withFiltersButGrain) }
        var grainKernelSeconds: Double { (perFilter.first { $0.name == "grain" }?.medianCPUMilliseconds ?? 0) * Double(frames) / 1000 }
        var grainEncoderSeconds: Double { grainSeconds - grainKernelSeconds }
    }

    /// A photo-like picture: a diagonal gradient, soft discs, fine stripes.
    static func photo(width: Int, height: Int) throws -> Image {
        let canvas = try Canvas(width: width, height: height)
        try canvas.draw { ctx in
            ctx.setFill(.linear(from: .zero, to: Point(x: Double(width), y: Double(height)),
                                colors: [Color(hue: 0.08, saturation: 0.6, brightness: 0.95), Color(hue: 0.6, saturation: 0.7, brightness: 0.3)]))
            ctx.fillRect(ctx.bounds)
            var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
            for _ in 0..<60 {
                rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
                let x = Double(rng % UInt64(width)), y = Double((rng >> 16) % UInt64(height)), r = Double(20 + (rng >> 32) % 180)
                ctx.setFill(Color(hue: Double((rng >> 40) % 360) / 360, saturation: 0.5, brightness: 0.9, alpha: 0.5))
                ctx.fillEllipse(in: Rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r))
            }
            ctx.setFill(Color(white: 1, alpha: 0.15))
            for i in stride(from: 0, to: width, by: 9) { ctx.fillRect(Rect(x: Double(i), y: 0, width: 3, height: Double(height) / 3)) }
        }
        return try canvas.makeImage()
    }

    /// A 33-point .cube: a warm look (reds lifted, blues lowered, a gentle S-curve).
    func cube() throws -> URL {
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let url = cache.appendingPathComponent("warm-33.cube")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let n = 33
        var text = "TITLE \"moviemaker-bench warm\"\nLUT_3D_SIZE \(n)\n"
        func curve(_ v: Double) -> Double { v * v * (3 - 2 * v) * 0.3 + v * 0.7 }
        for b in 0..<n { for g in 0..<n { for r in 0..<n {
            let rv = Double(r) / Double(n - 1), gv = Double(g) / Double(n - 1), bv = Double(b) / Double(n - 1)
            let out = [min(1, curve(rv) * 1.06), curve(gv), curve(bv) * 0.92]
            text += out.map { String(format: "%.6f", $0) }.joined(separator: " ") + "\n"
        } } }
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Every filter in the table built from its defaults (required files: the generated .cube).
    func filters() throws -> (built: [(String, Clip.Filter)], skipped: [String: String]) {
        let cube = try cube()
        var built: [(String, Clip.Filter)] = [], skipped: [String: String] = [:]
        for name in Clip.Filter.names {
            var parameters: [String: JSONValue] = [:]
            for key in Clip.Filter.requiredFileParameters(ofFilterNamed: name) { parameters[key] = .string(cube.path) }
            do { built.append((name, try Clip.Filter(FilterSpec(name: name, parameters: parameters)))) } catch {
                skipped[name] = error.message
            }
        }
        return (built, skipped)
    }

    /// The median of `values`.
    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Times `filter` on a frame-sized canvas holding `picture`, redrawn before each run.
    func time(_ filter: Clip.Filter, picture: Image, canvas: Canvas) throws -> (wall: Double, cpu: Double) {
        var walls: [Double] = [], cpus: [Double] = []
        for run in 0..<(runs + 2) {
            try canvas.draw { ctx in ctx.clear(.clear); ctx.draw(picture, in: ctx.bounds) }
            let wall0 = wallSeconds(), cpu0 = CPUClock.process.seconds()
            try filter.apply(to: canvas, at: Time(value: Int64(run), timescale: Int64(fps)), rate: FrameRate(fps))
            let wall = wallSeconds() - wall0, cpu = CPUClock.process.seconds() - cpu0
            if run >= 2 { walls.append(wall * 1000); cpus.append(cpu * 1000) }
        }
        return (Self.median(walls), Self.median(cpus))
    }

    /// A panned photo-like picture with a disc crossing it: `seconds` long.
    func scene(_ picture: Image) -> Clip {
        let w = Double(width), h = Double(height), total = Double(seconds)
        return Clip(duration: Time(value: Int64(seconds), timescale: 1)) { ctx, frame in
            let p = frame.time / total
            ctx.draw(picture, in: Rect(x: -0.1 * w * p, y: -0.1 * h * p, width: 1.1 * w, height: 1.1 * h))
            ctx.setFill(Color(hue: 0.95, saturation: 0.6, brightness: 0.9, alpha: 0.8))
            ctx.fillEllipse(in: Rect(x: w * p - 150, y: h / 2 - 150 + 100 * sin(6 * p), width: 300, height: 300))
        }
    }

    /// Renders `clip` to `url` and times it.
    func render(_ clip: Clip, to url: URL) throws -> (Run, Int) {
        let wall0 = wallSeconds(), cpu0 = CPUClock.process.seconds()
        let movie = try MovieMaker(url: url, width: width, height: height, fps: FrameRate(fps),
                                   settings: EncoderSettings(crf: 20, preset: preset))
        try movie.add(clip)
        let summary = try movie.finish()
        return (Run(wallSeconds: wallSeconds() - wall0, cpuSeconds: CPUClock.process.seconds() - cpu0), summary.frameCount)
    }

    /// Times every filter, renders without and with the chain, and returns the figures.
    func run() throws -> Result {
        let (built, skipped) = try filters()
        let frame = try Self.photo(width: width, height: height)
        let canvas = try Canvas(width: width, height: height)
        var costs: [FilterCost] = []
        for (name, filter) in built {
            let (wall, cpu) = try time(filter, picture: frame, canvas: canvas)
            let kind: String
            if case .color = filter { kind = "color" } else { kind = "spatial" }
            let spec = String(decoding: try JSONEncoder.sorted.encode(filter), as: UTF8.self)
            costs.append(FilterCost(name: name, kind: kind, spec: spec, medianWallMilliseconds: wall, medianCPUMilliseconds: cpu))
        }
        // The chain: a LUT when there is one (else a look, else the first colour filter), vignette, grain.
        let names = built.map(\.0)
        let colour = ["lut", "look"].first { names.contains($0) }
            ?? built.first { if case .color = $0.1 { return true } else { return false } }?.0
        let chain = ([colour].compactMap { $0 } + ["vignette", "grain"]).filter { names.contains($0) }
        // Realistic amounts for the chain (the per-filter table above uses the defaults): a half-strength
        // vignette and fine film grain, σ = 0.035 × 64 ≈ 2.2 levels.
        let chainParameters: [String: [String: JSONValue]] = ["vignette": ["amount": .number("0.5")], "grain": ["amount": .number("0.035")]]
        let chainFilters = try chain.compactMap { n -> Clip.Filter? in
            guard let parameters = chainParameters[n] else { return built.first { $0.0 == n }?.1 }
            return try Clip.Filter(FilterSpec(name: n, parameters: parameters))
        }
        let picture = try Self.photo(width: width * 11 / 10, height: height * 11 / 10)
        let plain = scene(picture), filtered = plain.filtered(chainFilters)
        let noGrain = plain.filtered(zip(chain, chainFilters).filter { $0.0 != "grain" }.map(\.1))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("moviemaker-bench-filters-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        var without: [Run] = [], with: [Run] = [], withoutGrain: [Run] = [], frames = 0
        for pass in 0..<2 {
            let (a, n) = try render(plain, to: output.appendingPathComponent("plain-\(pass).mp4"))
            let (b, _) = try render(filtered, to: output.appendingPathComponent("filtered-\(pass).mp4"))
            let (c, _) = try render(noGrain, to: output.appendingPathComponent("no-grain-\(pass).mp4"))
            without.append(a); with.append(b); withoutGrain.append(c); frames = n
        }
        return Result(width: width, height: height, runs: runs, perFilter: costs, skipped: skipped, seconds: seconds, frames: frames,
                      preset: preset.rawValue, chain: chain, withoutFilters: without, withFilters: with,
                      withFiltersButGrain: withoutGrain)
    }

    /// The table lines.
    static func line(_ r: Result) -> String {
        var lines = ["filters: each applied in place to a \(r.width)x\(r.height) frame, median of \(r.runs) runs (ms per frame)"]
        for c in r.perFilter {
            lines.append(String(format: "  %-12@ %7.2f ms wall  %7.2f ms CPU  (%@)", c.name as NSString, c.medianWallMilliseconds, c.medianCPUMilliseconds, c.kind))
        }
        for (name, why) in r.skipped.sorted(by: { $0.key < $1.key }) { lines.append("  \(name): not built from its defaults: \(why)") }
        lines.append(String(format: "  render: %d-s %dx%d at %d fps (%@), a panned photo-like picture, without and with %@ (A/B/A/B)",
                            r.seconds, r.width, r.height, 30, r.preset, r.chain.joined(separator: " + ")))
        func runs(_ rs: [Run]) -> String { rs.map { String(format: "%.2f s CPU (%.2f s wall)", $0.cpuSeconds, $0.wallSeconds) }.joined(separator: ", ") }
        lines.append("    without filters  \(runs(r.withoutFilters))  (\(r.frames) frames)")
        lines.append("    with filters     \(runs(r.withFilters))")
        lines.append("    all but grain    \(runs(r.withFiltersButGrain))")
        lines.append(String(format: "    filters add %.1f %% to the render's CPU (with − without ÷ without); the chain alone, %.2f ms CPU a frame, is %.1f %% of it",
                            r.addedPercent, r.chainCPUMilliseconds, r.isolatedPercent))
        lines.append(String(format: "    without grain the chain adds %.1f %% (grain's noise is what x264 spends the rest on)", r.addedWithoutGrainPercent))
        let base = r.perRender(r.withoutFilters)
        lines.append(String(format: "    grain adds %.2f s a render: %.2f s its own work (%d frames), %.2f s x264 encoding the noise (%.1f %% of the render without filters)",
                            r.grainSeconds, r.grainKernelSeconds, r.frames, r.grainEncoderSeconds, 100 * r.grainEncoderSeconds / base))
        lines.append("    target < 10 %: \(r.passes ? "PASS" : "FAIL")")
        return lines.joined(separator: "\n")
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys (stable text for the report).
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
}
