internal import CFFmpeg
internal import CWebP
import Foundation

/// An animated WebP made with libwebp's own `WebPAnimEncoder` (libwebpmux), frame by frame: each frame
/// added at its start in milliseconds and the animation closed at the movie's end, so every frame
/// lasts exactly as long as in the movie (to the millisecond) and the loop count is the one asked for.
///
/// Why not libavcodec's `libwebp_anim`: in FFmpeg 5.1 it truncates timestamps to milliseconds and never
/// tells libwebp where the last frame ends, so libwebp gives it the average frame's length (a 2-second
/// movie came out 1.999 s long), and it always loops forever.
///
/// Owns the `WebPAnimEncoder` (deleted in `deinit`); frames are imported into a `WebPPicture` freed
/// after each add. The encoded frames stay in libwebp's memory until `finish` (the size of the file).
final class WebPAnimationWriter {
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private let width: Int32, height: Int32

    /// A writer of `width`×`height` frames, lossless or at `quality` (0…100), playing `plays` times (0: forever).
    init(width: Int32, height: Int32, lossless: Bool, quality: Int, plays: Int) throws(MovieMakerError) {
        self.width = width; self.height = height
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else {
            throw .encoderUnavailable(name: "libwebp (version mismatch between its header and library)")
        }
        options.anim_params.loop_count = Int32(plays)
        guard let encoder = WebPAnimEncoderNew(width, height, &options) else {
            throw .ffmpeg(operation: "WebPAnimEncoderNew (\(width)×\(height))", code: averrorENOMEM, message: "libwebp could not make an animation encoder")
        }
        self.encoder = encoder
        config.lossless = lossless ? 1 : 0
        config.quality = lossless ? 75 : Float(quality)
        // Sharper RGB → YUV for lossy frames: saturated edges keep their colour (libwebp's `-sharp_yuv`).
        config.use_sharp_yuv = 1
        // Lossless keeps the RGB of transparent pixels too, so frames compare exactly.
        config.exact = lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw .invalidSetting(.webpQuality, value: "\(quality)", expected: "0…100")
        }
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// Adds `frame` (BGRA, straight alpha, the writer's size) starting at `milliseconds`.
    func add(_ frame: UnsafePointer<AVFrame>, at milliseconds: Int) throws(MovieMakerError) {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encoderUnavailable(name: "libwebp") }
        defer { WebPPictureFree(&picture) }
        picture.width = width
        picture.height = height
        picture.use_argb = 1
        guard WebPPictureImportBGRA(&picture, frame.pointee.data.0, frame.pointee.linesize.0) != 0 else {
            throw .ffmpeg(operation: "WebPPictureImportBGRA", code: averrorENOMEM, message: "out of memory")
        }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(milliseconds), &config) != 0 else {
            throw .ffmpeg(operation: "WebPAnimEncoderAdd (frame at \(milliseconds) ms)", code: -1, message: Self.message(encoder))
        }
    }

    /// Ends the animation at `milliseconds` (the movie's end) and writes the file to `path`.
    func finish(endingAt milliseconds: Int, writingTo path: String, destination: String) throws(MovieMakerError) {
        guard WebPAnimEncoderAdd(encoder, nil, Int32(milliseconds), nil) != 0 else {
            throw .ffmpeg(operation: "WebPAnimEncoderAdd (end at \(milliseconds) ms)", code: -1, message: Self.message(encoder))
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw .ffmpeg(operation: "WebPAnimEncoderAssemble", code: -1, message: Self.message(encoder))
        }
        let written = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: data.size, deallocator: .none)
        do {
            try written.write(to: URL(fileURLWithPath: path))
        } catch {
            throw .destinationNotWritable(path: destination, reason: (error as NSError).localizedDescription)
        }
    }

    private static func message(_ encoder: OpaquePointer) -> String {
        WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? "libwebp failed"
    }
}
