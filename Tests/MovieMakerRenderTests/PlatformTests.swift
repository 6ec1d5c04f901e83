import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Platform presets (`output.preset`, `render --for`): each sets what it promises — size, frame rate,
/// keyframes, a bit-rate ceiling no one-second window goes over by more than 10 %, loudness within
/// 1 LU — refuses a movie longer than the platform takes, and keeps titles and captions in its safe area.
@Suite("Platform presets: size, rate, keyframes, bit-rate ceiling, loudness, length limit, safe area")
struct PlatformTests {
    static func description(_ preset: String, fps: String? = nil, duration: String = "2s", extra: String = "") -> String {
        """
        {"version": 1, "output": {"preset": "\(preset)"\(fps.map { ", \"fps\": \($0)" } ?? ""), "encoder": {"preset": "ultrafast"}},
         "tracks": [{"kind": "video", "items": [{"type": "color", "color": "teal", "duration": "\(duration)"}]}\(extra)]}
        """
    }

    @Test("every preset's composition: its size, 30 fps (or a rate it takes), a keyframe every 2 s, its ceiling and -14 LUFS; too long is refused naming the limit")
    func settings() throws {
        let folder = try TemporaryFolder()
        try ProceduralSound(duration: 3) { t in 0.2 * sin(2 * .pi * 440 * t) }.writeWAV(to: folder.file("tone.wav"))
        let music = #", {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}"#
        for platform in Platform.allCases {
            let c = try Timeline(jsonText: Self.description(platform.rawValue, extra: music)).composition(Timeline.RenderOptions(mediaFolder: folder.url))
            #expect(c.width == platform.size.width && c.height == platform.size.height, "\(platform)")
            #expect(c.frameRate == 30 && c.encoderSettings.keyframeInterval == 60)
            #expect(c.encoderSettings.maxBitrate == platform.maxBitrate * 6 / 10 && c.encoderSettings.bufferSize == platform.maxBitrate / 2)
            #expect(c.soundtrack?.loudnessTarget == -14, "\(platform)")
            let tooLong = platform.maximumDuration + Time(1)
            let error = try #require(throws: MovieMakerError.self) {
                _ = try Timeline(jsonText: Self.description(platform.rawValue, duration: "\(tooLong.value)s")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
            }
            #expect(error.location?.jsonPath == "output.preset" && error.message.contains("at most \(platform.maximumDuration.value)"), "\(error)")
        }
        let pal = try Timeline(jsonText: Self.description("youtube", fps: "25")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(pal.frameRate == 25 && pal.encoderSettings.keyframeInterval == 50 && pal.warnings.isEmpty, "a rate YouTube takes is kept")
        let odd = try Timeline(jsonText: Self.description("tiktok", fps: "12")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        #expect(odd.frameRate == 30 && odd.warnings.contains { $0.contains("12") }, "\(odd.warnings)")
    }

    @Test("a busy youtube-shorts render: 1080x1920 at 30 fps, keyframes every 60 frames, no second over 1.1 x the ceiling (it is over it without), -14 LUFS")
    func rendered() throws {
        let folder = try TemporaryFolder()
        try ProceduralSound(duration: 3) { t in 0.05 * sin(2 * .pi * 440 * t) }.writeWAV(to: folder.file("tone.wav"))
        let busy = """
            {"version": 1, "output": {"preset": "youtube-shorts", "encoder": {"preset": "ultrafast"}},
             "tracks": [{"kind": "video", "items": [{"type": "generator", "name": "gradient", "duration": "2.5s", "params": {"rotation": 90}}]},
                        {"kind": "overlay", "items": [{"type": "generator", "name": "confetti", "duration": "2.5s", "params": {"count": 2000, "seed": 3}}]},
                        {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}]}
            """
        let timeline = try Timeline(jsonText: busy)
        let capped = folder.file("shorts.mp4"), uncapped = folder.file("uncapped.mp4")
        try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url)).render(to: capped)
        var plain = timeline
        plain.output.preset = nil
        plain.output.size = Timeline.FrameSize(width: 1080, height: 1920)
        try plain.composition(Timeline.RenderOptions(mediaFolder: folder.url)).render(to: uncapped)

        let video = try FFTools.videoStream(capped)
        #expect(video["width"] as? Int == 1080 && video["height"] as? Int == 1920 && video["r_frame_rate"] as? String == "30/1", "\(video)")
        let keys = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame", "-of", "csv=p=0", capped.path])
        let keyFrames = keys.stdout.split(separator: "\n").enumerated().filter { $0.element.hasPrefix("1") }.map(\.offset)
        #expect(keyFrames == [0, 60], "\(keyFrames)")
        let ceiling = Double(Platform.youtubeShorts.maxBitrate)
        let (cappedPeak, uncappedPeak) = (try Self.peakSecond(capped), try Self.peakSecond(uncapped))
        #expect(cappedPeak <= ceiling * 1.1, "capped: \(cappedPeak) bits in a second")
        #expect(uncappedPeak > ceiling * 1.1, "the content is busy enough to go over the ceiling uncapped: \(uncappedPeak)")
        let r = try run(FFTools.ffmpeg, ["-hide_banner", "-nostats", "-i", capped.path, "-map", "0:a", "-af", "ebur128", "-f", "null", "-"])
        let line = r.stderr.components(separatedBy: "\n").last { $0.trimmingCharacters(in: .whitespaces).hasPrefix("I:") } ?? ""
        let loudness = Double(line.split(separator: " ").dropFirst().first.map { String($0) } ?? "") ?? .nan
        #expect(abs(loudness + 14) <= 1, "loudness \(loudness) LUFS")
    }

