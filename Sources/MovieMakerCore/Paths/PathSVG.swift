import Foundation

// SVG path data (the `d` attribute) in and out of `Path`.

extension Path {
    /// Parses SVG path data (the `d` attribute): all commands M L H V C S Q T A Z, absolute and relative,
    /// implicit repeats and compact numbers such as `M10-20.5.5`; elliptical arcs become cubic Béziers.
    /// Throws `MovieMakerError.invalidPathData` naming the position of the first problem.
    public init(svg data: String) throws(MovieMakerError) {
        var parser = PathSVGParser(data)
        self = try parser.parse()
    }

    /// The path as SVG path data with absolute commands (`Path(svg:)` reads it back to the same elements
    /// when the path starts with a move).
    public var svgString: String {
        var parts: [String] = []
        var current: Point?, subpathStart: Point?
        func number(_ v: Double) -> String {
            if v == 0 { return "0" }
            if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
            return "\(v)"
        }
        func pair(_ p: Point) -> String { "\(number(p.x)) \(number(p.y))" }
        func ensureStart(_ p: Point) {   // Cairo's implicit start for a first element that is not a move
            if current == nil { parts.append("M" + pair(p)); current = p; subpathStart = p }
        }
        for element in elements {
            switch element {
            case let .move(p):
                parts.append("M" + pair(p)); current = p; subpathStart = p
            case let .line(p):
                if current == nil { ensureStart(p); continue }
                parts.append("L" + pair(p)); current = p
            case let .quadCurve(p, c):
                ensureStart(c)
                parts.append("Q" + pair(c) + " " + pair(p)); current = p
            case let .curve(p, c1, c2):
                ensureStart(c1)
                parts.append("C" + pair(c1) + " " + pair(c2) + " " + pair(p)); current = p
            case .closeSubpath:
                guard current != nil else { continue }
                parts.append("Z"); current = subpathStart
            }
        }
        return parts.joined()
    }
}

