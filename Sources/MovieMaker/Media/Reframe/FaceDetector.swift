internal import CMovieMakerVision
import Foundation

/// A face found in a picture: its box, in that picture's pixels.
struct FaceBox: Hashable, Sendable {
    var x: Int, y: Int, width: Int, height: Int
    /// The box's centre.
    var center: (x: Double, y: Double) { (Double(x) + Double(width) / 2, Double(y) + Double(height) / 2) }
    /// The box's area in pixels.
    var area: Int { width * height }
}

/// Owns one OpenCV cascade face detector (`mm_face_detector_open` … `mm_face_detector_close`).
/// Not thread-safe: each analysis has its own.
final class FaceDetector {
    /// The detector (owned: closed in `deinit`).
    private let pointer: OpaquePointer

    /// The frontal-face Haar cascade Debian's `opencv-data` ships.
    static let modelName = "haarcascade_frontalface_default.xml"
    /// Where distributions put OpenCV's cascades.
    static let modelFolders = ["/usr/share/opencv4/haarcascades", "/usr/share/opencv/haarcascades",
                               "/usr/local/share/opencv4/haarcascades"]

    /// The cascade file: `$MOVIEMAKER_FACE_CASCADE` when set, else the first of `modelFolders` that has it.
    static func modelURL() throws(MovieMakerError) -> URL {
        if let custom = ProcessInfo.processInfo.environment["MOVIEMAKER_FACE_CASCADE"], !custom.isEmpty {
            guard FileManager.default.fileExists(atPath: custom) else {
                throw .analysisUnavailable(what: "reframing", reason: "MOVIEMAKER_FACE_CASCADE names \(custom), which does not exist",
                                           fix: "point it at an OpenCV cascade XML file, or unset it to use opencv-data's")
            }
            return URL(fileURLWithPath: custom)
        }
        for folder in modelFolders {
            let path = folder + "/" + modelName
            if FileManager.default.fileExists(atPath: path) { return URL(fileURLWithPath: path) }
        }
        throw .analysisUnavailable(what: "reframing", reason: "OpenCV's face model \(modelName) is not in \(modelFolders.joined(separator: ", "))",
                                   fix: "install Debian's opencv-data (apt-get install opencv-data, or make deps)")
    }

    /// Loads the cascade at `model`.
    init(model: URL) throws(MovieMakerError) {
        var message = [CChar](repeating: 0, count: 512)
        guard let p = mm_face_detector_open(model.path, &message, message.count) else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .analysisUnavailable(what: "reframing", reason: "OpenCV cannot load the face model \(model.path): \(reason)",
                                       fix: "reinstall opencv-data, or set MOVIEMAKER_FACE_CASCADE to a working cascade file")
        }
        pointer = p
    }

    /// The faces at least `minimumSize` pixels wide in the grey picture at `pixels` (`width`×`height`,
    /// rows `stride` bytes apart), largest first.
    func faces(in pixels: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, minimumSize: Int) throws(MovieMakerError) -> [FaceBox] {
        var found = [mm_face](repeating: mm_face(), count: 16)
        var message = [CChar](repeating: 0, count: 512)
        let n = mm_face_detector_detect(pointer, pixels, Int32(width), Int32(height), Int32(stride), Int32(minimumSize),
                                        &found, Int32(found.count), &message, message.count)
        guard n >= 0 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .analysisUnavailable(what: "reframing", reason: "OpenCV's face detector failed: \(reason)", fix: "report this with the video that caused it")
        }
        return found.prefix(Int(n)).map { FaceBox(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }
    }

    deinit { mm_face_detector_close(pointer) }
}

extension MovieMakerError {
    /// A video analysis (`what`: "reframing") cannot run, for `reason`; `fix` says what to do.
    package static func analysisUnavailable(what: String, reason: String, fix: String) -> MovieMakerError {
        MovieMakerError(code: .analysisUnavailable, message: "\(what) cannot run: \(reason); \(fix)", reason: reason)
    }
}
