import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Frames the clip tree shows to be unchanged are handed to the encoder again instead of being drawn and
/// converted; the movie must be the same file either way.
@Suite("Unchanged frames are reused, and the movie is the same")
struct FrameReuseTests {
    /// Renders `clip` at 320×240, 30 fps, with the reuse on or off; returns the file's bytes and the summary.
    static func render(_ clip: Clip, reuse: Bool, in folder: TemporaryFolder, name: String) throws -> (Data, MovieSummary) {
        var settings = EncoderSettings()
        settings.reusesUnchangedFrames = reuse
        settings.drawingThreads = 2
        let url = folder.file("\(name)-\(reuse ? "on" : "off").mp4")
        let movie = try MovieMaker(url: url, width: 320, height: 240, fps: 30, settings: settings)
        try movie.add(clip)
        let summary = try movie.finish()
        return (try Data(contentsOf: url), summary)
    }

    /// The cases: what each should reuse at least.
    static func cases(in folder: TemporaryFolder) throws -> [(name: String, clip: Clip, reusedAtLeast: Int)] {
        // A title: 0.8 s fade in (the subtitle a little later), a hold, 0.5 s fade out over 3 s.
        let title = try TitleCard("Hold still", subtitle: "a title's hold", duration: 3).clip(width: 320, height: 240)
        // A slideshow without pan and zoom: each photo holds between the crossfades.
        let photos = try [Color.red, .green, .blue].enumerated().map { k, c in try TestPhotos.photo(c, "p\(k).png", in: folder, w: 400, h: 300) }
        var show = Slideshow(photos: photos.map { Slideshow.Photo(url: $0) })
        show.duration = 1
        show.transition = .crossfade(duration: Time(value: 1, timescale: 3))
        show.kenBurns = .off
        let slideshow = try show.clip(width: 320, height: 240)
        // A freeze frame of a video, then the video playing: the freeze holds, the playing part does not.
        let video = try Clip.video(VideoFixtures.movie())
        let paused = Clip.sequence([video.frozen(at: Time(value: 1, timescale: 2), for: 1), video.trimmed(to: 1)], transition: .crossfade(duration: 0.25))
        // A colour under a constant transform and a closure over it: the closure changes every frame.
        let moving = Clip.overlay([Clip.color(.blue, duration: 1), Clip(duration: 1) { ctx, frame in
            ctx.setFill(.white); ctx.fillRect(Rect(x: 10 + 100 * frame.time, y: 10, width: 20, height: 20))
        }])
        // A photo under constant filters: the same picture on every frame.
        let filtered = Clip.photo(photos[0], duration: 1).filtered([.color(.sepia()), .spatial(.vignette())])
        // Grain changes with the frame: nothing is reused.
        let grainy = Clip.photo(photos[1], duration: 1).filtered([.spatial(.grain(amount: 0.2))])
        // Captions: the picture holds between a word's start and end (highlight), and once a word has
        // popped in (pop); karaoke sweeps while a word is spoken.
        let highlighted = Clip.color(.black, duration: 3).captioned(CaptionTests.transcript, style: CaptionStyle(.highlight))
        let popped = Clip.color(.black, duration: 3).captioned(CaptionTests.transcript, style: CaptionStyle(.pop))
        let karaoke = Clip.color(.black, duration: 3).captioned(CaptionTests.transcript, style: CaptionStyle(.karaoke, shadowColor: .gray))
        return [("title", title, 30), ("slideshow", slideshow, 30), ("paused video", paused, 15), ("filtered photo", filtered, 25),
                ("moving", moving, 0), ("grain", grainy, 0), ("highlighted captions", highlighted, 40), ("popping captions", popped, 30),
                ("karaoke captions", karaoke, 20)]
    }