    @Test("each preset's render has its size, 30 fps, a keyframe every 60 frames, -14 LUFS and no second over its ceiling", arguments: Platform.allCases)
    func eachPreset(_ platform: Platform) throws {
        let folder = try TemporaryFolder()
        try ProceduralSound(duration: 3) { t in 0.03 * sin(2 * .pi * 440 * t) }.writeWAV(to: folder.file("tone.wav"))
        let json = Self.description(platform.rawValue, duration: "2.5s", extra: #", {"kind": "audio", "items": [{"type": "music", "source": {"file": "tone.wav"}}]}"#)
        let url = folder.file("\(platform.rawValue).mp4")
        try Timeline(jsonText: json).composition(Timeline.RenderOptions(mediaFolder: folder.url)).render(to: url)
        let video = try FFTools.videoStream(url)
        #expect(video["width"] as? Int == platform.size.width && video["height"] as? Int == platform.size.height && video["r_frame_rate"] as? String == "30/1", "\(video)")
        let keys = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame", "-of", "csv=p=0", url.path])
        #expect(keys.stdout.split(separator: "\n").enumerated().filter { $0.element.hasPrefix("1") }.map(\.offset) == [0, 60])
        #expect(try Self.peakSecond(url) <= Double(platform.maxBitrate) * 1.1)
        let r = try run(FFTools.ffmpeg, ["-hide_banner", "-nostats", "-i", url.path, "-map", "0:a", "-af", "ebur128", "-f", "null", "-"])
        let line = r.stderr.components(separatedBy: "\n").last { $0.trimmingCharacters(in: .whitespaces).hasPrefix("I:") } ?? ""
        let loudness = Double(line.split(separator: " ").dropFirst().first.map { String($0) } ?? "") ?? .nan
        #expect(abs(loudness + 14) <= 1, "\(platform): \(loudness) LUFS")
    }

    /// A platform's ceiling on a `.webm` (VP9): libvpx refused a ceiling without a bitrate ("Rate control
    /// parameters set without a bitrate"); it is constrained quality now, the ceiling kept.
    @Test func aPresetsCeilingOnAWebMIsConstrainedQuality() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("promo.webm")
        let composition = try Timeline(jsonText: Self.description("youtube-shorts", duration: "1s")).composition(Timeline.RenderOptions(mediaFolder: folder.url))
        try composition.render(to: url)
        let video = try FFTools.videoStream(url)
        #expect(video["codec_name"] as? String == "vp9", "\(video)")
        #expect(try decodeAll(url).count == 30)
        #expect(try Self.peakSecond(url) <= Double(Platform.youtubeShorts.maxBitrate) * 1.1)
    }

