import Foundation

/// How a transition is drawn: families of small values, one per way of drawing, each holding only what
/// varies within it (a direction, a corner, a mask's shape). `Transition.Kind.effect` maps each kind —
/// xfade's names are read into kinds by `Transition(xfadeName:)` — to one; the renderer
/// (`TransitionRenderer`) draws effects and never looks at names.
enum TransitionEffect {
    /// A and B mixed: at one weight everywhere (a crossfade), or per pixel (a dissolve, a mask).
    case mix(Mix)
    /// A, then B, through a colour at the midpoint.
    case fadeThrough(Color)
    /// An edge crossing the frame towards `direction` (see `EdgeMotion`).
    case edge(EdgeMotion, Transition.Direction)
    /// A shrinking into a corner over B.
    case cornerWipe(Transition.Corner)
    /// The picture (A, then B) in a shape that closes and reopens, on black.
    case crop(CropShape)
    /// A squashed about the centre (into rows, or into columns), B around it.
    case squeeze(intoRows: Bool)
    /// A zoomed into while B fades in (inward), or B zoomed out of over A.
    case zoom(inward: Bool)
    /// Drawn by a program's closure, from both pictures and the eased progress.
    case custom(@Sendable (TransitionFrames, Double) throws -> Void)

    /// How A and B are mixed.
    enum Mix {
        /// One weight for every pixel: a crossfade.
        case constant
        /// Each pixel switches at its own random moment, from `seed`.
        case dissolve(seed: UInt64)
        /// B's share per pixel from a shape.
        case mask(MaskShape)
    }

    /// What moves as the edge crosses.
    enum EdgeMotion: Equatable {
        /// Nothing: B is uncovered in place.
        case wipe
        /// Both: B pushes A out.
        case slide
        /// B, sliding in over A.
        case cover
        /// A, sliding off B.
        case reveal
    }

    /// The shape a crop closes to.
    enum CropShape: Equatable { case circle, rectangle }
}

/// B's share at each pixel for the mixing transitions, as xfade computes it.
enum MaskShape {
    /// A soft edge crossing towards the direction.
    case smooth(Transition.Direction)
    /// A soft circle from the centre, growing (open) or shrinking.
    case circle(open: Bool)
    /// A soft vertical band from the centre line, opening or closing.
    case vertical(open: Bool)
    /// A soft horizontal band from the centre line, opening or closing.
    case horizontal(open: Bool)
    /// A soft diagonal front from the corner.
    case diagonal(Transition.Corner)
    /// A sweep around the centre, from straight down.
    case radial
    /// Ten blinds whose edges follow a soft front towards the direction.
    case slices(Transition.Direction)

