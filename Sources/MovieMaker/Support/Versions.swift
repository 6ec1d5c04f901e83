internal import CCairo
internal import CFFmpeg
internal import CFreeType
internal import CX264

/// The C libraries MovieMaker runs with, for bug reports and benchmark headers.
package struct LibraryVersions: Sendable, Equatable, CustomStringConvertible {
    /// Cairo's version at run time, e.g. `1.16.0`.
    package let cairo: String
    /// libavcodec's version at run time, e.g. `59.37.100`.
    package let libavcodec: String
    /// libavformat's version at run time.
    package let libavformat: String
    /// libswscale's version at run time.
    package let libswscale: String
    /// The x264 API build the headers declare (`X264_BUILD`); libavcodec's `libx264` links the same library.
    package let x264Build: Int
    /// FreeType's version at compile time.
    package let freetype: String
    /// Whether this FFmpeg build has the `libx264` encoder.
    package let hasLibx264: Bool

    /// The versions on this machine now.
    package static var current: LibraryVersions {
        func dotted(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)" }
        return LibraryVersions(
            cairo: String(cString: cairo_version_string()),
            libavcodec: dotted(avcodec_version()), libavformat: dotted(avformat_version()), libswscale: dotted(swscale_version()),
            x264Build: Int(X264_BUILD),
            freetype: "\(FREETYPE_MAJOR).\(FREETYPE_MINOR).\(FREETYPE_PATCH)",
            hasLibx264: avcodec_find_encoder_by_name("libx264") != nil)
    }

    /// One line, e.g. `cairo 1.16.0, libavcodec 59.37.100 (libx264 yes), libavformat …, x264 build 164, FreeType 2.12.1`.
    package var description: String {
        "cairo \(cairo), libavcodec \(libavcodec) (libx264 \(hasLibx264 ? "yes" : "missing")), libavformat \(libavformat), libswscale \(libswscale), x264 build \(x264Build), FreeType \(freetype)"
    }
}

extension MovieMaker {
    /// MovieMaker's release number (semantic versioning), the one place it is written: `moviemaker
    /// --version` prints it, and CHANGELOG.md's newest entry names it (a test checks both).
    public static let version = "0.3.0"
}