    /// The most video bits in any one-second window (packets by presentation time).
    static func peakSecond(_ url: URL) throws -> Double {
        let r = try run(FFTools.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", url.path])
        let packets = r.stdout.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let f = line.split(separator: ","); guard f.count >= 2, let t = Double(f[0]), let s = Double(f[1]) else { return nil }
            return (t, s * 8)
        }.sorted { $0.0 < $1.0 }
        return packets.map { start in packets.filter { $0.0 >= start.0 && $0.0 < start.0 + 1 - 1e-9 }.map(\.1).reduce(0, +) }.max() ?? 0
    }

    @Test("with tiktok, a title in a split's cell stays inside the part of the safe area the cell holds (a picture-in-picture's main picture: all of it)",
          arguments: ["pip", "1x2"])
    func safeAreaInSplitCells(layout: String) throws {
        let title = #"{"type": "title", "text": "A very long title that wraps across the frame", "layout": "lowerThird", "style": "none", "color": "white"}"#
        let black = #"{"type": "color", "color": "black"}"#
        let cells = layout == "pip" ? "[\(title), \(black)]" : "[\(black), \(title)]"
        let spec = #"{"version": 1, "output": {"preset": "tiktok", "background": "black"}, "tracks": [{"kind": "video", "items": [{"type": "split", "layout": "\#(layout)", "borderWidth": 0, "duration": "2s", "cells": \#(cells)}]}]}"#
        let composition = try Timeline(jsonText: spec).composition(Timeline.RenderOptions(preview: true))
        let pixels = try composition.picture.still(at: Time(1), width: composition.width, height: composition.height).pixels()
        let area = Platform.tiktok.safeArea(width: composition.width, height: composition.height)
        let ink = try #require(inkBox(pixels, threshold: 160), "the title shows")
        #expect(Double(ink.minX) >= area.minX - 1 && Double(ink.maxX) <= area.maxX + 1 && Double(ink.minY) >= area.minY - 1 && Double(ink.maxY) <= area.maxY + 1,
                "ink \(ink) against the safe area \(area)")
    }

    @Test("with tiktok, a lower-third title and bottom captions stay inside its safe area (they do not without it)")
    func safeArea() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(at: CaptionTests.fixtures.appendingPathComponent("talk.whisper.json"), to: folder.file("talk.json"))
        let spec = #"""
            {"version": 1, "output": {"preset": "tiktok", "background": "black", "encoder": {"preset": "ultrafast", "crf": 12}},
             "tracks": [{"kind": "video", "items": [{"type": "color", "color": "black", "duration": "2s"}]},
                        {"kind": "overlay", "items": [{"type": "title", "text": "A very long title that wraps across the frame", "layout": "lowerThird",
                                                       "style": "none", "color": "white", "duration": "2s"},
                                                      {"type": "captions", "source": {"file": "talk.json"}, "color": "white", "highlightColor": "white",
                                                       "outlineColor": "none", "fontSize": 0.08}]}]}
            """#
        for withPreset in [true, false] {
            var timeline = try Timeline(jsonText: spec)
            if !withPreset { timeline.output.preset = nil; timeline.output.size = Timeline.FrameSize(width: 1080, height: 1920) }
            let composition = try timeline.composition(Timeline.RenderOptions(mediaFolder: folder.url, preview: true))
            let url = folder.file("safe-\(withPreset).mp4")
            try composition.render(to: url)
            let frames = try decodeAll(url)
            let area = Platform.tiktok.safeArea(width: composition.width, height: composition.height)
            var inside = true, inked = 0
            for frame in frames.enumerated().filter({ $0.offset % 10 == 5 }).map(\.element) {
                guard let ink = inkBox(frame.pixels, threshold: 160) else { continue }
                inked += 1
                if Double(ink.minX) < area.minX - 1 || Double(ink.maxX) > area.maxX + 1 || Double(ink.minY) < area.minY - 1 || Double(ink.maxY) > area.maxY + 1 {
                    inside = false
                    if withPreset { Issue.record("frame \(frame.index): ink \(ink) outside the safe area \(area)") }
                }
            }
            #expect(inked >= 3, "the title and captions show: \(inked) frames with ink")
            if !withPreset { #expect(!inside, "without the preset the lower third reaches into TikTok's buttons") }
        }
    }
}