    /// Writes B's share (0…255) for every pixel of a `width`×`height` A8 buffer, with xfade's progress
    /// `P` (1 at the start, 0 at the end).
    func fill(xfadeProgress P: Double, data: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int) {
        let smoothstep = TransitionRenderer.smoothstep, byte = TransitionRenderer.byte, fastAtan2 = TransitionRenderer.fastAtan2
        let W = Double(width), H = Double(height)
        /// The same share down each column.
        func columns(_ share: (Int) -> Double) {
            let row = data
            for x in 0..<width { row[x] = byte(share(x)) }
            for y in 1..<max(height, 1) { (data + y * stride).update(from: row, count: width) }
        }
        /// The same share along each row.
        func rows(_ share: (Int) -> Double) {
            for y in 0..<height { (data + y * stride).update(repeating: byte(share(y)), count: width) }
        }
        /// xfade's blinds: ten slices whose edges follow a soft front.
        func slice(_ f: Double) -> Double {
            let front = smoothstep(-0.5, 0, f - P * 1.5)
            let fraction = 10 * f - (10 * f).rounded(.down)
            return front <= fraction ? 0 : 1
        }
        switch self {
        case let .smooth(d):
            switch d {
            case .left: columns { x in smoothstep(0, 1, 1 + Double(x) / W - 2 * P) }
            case .right: columns { x in smoothstep(0, 1, 1 + (W - 1 - Double(x)) / W - 2 * P) }
            case .up: rows { y in smoothstep(0, 1, 1 + Double(y) / H - 2 * P) }
            case .down: rows { y in smoothstep(0, 1, 1 + (H - 1 - Double(y)) / H - 2 * P) }
            }
        case .vertical(open: true): columns { x in smoothstep(0, 1, 2 - abs((Double(x) - W / 2) / (W / 2)) - 2 * P) }
        case .vertical(open: false): columns { x in smoothstep(0, 1, 1 + abs((Double(x) - W / 2) / (W / 2)) - 2 * P) }
        case .horizontal(open: true): rows { y in smoothstep(0, 1, 2 - abs((Double(y) - H / 2) / (H / 2)) - 2 * P) }
        case .horizontal(open: false): rows { y in smoothstep(0, 1, 1 + abs((Double(y) - H / 2) / (H / 2)) - 2 * P) }
        case let .slices(d):
            switch d {
            case .left: columns { x in slice(Double(x) / W) }
            case .right: columns { x in slice((W - 1 - Double(x)) / W) }
            case .up: rows { y in slice(Double(y) / H) }
            case .down: rows { y in slice((H - 1 - Double(y)) / H) }
            }
        case let .circle(open):
            // Distance from the centre over the half diagonal, shifted by progress, through smoothstep.
            let z = hypot(Double(width / 2), Double(height / 2))
            let shift = open ? (P - 0.5) * 3 : (0.5 - P) * 3
            // Measured from pixel indices to the integer centre, as xfade does.
            // The share depends on the distance alone: tabulate it every quarter pixel of distance
            // (up to the farthest corner), so each pixel costs one square root and one lookup.
            let cx = Float(width / 2), cy = Float(height / 2)
            let steps: Float = 4
            let farthest = hypot(Double(max(cx, Float(width) - cx)), Double(max(cy, Float(height) - cy)))
            let table = (0...Int(farthest * Double(steps)) + 1).map { i -> UInt8 in
                let s = smoothstep(0, 1, Double(i) / Double(steps) / z + shift)
                return byte(open ? 1 - s : s)
            }
            let dx2 = (0..<width).map { x -> Float in let d = Float(x) - cx; return d * d }
            // Symmetric about the centre pixel: rows (columns) 2·c − i equal rows (columns) i.
            let ci = width / 2, cj = height / 2
            table.withUnsafeBufferPointer { lut in
                dx2.withUnsafeBufferPointer { dx2 in
                    for y in 0..<height {
                        let row = data + y * stride
                        if y > cj { row.update(from: data + (2 * cj - y) * stride, count: width); continue }
                        let dy = Float(y) - cy, dy2 = dy * dy
                        for x in 0...min(ci, width - 1) {
                            row[x] = lut[Int((dx2[x] + dy2).squareRoot() * steps + 0.5)]
                        }
                        if ci + 1 < width { for x in (ci + 1)..<width { row[x] = row[2 * ci - x] } }
                    }
                }
            }
        case let .diagonal(corner):
            let right = corner == .topRight || corner == .bottomRight
            let bottom = corner == .bottomLeft || corner == .bottomRight
            for y in 0..<height {
                let fy = bottom ? (H - 1 - Double(y)) / H : Double(y) / H
                let row = data + y * stride
                for x in 0..<width {
                    let fx = right ? (W - 1 - Double(x)) / W : Double(x) / W
                    row[x] = byte(smoothstep(0, 1, 1 + fx * fy - 2 * P))
                }
            }
        case .radial:
            // The angle of each pixel around the centre, measured from straight down, swept by progress.
            let sweep = Float((P - 0.5) * (.pi * 2.5))
            for y in 0..<height {
                let dy = Float(y - height / 2)
                let row = data + y * stride
                for x in 0..<width {
                    let t = min(max(fastAtan2(Float(x - width / 2), dy) - sweep, 0), 1)
                    row[x] = UInt8(t * t * (3 - 2 * t) * 255 + 0.5)
                }
            }
        }
    }
}

extension Transition.Kind {
    /// How the kind is drawn.
    var effect: TransitionEffect {
        switch self {
        case .fade: .mix(.constant)
        case let .fadeThrough(color): .fadeThrough(color)
        case let .wipe(d): .edge(.wipe, d)
        case let .slide(d): .edge(.slide, d)
        case let .cover(d): .edge(.cover, d)
        case let .reveal(d): .edge(.reveal, d)
        case let .wipeCorner(c): .cornerWipe(c)
        case let .smooth(d): .mix(.mask(.smooth(d)))
        case .zoomIn: .zoom(inward: true)
        case .zoomOut: .zoom(inward: false)
        case .circleOpen: .mix(.mask(.circle(open: true)))
        case .circleClose: .mix(.mask(.circle(open: false)))
        case .circleCrop: .crop(.circle)
        case .rectCrop: .crop(.rectangle)
        case .verticalOpen: .mix(.mask(.vertical(open: true)))
        case .verticalClose: .mix(.mask(.vertical(open: false)))
        case .horizontalOpen: .mix(.mask(.horizontal(open: true)))
        case .horizontalClose: .mix(.mask(.horizontal(open: false)))
        case let .diagonal(c): .mix(.mask(.diagonal(c)))
        case .radial: .mix(.mask(.radial))
        case let .slices(d): .mix(.mask(.slices(d)))
        case .squeezeHorizontal: .squeeze(intoRows: true)
        case .squeezeVertical: .squeeze(intoRows: false)
        case let .dissolve(seed): .mix(.dissolve(seed: seed))
        case let .custom(_, draw): .custom(draw)
        }
    }
}