    @Test("a title's hold, a still slideshow, a freeze frame and a drawing that moves: the same file with the reuse on and off")
    func reuseGivesTheSameMovie() throws {
        try VideoFixtures.skipWithoutFFmpeg()
        let folder = try TemporaryFolder()
        for (name, clip, reusedAtLeast) in try Self.cases(in: folder) {
            let (on, summaryOn) = try Self.render(clip, reuse: true, in: folder, name: name)
            let (off, summaryOff) = try Self.render(clip, reuse: false, in: folder, name: name)
            #expect(on == off, "\(name): the movie differs with the reuse on (\(on.count) bytes) and off (\(off.count) bytes)")
            #expect(summaryOff.statistics.framesReused == 0, "\(name)")
            #expect(summaryOn.statistics.framesReused >= reusedAtLeast, "\(name): \(summaryOn.statistics.framesReused) frames reused")
            if reusedAtLeast == 0 { #expect(summaryOn.statistics.framesReused == 0, "\(name): a moving drawing was reused") }
        }
    }

    @Test("which frames repeat the one before comes from the tree: holds yes; entrances, transitions and closures no")
    func theTreeDecides() throws {
        let rate: FrameRate = 30
        let title = try TitleCard("Hi", duration: 3).clip(width: 320, height: 240)
        // Fading in during the first 0.8 s, holding, fading out during the last 0.5 s.
        #expect(!title.repeatsPreviousFrame(5, rate: rate))
        #expect(title.repeatsPreviousFrame(45, rate: rate))
        #expect(!title.repeatsPreviousFrame(88, rate: rate))
        #expect(!title.repeatsPreviousFrame(0, rate: rate))
        let cut = Clip.sequence([Clip.color(.red, duration: 1), Clip.color(.blue, duration: 1)], transition: .crossfade(duration: 0.5))
        #expect(cut.repeatsPreviousFrame(10, rate: rate))
        #expect(!cut.repeatsPreviousFrame(20, rate: rate))      // in the crossfade
        #expect(cut.repeatsPreviousFrame(40, rate: rate))
        let drawn = Clip(duration: 1) { ctx, _ in ctx.clear(.black) }
        #expect(!drawn.repeatsPreviousFrame(10, rate: rate))     // code: not known to hold still
        let delayed = Clip.overlay([Clip.color(.black, duration: 2), Clip.color(.white, duration: 1).delayed(by: 1)])
        #expect(delayed.repeatsPreviousFrame(10, rate: rate))
        #expect(!delayed.repeatsPreviousFrame(30, rate: rate))   // the white one starts
        let red = Clip.color(.red, duration: 1)
        #expect(red.filtered([.color(.grayscale())]).repeatsPreviousFrame(10, rate: rate))
        #expect(!red.filtered([.spatial(.grain())]).repeatsPreviousFrame(10, rate: rate))
        let rising = FilterAmount.keyframes(try KeyframeTrack([Keyframe(time: 0, value: 0), Keyframe(time: 1, value: 0.5)]))
        #expect(!red.filtered([.color(.brightness(rising))]).repeatsPreviousFrame(10, rate: rate))
        #expect(try red.positioned(at: Point(x: 10, y: 10)).repeatsPreviousFrame(10, rate: rate))
        // Captions: "three" is spoken over 600–850 ms (frames 18–25): marked from frame 18, held, unmarked at 26.
        let captions = Clip.captions(CaptionTests.transcript, style: CaptionStyle(.highlight), duration: 3)
        #expect(!captions.repeatsPreviousFrame(18, rate: rate))
        #expect(captions.repeatsPreviousFrame(20, rate: rate))
        #expect(!captions.repeatsPreviousFrame(26, rate: rate))
        let sweeping = Clip.captions(CaptionTests.transcript, style: CaptionStyle(.karaoke), duration: 3)
        #expect(!sweeping.repeatsPreviousFrame(20, rate: rate))   // mid-sweep
        #expect(sweeping.repeatsPreviousFrame(27, rate: rate))    // "three" done, "four." not yet
    }
}
