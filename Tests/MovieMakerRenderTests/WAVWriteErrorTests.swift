import Foundation
import Testing
@testable import MovieMaker
import MovieMakerTestSupport

/// `writeWAV` keeps a failing sound's own error (it is not the destination's fault) and leaves nothing.
@Suite("WAV write errors")
struct WAVWriteErrorTests {
    struct Broken: Error, Equatable {}

    /// A sound whose reader fails after its first chunk, as a user's own `AudioReader` may.
    final class FailingReader: AudioReader {
        let format: AudioFormat
        var chunks = 0
        init(format: AudioFormat) { self.format = format }
        func read(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) throws {
            chunks += 1
            guard chunks == 1 else { throw Broken() }
            buffer.update(repeating: 0.25, count: frameCount * format.channelCount)
        }
        func willEnd(atFrame frame: Int64) {}
    }

    struct FailingSound: AudioSource {
        var duration: Time? { Time(2) }
        func makeReader(format: AudioFormat) throws -> any AudioReader { FailingReader(format: format) }
    }

    @Test("a sound that fails while written throws its own error, not 'not writable', and leaves no file")
    func soundErrorKeepsItsKind() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("out.wav")
        #expect(throws: Broken.self) { try FailingSound().writeWAV(to: wav) }
        #expect(folder.contents.isEmpty, "\(folder.contents)")
        // An existing file at the destination is left as it was.
        try Data("keep".utf8).write(to: wav)
        #expect(throws: Broken.self) { try FailingSound().writeWAV(to: wav) }
        #expect(try String(contentsOf: wav, encoding: .utf8) == "keep")
    }
}
