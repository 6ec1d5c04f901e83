import Foundation
import Testing
@testable import MovieMaker

/// Reframing's pieces that need no video: aspect ratios, the window's size, its path from a shot's
/// samples, and the `reframe` keys of description files.
@Suite("Reframing: windows, paths and description keys")
struct ReframePathTests {
    static func times(_ n: Int, every step: Int64 = 4) -> [Time] { (0..<n).map { Time(value: Int64($0) * step, timescale: 30) } }

    @Test("aspect ratios are read as W:H and refused, naming the value, outside 1…100")
    func aspects() throws {
        #expect(try Reframe(aspect: "9:16").description == "9:16")
        #expect(try Reframe(aspect: " 4x5 ") == Reframe(aspectWidth: 4, aspectHeight: 5))
        #expect(try Reframe(aspect: " 9 x 16 ") == Reframe(aspectWidth: 9, aspectHeight: 16))
        // Trailing or doubled separators are not read past (`9:17x` was taken as 9:17).
        for bad in ["16", "0:1", "9:160", "a:b", "9:16:1", "", "9:17x", "9::16", ":9:16"] {
            #expect(throws: MovieMakerError.self, "\(bad)") { _ = try Reframe(aspect: bad) }
        }
        do { _ = try Reframe(aspect: "9:0"); Issue.record("accepted 9:0") } catch {
            #expect(error.code == .invalidSetting && error.setting == .reframe && error.message.contains("9:0"))
        }
    }

    @Test("the window is the largest of its shape inside the picture, in even pixels; a whole movie keeps the longer side")
    func windows() throws {
        let vertical = try Reframe(aspect: "9:16")
        #expect(vertical.window(inWidth: 1920, height: 1080) == (606, 1080))
        #expect(vertical.window(inWidth: 640, height: 360) == (202, 360))
        #expect(try Reframe(aspect: "16:9").window(inWidth: 1080, height: 1920) == (1080, 606))
        #expect(try Reframe(aspect: "1:1").window(inWidth: 1280, height: 720) == (720, 720))
        #expect(vertical.frameSize(from: 1920, height: 1080) == (1080, 1920))
        #expect(try Reframe(aspect: "1:1").frameSize(from: 1920, height: 1080) == (1920, 1920))
    }

    @Test("a still subject gives a window that does not move, exactly")
    func stillSubject() {
        // Detections jitter by a few pixels around 500; the window holds still on the first.
        let values: [Double?] = (0..<40).map { (i: Int) -> Double? in 500 + Double((i * 7) % 5) - 2 }
        let path = ReframePath.centers(times: Self.times(40), values: values, side: 1920, window: 606)
        #expect(Set(path).count == 1, "\(Set(path))")
        // No subject at all: the middle.
        #expect(Set(ReframePath.centers(times: Self.times(10), values: [Double?](repeating: nil, count: 10), side: 1920, window: 606)) == [960])
    }

    @Test("a jumping subject is followed no faster than the speed limit, the window stays inside the picture, and a one-sample mistake is ignored")
    func limits() {
        // The subject jumps from the left edge to the right edge halfway; one mistaken sample at 5.
        var values: [Double?] = (0..<60).map { $0 < 30 ? 100 : 1800 }
        values[5] = 1700
        let times = Self.times(60)
        let path = ReframePath.centers(times: times, values: values, side: 1920, window: 606)
        for i in 1..<path.count {
            let limit = ReframePath.maximumSpeed * 1920 * (times[i] - times[i - 1]).seconds
            #expect(abs(path[i] - path[i - 1]) <= limit + 1e-9, "step \(i): \(path[i] - path[i - 1])")
        }
        #expect(path.allSatisfy { $0 >= 303 && $0 <= 1920 - 303 })
        #expect(path[0] == 303 && path[5] == 303, "the mistake at sample 5 moved the window: \(path[0...8])")
        #expect(path.last! == 1920 - 303)
        // Between two samples the centre is linear, after the last it holds.
        let mid = ReframePath.center(at: Time(value: 2, timescale: 30), times: times, centers: path)
        #expect(mid == (path[0] + path[1]) / 2)
        #expect(ReframePath.center(at: Time(value: 1000, timescale: 1), times: times, centers: path) == path.last!)
    }

    static func timeline(video: String, output: String = "") throws -> Timeline {
        try Timeline(jsonText: """
        {"version": 1, "output": {"fps": 30\(output)},
         "tracks": [{"kind": "video", "items": [\(video)]}]}
        """)
    }

    @Test("reframe on a video item and on output reads, writes back the same, sets the frame's shape, and names its JSON path when wrong")
    func descriptionKeys() throws {
        let item = try Self.timeline(video: #"{"type": "video", "source": {"file": "a.mp4"}, "reframe": {"aspect": "9:16"}}"#)
        guard case let .video(video) = item.tracks[0].items[0].content else { Issue.record("not a video"); return }
        #expect(video.reframe?.aspect == (try Reframe(aspect: "9:16")))
        #expect(try Timeline(jsonText: item.jsonText()) == item)
        let short = try Self.timeline(video: #"{"type": "video", "source": {"file": "a.mp4"}, "reframe": "1:1"}"#)
        guard case let .video(v2) = short.tracks[0].items[0].content else { return }
        #expect(v2.reframe?.aspect.description == "1:1")

        let whole = try Self.timeline(video: #"{"type": "video", "source": {"file": "a.mp4"}}"#, output: #", "reframe": {"aspect": "9:16"}"#)
        #expect(whole.output.reframe?.aspect.description == "9:16")
        #expect(whole.output.resolvedSize == Timeline.FrameSize(width: 1080, height: 1920))
        #expect(try Timeline(jsonText: whole.jsonText()) == whole)

        func message(_ video: String, output: String = "") -> String {
            do { _ = try Self.timeline(video: video, output: output); return "no error" } catch { return "\(error)" }
        }
        #expect(message(#"{"type": "video", "source": {"file": "a.mp4"}, "reframe": {"aspect": "9:0"}}"#).contains("tracks[0].items[0].reframe.aspect"))
        #expect(message(#"{"type": "video", "source": {"file": "a.mp4"}, "reframe": {"ratio": "9:16"}}"#).contains("tracks[0].items[0].reframe"))
        #expect(message(#"{"type": "video", "source": {"file": "a.mp4"}, "reframe": 3}"#).contains("tracks[0].items[0].reframe"))
        #expect(message(#"{"type": "video", "source": {"file": "a.mp4"}}"#, output: #", "reframe": "wide""#).contains("output.reframe"))
    }
}