/// A recursive-descent reader of SVG path data, following the grammar of SVG 1.1 section 8.3.9.
package struct PathSVGParser {
    private let source: String
    private let chars: [Character]
    private var index = 0

    /// A parser over `data`.
    package init(_ data: String) { source = data; chars = Array(data) }

    private var atEnd: Bool { index >= chars.count }
    private var peek: Character? { atEnd ? nil : chars[index] }

    private func fail(_ reason: String, at position: Int) -> MovieMakerError {
        .invalidPathData(source, position: position, reason: reason)
    }

    /// The token at `position`, quoted for an error message.
    private func found(at position: Int) -> String {
        guard position < chars.count else { return "the end of the data" }
        var end = position + 1
        let first = chars[position]
        if first.isSVGNumberPart {
            while end < chars.count, end - position < 16, chars[end].isSVGNumberPart || chars[end] == "e" || chars[end] == "E" { end += 1 }
        }
        return "\"\(String(chars[position..<end]))\""
    }

    private mutating func skipWhitespace() {
        while let c = peek, c.isWhitespace { index += 1 }
    }

    /// Skips white space and at most one comma (between two arguments).
    private mutating func skipSeparator() {
        skipWhitespace()
        if peek == "," { index += 1; skipWhitespace() }
    }

    /// Reads one number (optionally preceded by a separator when `separated`) for `what`.
    private mutating func number(_ what: String, command: Character, separated: Bool) throws(MovieMakerError) -> Double {
        if separated { skipSeparator() } else { skipWhitespace() }
        let start = index
        if peek == "+" || peek == "-" { index += 1 }
        var digits = 0
        while let c = peek, c.isASCII, c.isNumber { index += 1; digits += 1 }
        if peek == "." {
            index += 1
            while let c = peek, c.isASCII, c.isNumber { index += 1; digits += 1 }
        }
        guard digits > 0 else {
            throw fail("expected \(what) for '\(command)' but found \(found(at: start))", at: start)
        }
        if peek == "e" || peek == "E" {
            let exponentStart = index
            index += 1
            if peek == "+" || peek == "-" { index += 1 }
            var exponentDigits = 0
            while let c = peek, c.isASCII, c.isNumber { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else {
                throw fail("the exponent of the number \(found(at: start)) has no digits", at: exponentStart)
            }
        }
        guard let value = Double(String(chars[start..<index])), value.isFinite else {
            throw fail("the number \(found(at: start)) is out of range", at: start)
        }
        return value
    }

    /// Reads an arc flag, a single `0` or `1`.
    private mutating func flag(_ what: String, command: Character) throws(MovieMakerError) -> Bool {
        skipSeparator()
        switch peek {
        case "0": index += 1; return false
        case "1": index += 1; return true
        default: throw fail("expected the \(what) (0 or 1) for '\(command)' but found \(found(at: index))", at: index)
        }
    }

    /// Reads the whole data into a path.
    package mutating func parse() throws(MovieMakerError) -> Path {
        var path = Path()
        var command: Character?
        var current = PathVector.zero, subpathStart = PathVector.zero
        var lastCubicControl: PathVector?, lastQuadControl: PathVector?
        var hasNumberBefore = false

        while true {
            skipWhitespace()
            var commandPosition = index
            if hasNumberBefore, peek == "," {
                index += 1
                skipWhitespace()
                guard let c = peek, c.isSVGNumberStart else {
                    throw fail("a comma must be followed by a number, found \(found(at: index))", at: index)
                }
            }
            guard let c = peek else { break }
            if "MmLlHhVvCcSsQqTtAaZz".contains(c) {
                command = c
                index += 1
                hasNumberBefore = false
            } else if c.isSVGNumberStart, let previous = command, previous != "Z", previous != "z" {
                // An implicit repeat: after a move, further pairs are lines.
                command = previous == "M" ? "L" : previous == "m" ? "l" : previous
                commandPosition = index
            } else if c.isSVGNumberStart, command == nil {
                throw fail("path data must start with a move command (M or m) before the number \(found(at: index))", at: index)
            } else if c.isSVGNumberStart {
                throw fail("numbers cannot follow 'Z' without a command; found \(found(at: index))", at: index)
            } else {
                throw fail("\(found(at: index)) is not a path command (M L H V C S Q T A Z or lowercase) or a number", at: index)
            }
            let cmd = command!
            if path.isEmpty, cmd != "M", cmd != "m" {
                throw fail("path data must start with a move command (M or m), not '\(cmd)'", at: commandPosition)
            }
            let relative = cmd.isLowercase
            let origin = relative ? current : .zero
            func point(_ separatedFirst: Bool) throws(MovieMakerError) -> PathVector {
                let x = try number("an x coordinate", command: cmd, separated: separatedFirst)
                let y = try number("a y coordinate", command: cmd, separated: true)
                return origin + PathVector(x, y)
            }
            var cubicControl: PathVector?, quadControl: PathVector?
            switch cmd {
            case "M", "m":
                let p = try point(false)
                path.move(to: Point(pathVector: p)); current = p; subpathStart = p
            case "L", "l":
                let p = try point(false)
                path.line(to: Point(pathVector: p)); current = p
            case "H", "h":
                let x = try number("an x coordinate", command: cmd, separated: false)
                let p = PathVector(relative ? current.x + x : x, current.y)
                path.line(to: Point(pathVector: p)); current = p
            case "V", "v":
                let y = try number("a y coordinate", command: cmd, separated: false)
                let p = PathVector(current.x, relative ? current.y + y : y)
                path.line(to: Point(pathVector: p)); current = p
            case "C", "c":
                let c1 = try point(false), c2 = try point(true), p = try point(true)
                path.curve(to: Point(pathVector: p), control1: Point(pathVector: c1), control2: Point(pathVector: c2))
                current = p; cubicControl = c2
            case "S", "s":
                let c1 = lastCubicControl.map { 2 * current - $0 } ?? current
                let c2 = try point(false), p = try point(true)
                path.curve(to: Point(pathVector: p), control1: Point(pathVector: c1), control2: Point(pathVector: c2))
                current = p; cubicControl = c2
            case "Q", "q":
                let c = try point(false), p = try point(true)
                path.quadCurve(to: Point(pathVector: p), control: Point(pathVector: c))
                current = p; quadControl = c
            case "T", "t":
                let c = lastQuadControl.map { 2 * current - $0 } ?? current
                let p = try point(false)
                path.quadCurve(to: Point(pathVector: p), control: Point(pathVector: c))
                current = p; quadControl = c
            case "A", "a":
                let rx = try number("the x radius", command: cmd, separated: false)
                let ry = try number("the y radius", command: cmd, separated: true)
                let rotation = try number("the x-axis rotation", command: cmd, separated: true)
                let largeArc = try flag("large-arc flag", command: cmd)
                let sweep = try flag("sweep flag", command: cmd)
                let p = try point(true)
                PathSVGParser.appendArc(to: &path, from: current, to: p, radii: PathVector(rx, ry),
                                        rotationDegrees: rotation, largeArc: largeArc, sweep: sweep)
                current = p
            default:   // Z, z
                path.closeSubpath(); current = subpathStart
            }
            lastCubicControl = cubicControl
            lastQuadControl = quadControl
            hasNumberBefore = cmd != "Z" && cmd != "z"
        }
        return path
    }

    /// Appends an SVG elliptical arc as cubic Béziers, converting the endpoint form to the centre form as in
    /// SVG 1.1 appendix F.6.5–F.6.6 (out-of-range radii are scaled up; zero radii give a straight line).
    package static func appendArc(to path: inout Path, from p1: PathVector, to p2: PathVector, radii: PathVector,
                          rotationDegrees: Double, largeArc: Bool, sweep: Bool) {
        guard p1 != p2 else { return }   // F.6.2: identical end points draw nothing
        var rx = abs(radii.x), ry = abs(radii.y)
        guard rx > 0, ry > 0 else { path.line(to: Point(pathVector: p2)); return }
        let phi = rotationDegrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // F.6.5.1: the midpoint difference in the ellipse's axes.
        let h = (p1 - p2) / 2
        let x1 = cosPhi * h.x + sinPhi * h.y, y1 = -sinPhi * h.x + cosPhi * h.y
        // F.6.6.2: scale radii up when no ellipse reaches both points.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
        // F.6.5.2: the centre in the ellipse's axes.
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = denominator > 0 ? (max(0, numerator) / denominator).squareRoot() : 0
        if largeArc == sweep { coefficient = -coefficient }
        let cxPrime = coefficient * rx * y1 / ry, cyPrime = -coefficient * ry * x1 / rx
        // F.6.5.3: the centre in user space.
        let mid = (p1 + p2) / 2
        let center = PathVector(cosPhi * cxPrime - sinPhi * cyPrime + mid.x, sinPhi * cxPrime + cosPhi * cyPrime + mid.y)
        // F.6.5.5–6: start angle and sweep.
        func angle(_ u: PathVector, _ v: PathVector) -> Double { atan2(u.x * v.y - u.y * v.x, u.x * v.x + u.y * v.y) }
        let u = PathVector((x1 - cxPrime) / rx, (y1 - cyPrime) / ry)
        let v = PathVector((-x1 - cxPrime) / rx, (-y1 - cyPrime) / ry)
        let theta1 = angle(PathVector(1, 0), u)
        var delta = angle(u, v)
        if !sweep, delta > 0 { delta -= 2 * .pi }
        if sweep, delta < 0 { delta += 2 * .pi }
        // Map unit-circle cubics through scale(rx, ry), rotate(phi), translate(center).
        func map(_ q: PathVector) -> PathVector {
            let s = PathVector(q.x * rx, q.y * ry)
            return PathVector(cosPhi * s.x - sinPhi * s.y, sinPhi * s.x + cosPhi * s.y) + center
        }
        let pieces = PathArc.unitCircleCubics(startAngle: theta1, sweep: delta)
        for (i, piece) in pieces.enumerated() {
            let end = i == pieces.count - 1 ? p2 : map(piece.end)   // land exactly on the given end point
            path.curve(to: Point(pathVector: end), control1: Point(pathVector: map(piece.control1)),
                       control2: Point(pathVector: map(piece.control2)))
        }
    }
}

extension Character {
    /// True for a character that can start an SVG number.
    fileprivate var isSVGNumberStart: Bool { (isASCII && isNumber) || self == "." || self == "+" || self == "-" }
    /// True for a character inside an SVG number's mantissa.
    fileprivate var isSVGNumberPart: Bool { isSVGNumberStart }
}
