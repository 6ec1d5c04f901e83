import Foundation

extension Clip {
    /// A transparent clip lasting `duration` that shows `track`'s cues, each during [start, end) of the
    /// clip's own time: a cue is on frame k iff `start <= k / fps < end`, decided from the frame's exact
    /// time. Cues are drawn in `style` inside its safe area, laid out for the frame's size; put the clip
    /// over a picture with `Clip.overlay`, or use `subtitled(_:style:)`.
    ///
    /// A font that is not installed or a style value out of range fails the render at the first frame
    /// with a cue (`.fontNotFound`, `.invalidSetting`).
    public static func subtitles(_ track: SubtitleTrack, style: SubtitleStyle = .init(), duration: Time) -> Clip {
        precondition(duration >= .zero, "a clip's duration cannot be negative, got \(duration)")
        return Clip(.generator(.subtitles(SubtitleLeaf(track: track, style: style)), duration: duration))
    }

    /// This clip with `track`'s subtitles burned in over its whole duration (cue times in this clip's
    /// time); cues after its end are not shown.
    public func subtitled(_ track: SubtitleTrack, style: SubtitleStyle = .init()) -> Clip {
        Clip.overlay(self, Clip.subtitles(track, style: style, duration: duration))
    }
}
