import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// Render statistics are counted per render and come back in the movie's summary (issue 34, item 6):
/// two movies rendered at the same time do not mix their figures, as process-wide counters did.
@Suite("render statistics, per movie")
struct RenderStatisticsTests {
    @Test("a slideshow's summary counts its photos' decodes; a movie rendered at the same time without photos counts none")
    func statisticsBelongToTheirMovie() async throws {
        let folder = try TemporaryFolder()
        let colors: [Color] = [.red, .green, .blue, .white]
        let urls = try colors.enumerated().map { try TestPhotos.photo($0.element, "p\($0.offset).png", in: folder) }
        var show = Slideshow(photos: urls.map { Slideshow.Photo(url: $0) })
        show.duration = 1
        show.kenBurns = .off
        let clip = try show.clip(width: 160, height: 120)
        let showURL = folder.file("show.mp4"), plainURL = folder.file("plain.mp4")
        async let showSummary: MovieSummary = {
            let movie = try MovieMaker(url: showURL, width: 160, height: 120, fps: 20)
            try movie.add(clip)
            return try movie.finish()
        }()
        async let plainSummary: MovieSummary = {
            let movie = try MovieMaker(url: plainURL, width: 160, height: 120, fps: 20)
            try movie.add(Clip.color(.gray, duration: 3))
            return try movie.finish()
        }()
        let (s, p) = try await (showSummary, plainSummary)
        let decoded = s.statistics.photosDecodedAhead + s.statistics.photosDecodedOnDrawingThreads
        #expect(decoded >= colors.count, "four photos shown, \(decoded) decodes counted: \(s.statistics)")
        // No photo figures; its grey frames, all the same, are drawn first and last and reused between.
        #expect(p.statistics == RenderStatistics(framesReused: 58), "the movie without photos counted \(p.statistics)")
        #expect(s.frameCount == 80 && p.frameCount == 60)
    }

    @Test("merging keeps the larger decoder peak and adds the rest")
    func merging() {
        let a = RenderStatistics(photoWaitSeconds: 0.5, photoWaits: 2, photosDecodedOnDrawingThreads: 1, photosDecodedAhead: 3, peakOpenVideoDecoders: 2)
        let b = RenderStatistics(photoWaitSeconds: 0.25, photoWaits: 1, photosDecodedOnDrawingThreads: 0, photosDecodedAhead: 4, peakOpenVideoDecoders: 1)
        #expect(a.merged(with: b) == RenderStatistics(photoWaitSeconds: 0.75, photoWaits: 3, photosDecodedOnDrawingThreads: 1,
                                                      photosDecodedAhead: 7, peakOpenVideoDecoders: 2))
    }

    @Test("statistics written before the frame counts existed still decode, with the counts 0; new ones round-trip")
    func decodesOlderJSON() throws {
        let old = #"{"photoWaitSeconds": 0.5, "photoWaits": 2, "photosDecodedOnDrawingThreads": 1, "photosDecodedAhead": 3, "peakOpenVideoDecoders": 2}"#
        let decoded = try JSONDecoder().decode(RenderStatistics.self, from: Data(old.utf8))
        #expect(decoded == RenderStatistics(photoWaitSeconds: 0.5, photoWaits: 2, photosDecodedOnDrawingThreads: 1, photosDecodedAhead: 3,
                                            peakOpenVideoDecoders: 2))
        let now = RenderStatistics(photoWaits: 1, framesReused: 4, framesPassedThrough: 9)
        #expect(try JSONDecoder().decode(RenderStatistics.self, from: JSONEncoder().encode(now)) == now)
    }
}
