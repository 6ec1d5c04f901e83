import Foundation
@testable import MovieMaker

/// One overlay item over a dark 1 s colour at 160×120 and 10 fps, rendered: how the item tests compare
/// an item written one way with the same item written another.
enum OverlayFrame {
    /// Frame `index` of a description whose overlay track holds `item` (JSON), with `slots` (a
    /// `"slots": {…},` member, or "") before the tracks.
    static func render(_ item: String, slots: String = "", frame index: Int) throws -> PixelBuffer {
        let composition = try Timeline(jsonText: """
        {"version": 1, "output": {"size": "160x120", "fps": 10}, \(slots)
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "#203040", "duration": "1s"}]},
                    {"kind": "overlay", "items": [\(item)]}]}
        """).composition(Timeline.RenderOptions(drawingThreads: 1))
        return try composition.picture.renderFrames(index..<index + 1, width: composition.width, height: composition.height, rate: composition.frameRate)[0]
    }
}
