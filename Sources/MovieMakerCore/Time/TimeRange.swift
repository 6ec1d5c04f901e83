import Foundation

/// A span of time: a start and a duration (OpenTimelineIO's TimeRange).
public struct TimeRange: Sendable, Hashable, CustomStringConvertible {
    /// Where the span starts.
    public var start: Time
    /// How long it lasts (not negative).
    public var duration: Time
    /// The span from `start` lasting `duration`.
    public init(start: Time, duration: Time) { self.start = start; self.duration = duration }
    /// The span `range`.
    public init(_ range: Range<Time>) { start = range.lowerBound; duration = range.upperBound - range.lowerBound }
    /// Where the span ends (exclusive).
    public var end: Time { start + duration }
    /// The span as a half-open range.
    public var range: Range<Time> { start..<end }
    /// `[2s, 5s)`.
    public var description: String { "[\(start.seconds)s, \(end.seconds)s)" }
}
