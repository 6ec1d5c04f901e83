import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

// What `make bench`'s slideshow lines led to: photos decoded near the size they are shown at, and
// each photo of a show decoded once.
@Suite("PhotoProvider")
struct PhotoProviderTests {
    /// A `width`×`height` image of the four quadrants (red, green / blue, white).
    static func quadrants(width: Int, height: Int) throws -> Image {
        let canvas = try Canvas(width: width, height: height)
        try canvas.draw { ctx in
            let w = Double(width) / 2, h = Double(height) / 2
            for (color, x, y) in [(Color.red, 0.0, 0.0), (Color(red: 0, green: 1, blue: 0), w, 0), (Color.blue, 0, h), (Color.white, w, h)] {
                ctx.setFill(color)
                ctx.fillRect(Rect(x: x, y: y, width: w, height: h))
            }
        }
        return try canvas.makeImage()
    }

    @Test("a JPEG needed at 3/8 of its size is decoded at 3/8 by DCT scaling, not at 4/8")
    func jpegDecodesAtThreeEighths() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("large.jpg")
        try FixtureJPEG.largeQuadrants(width: 1600, height: 1200).write(to: url)
        let photo = try PhotoDecoder.decode(url, scaling: .filling(Size(width: 600, height: 450)))
        #expect(photo.image.width == 600 && photo.image.height == 450, "decoded \(photo.image.width)×\(photo.image.height)")
        expectQuadrants(pixels(photo), tolerance: 24, "3/8")
    }

    @Test("a JPEG more than 3 % larger than needed after DCT scaling is averaged down while decoding: the size needed, the same picture")
    func jpegReducedWhileDecoding() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("gradient.jpg")
        // Smooth gradients with a few hard edges, 800×600 (decoded at 8/8: 1/4 would be too small).
        let picture = RGBAPicture(width: 800, height: 600) { x, y in
            let band: UInt8 = (x / 100 + y / 75) % 2 == 0 ? 40 : 0
            return (UInt8(x * 255 / 799), UInt8(y * 255 / 599) &- band, UInt8((x + y) * 255 / 1398), 255)
        }
        try FixtureJPEG.data(picture).write(to: url)
        let box = Size(width: 660, height: 480)              // covering it takes 0.825 of the photo
        let reduced = try PhotoDecoder.decode(url, scaling: .filling(box))
        #expect(reduced.image.width == 660 && reduced.image.height == 495, "decoded \(reduced.image.width)×\(reduced.image.height)")
        // The reference: the whole photo decoded, then shrunk by Cairo as before.
        let whole = try PhotoDecoder.decode(url, scaling: .fullSize)
        #expect(whole.image.width == 800)
        let reference = try PhotoProvider.reduced(whole.image, to: box, covering: true)
        #expect(reference.width == 660 && reference.height == 495)
        let a = pixels(reduced), b = PixelBuffer(surface: reference.surface, width: reference.width, height: reference.height)
        var total = 0, worst = 0
        for i in a.bytes.indices { let d = abs(Int(a.bytes[i]) - Int(b.bytes[i])); total += d; worst = max(worst, d) }
        let mean = Double(total) / Double(a.bytes.count)
        #expect(mean <= 1.0, "mean difference \(mean) levels (worst \(worst))")
        #expect(a.rgba(x: 10, y: 10).alpha == 255 && a.rgba(x: 659, y: 494).alpha == 255)
        // The far corners keep their colours: nothing is lost or shifted at the edges.
        #expect(abs(Int(a.rgba(x: 659, y: 0).red) - 255) <= 6 && abs(Int(a.rgba(x: 0, y: 494).green) - 255) <= 6)
    }

    @Test("a photo more than 1/0.97 larger than it is drawn is reduced once to cover (or fit) the box; others are kept")
    func largePhotosAreReduced() throws {
        let image = try Self.quadrants(width: 400, height: 300)
        let covering = try PhotoProvider.reduced(image, to: Size(width: 100, height: 100), covering: true)
        #expect(covering.width == 134 && covering.height == 100, "covering \(covering.width)×\(covering.height)")
        expectQuadrants(PixelBuffer(surface: covering.surface, width: covering.width, height: covering.height), tolerance: 8, "covering")
        let fitting = try PhotoProvider.reduced(image, to: Size(width: 100, height: 100), covering: false)
        #expect(fitting.width == 100 && fitting.height == 75, "fitting \(fitting.width)×\(fitting.height)")
        // Between 3/4 and 0.97 of it (a 2560×1440 photo for 1080p with a 10 % zoom): reduced too.
        let slightly = try PhotoProvider.reduced(image, to: Size(width: 330, height: 240), covering: true)
        #expect(slightly.width == 330 && slightly.height == 248, "slightly \(slightly.width)×\(slightly.height)")
        // Within 1/0.97 of the box: drawn as it is (Cairo's bilinear path), not copied.
        #expect(try PhotoProvider.reduced(image, to: Size(width: 392, height: 294), covering: true) === image)
    }

    /// A store of `count` small red photos (64×48, for 64×48 frames) in `folder`, for `threads` drawing threads.
    static func smallStore(_ count: Int, in folder: TemporaryFolder, threads: Int = 1, inFlight: FramesInFlight? = nil) throws -> (PhotoProvider, [URL]) {
        let urls = try (0..<count).map { try TestPhotos.photo(.red, "p\($0).png", in: folder, w: 64, h: 48) }
        return (PhotoProvider(urls: urls, target: Size(width: 64, height: 48), decodeSizes: urls.map { _ in Size(width: 64, height: 48) }, framing: .cover,
                           drawingThreads: threads, inFlight: inFlight), urls)
    }

    @Test("a show played in order decodes each photo once, reads the next ahead, and keeps at most `capacity` photos")
    func eachPhotoIsDecodedOnce() throws {
        let folder = try TemporaryFolder()
        let (store, urls) = try Self.smallStore(8, in: folder, threads: 2)
        // The clip's pattern: during a transition both photos are drawn, and each asks for read-ahead.
        var movieFrame = 0
        var most = 0
        func frame(_ shown: [Int]) throws {
            for i in shown {
                _ = try store.image(at: i, frame: movieFrame)
                store.prefetch(after: i, count: urls.count)
                most = max(most, store.heldCount)
            }
            store.waitForReadAhead()
            movieFrame += 1
        }
        var readAhead = 0
        for i in urls.indices {
            // Each photo after the first was read ahead, before a frame first asked for it.
            if i > 0, store.cachedIndices.contains(i) { readAhead += 1 }
            if i > 0 { for _ in 0..<6 { try frame([i - 1, i]) } }
            for _ in 0..<(store.idleFrames + 8) { try frame([i]) }
        }
        #expect(most <= PhotoProvider.capacity, "\(most) photos held at once")
        #expect(store.decodes == urls.count, "\(store.decodes) decodes for \(urls.count) photos")
        #expect(readAhead == urls.count - 1)
    }

    @Test("a read-ahead drops an idle photo before it decodes, never one a frame still in flight may ask for")
    func readAheadMakesRoomBeforeDecoding() throws {
        let folder = try TemporaryFolder()
        let (store, urls) = try Self.smallStore(5, in: folder, threads: 2)
        // A transition from photo 0 to photo 1 at frames 10…14, then photo 1 alone.
        for f in 10...14 { _ = try store.image(at: 0, frame: f); _ = try store.image(at: 1, frame: f) }
        _ = try store.image(at: 1, frame: 15)
        store.prefetch(after: 1, count: urls.count)
        // Photo 0 was used 1 frame ago: a drawing thread may still be on frame 14, so it stays.
        #expect(store.cachedIndices == [0, 1] && store.heldCount == 2)
        let idle = 14 + store.idleFrames + 1
        _ = try store.image(at: 1, frame: idle)
        store.prefetch(after: 1, count: urls.count)     // photo 2 read ahead: photo 0 goes first
        #expect(store.heldCount <= PhotoProvider.capacity, "\(store.heldCount) photos held while photo 2 decodes")
        #expect(!store.cachedIndices.contains(0))
        store.waitForReadAhead()
        #expect(store.cachedIndices == [1, 2] && store.decodes == 3)
    }

    @Test("in a scheduled render a photo goes as soon as no frame being drawn can still ask for it")
    func photoGoesWhenNoFrameInFlightCanAskForIt() throws {
        let folder = try TemporaryFolder()
        let inFlight = FramesInFlight()
        let (store, urls) = try Self.smallStore(4, in: folder, threads: 2, inFlight: inFlight)
        // A transition from photo 0 to photo 1 at frames 10…14; frames 10…13 are drawn.
        for f in 10...13 { inFlight.begin(f); _ = try store.image(at: 0, frame: f); _ = try store.image(at: 1, frame: f); inFlight.end(f) }
        // Frame 14 is taken by one thread but has not asked yet; another draws frame 15 (photo 1 alone).
        inFlight.begin(14)
        inFlight.begin(15)
        _ = try store.image(at: 1, frame: 15)
        store.prefetch(after: 1, count: urls.count)
        store.waitForReadAhead()
        #expect(store.cachedIndices == [0, 1], "photo 0 kept for frame 14: \(store.cachedIndices.sorted())")
        _ = try store.image(at: 0, frame: 14); _ = try store.image(at: 1, frame: 14)
        inFlight.end(14); inFlight.end(15)
        #expect(inFlight.oldest == 16)
        // Frame 16: nothing before it is being drawn, so photo 0 (last asked for by frame 14) goes at once.
        inFlight.begin(16)
        _ = try store.image(at: 1, frame: 16)
        store.prefetch(after: 1, count: urls.count)
        store.waitForReadAhead()
        inFlight.end(16)
        #expect(store.cachedIndices == [1, 2] && store.decodes == 3, "\(store.cachedIndices.sorted()), \(store.decodes) decodes")
    }

    @Test("outside a render (no frames), the photo behind the one asked for goes first, not the least recently used")
    func photosBehindAreEvictedFirst() throws {
        let folder = try TemporaryFolder()
        let (store, _) = try Self.smallStore(4, in: folder)
        _ = try store.image(at: 1)
        _ = try store.image(at: 2)          // then used least recently of the two (as a photo read ahead is):
        _ = try store.image(at: 1)
        #expect(store.cachedIndices == [1, 2])
        _ = try store.image(at: 3)          // by recency photo 2 would go; 1 is behind and goes
        #expect(store.cachedIndices == [2, 3], "kept \(store.cachedIndices.sorted())")
    }
}
