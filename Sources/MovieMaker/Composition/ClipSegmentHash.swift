import Foundation

extension Clip {
    /// A hash (hex SHA-256) of what the clip shows during `window` (its own time), from the tree alone:
    /// every leaf drawn in the window (`leaves(in:)`) with where it is drawn and which part of its own
    /// time it shows, and every node above it on the way from the root — its own parameters (a filter,
    /// a transform, a time map, a track's transitions and item lengths, a split's layout), its children
    /// stood in for by empty clips of their lengths. Two windows, of this tree or of an edited one, hash
    /// the same when they show the same leaves the same way; a change to a leaf outside the window
    /// (a title's text a minute later) leaves it alone.
    ///
    /// Used by incremental renders to name the segments of a movie, so only the segments whose hash
    /// changed are rendered again. Throws `.notEncodable` when a leaf or node drawn in the window cannot
    /// be hashed (a drawing closure), as `contentHash()` does.
    package func segmentHash(in window: Range<Time>) throws -> String {
        var lines = ["moviemaker segment 1", "window \(window.upperBound - window.lowerBound)", "duration \(duration)"]
        var nodeHashes: [[Int]: String] = [:]
        /// The hash of the node at `path` with its children stood in for.
        func nodeHash(_ path: [Int]) throws -> String {
            if let known = nodeHashes[path] { return known }
            var clip = self
            for index in path {
                let children = clip.node.children
                // A slideshow's path continues into its photos, which `leaves(in:)` does not visit.
                guard index < children.count else { break }
                clip = children[index]
            }
            let hash = try clip.strippedOfChildren().contentHash()
            nodeHashes[path] = hash
            return hash
        }
        for placement in leaves(in: window) {
            var line = "leaf \(placement.path) at \(placement.range.start - window.lowerBound) for \(placement.range.duration) from \(placement.localStart): \(try placement.clip.contentHash())"
            for depth in 0..<placement.path.count {
                line += " / \(try nodeHash(Array(placement.path.prefix(depth))))"
            }
            lines.append(line)
        }
        var hash = SHA256()
        hash.update(Data(lines.joined(separator: "\n").utf8))
        return hash.hexDigest()
    }

    /// This node with each child replaced by an empty clip of the child's length: its own parameters,
    /// not its children's.
    func strippedOfChildren() -> Clip {
        func empty(_ child: Clip) -> Clip { Clip.empty(duration: child.duration) }
        var copy: Clip
        switch node {
        case .generator, .media:
            return self
        case let .sequence(track):
            copy = Clip(.sequence(Track(track.items.map(empty), transitions: track.requestedTransitions, audioCrossfade: track.audioCrossfade)))
        case let .stack(clips):
            copy = Clip(.stack(clips.map(empty)))
        case let .timeMap(map, child):
            copy = Clip(.timeMap(map, empty(child)))
        case let .filtered(filters, child):
            copy = Clip(.filtered(filters, empty(child)))
        case let .transformed(transform, child):
            copy = Clip(.transformed(transform, empty(child)))
        case let .masked(child, mask, mode):
            copy = Clip(.masked(empty(child), mask: empty(mask), mode))
        case let .split(split):
            var stripped = split
            stripped.cells = split.cells.map { var c = $0; c.clip = empty($0.clip); return c }
            copy = Clip(.split(stripped))
        }
        return copy
    }
}
