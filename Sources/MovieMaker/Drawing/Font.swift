import Foundation

/// The first releases' name for `TextFont`, kept so code written for them still compiles.
///
/// Text has one engine, Pango, and one font type: `ctx.font`, `ctx.draw(_:at:font:)` and
/// `ctx.measure(_:font:)` take the same `TextFont` as `TextStyle`, so every script shapes and falls
/// back to other fonts the same way whichever call draws it. `Font(contentsOf:size:)` and
/// `Font.dejaVuSans(size:)` still work (see below).
public typealias Font = TextFont

extension TextFont {
    /// The font in the file at `url` (`.ttf`, `.otf`, `.ttc` face 0) at `size` pixels: the file is
    /// registered with fontconfig, as `TextFont.file(_:size:weight:slant:)` does.
    ///
    /// Throws `.invalidSetting` for a size that is not a positive number of pixels and
    /// `.fontUnreadable` for a missing file or one that is not a font.
    public init(contentsOf url: URL, size: Double) throws(MovieMakerError) {
        guard size > 0, size.isFinite else { throw .invalidSetting(.fontSize, value: "\(size)", expected: "a positive number of pixels") }
        self = try TextFont.file(url, size: size)
    }

    /// DejaVu Sans, the font the set-up script installs, at `size` pixels. Throws `.fontNotFound` when
    /// it is not installed, `.invalidSetting` for a size that is not a positive number of pixels.
    public static func dejaVuSans(size: Double) throws(MovieMakerError) -> TextFont {
        guard size > 0, size.isFinite else { throw .invalidSetting(.fontSize, value: "\(size)", expected: "a positive number of pixels") }
        guard FontLibrary.hasFamily("DejaVu Sans") else {
            throw .fontNotFound(family: "DejaVu Sans", closest: FontLibrary.closestFamilies(to: "DejaVu Sans"))
        }
        return TextFont(family: "DejaVu Sans", size: size)
    }
}
