internal import CPango
import Foundation

/// A font request: an installed family (looked up by fontconfig), a size in pixels, a weight and a slant.
///
/// The family must be installed (see `FontLibrary`); laying out text with an unknown family throws
/// `.fontNotFound` instead of silently using another font. Characters the family lacks (emoji, CJK
/// inside Latin text …) are still drawn with fontconfig's fallback fonts.
///
/// As data: `{"family": "DejaVu Sans", "size": 40, "weight": "bold", "slant": "italic"}`, and `"file"` (a
/// path) for a font made by `file(_:size:weight:slant:)`, which is registered again when decoded.
public struct TextFont: Sendable, Hashable {
    /// Family name, e.g. "DejaVu Sans", a generic name ("sans", "serif", "monospace"), or a comma-separated list.
    public var family: String
    /// The em size in pixels (independent of any resolution setting).
    public var size: Double
    /// Stroke weight.
    public var weight: FontWeight
    /// Upright or slanted.
    public var slant: FontSlant
    /// The font file `family` was registered from, for a font made by `file(_:size:weight:slant:)`
    /// (kept so the font can be written as data and registered again when read back); nil for an
    /// installed family.
    public var file: URL?

    /// Creates a font request.
    public init(family: String = "DejaVu Sans", size: Double, weight: FontWeight = .regular, slant: FontSlant = .normal) {
        self.family = family; self.size = size; self.weight = weight; self.slant = slant
    }

    /// Registers the font file at `url` with fontconfig (once per path) and refers to its family,
    /// with the file's own weight and slant unless given; throws `.fontUnreadable` for a missing or unreadable file.
    public static func file(_ url: URL, size: Double, weight: FontWeight? = nil, slant: FontSlant? = nil) throws(MovieMakerError) -> TextFont {
        let font = try FontLibrary.register(path: url.path)
        var result = TextFont(family: font.family, size: size, weight: weight ?? font.weight, slant: slant ?? font.slant)
        result.file = url
        return result
    }

    /// The same font at another size.
    public func withSize(_ size: Double) -> TextFont { var f = self; f.size = size; return f }

    /// The family names in `family` (split at commas, trimmed, empty ones dropped).
    var familyNames: [String] {
        family.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension TextFont: Codable {
    private enum CodingKeys: String, CodingKey { case family, size, weight, slant, file }

    /// Reads a font request (`size` is required; `family` defaults to DejaVu Sans, `weight` to regular,
    /// `slant` to normal). With `file`, the file is registered (throwing if it cannot be read) and its
    /// family used; `weight` and `slant` then default to the file's own.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let size = try c.decode(Double.self, forKey: .size)
        if let file = try c.decodeIfPresent(FileLocation.self, forKey: .file) {
            let weight = try c.decodeIfPresent(FontWeight.self, forKey: .weight)
            let slant = try c.decodeIfPresent(FontSlant.self, forKey: .slant)
            self = try decodingErrors(at: c.codingPath + [CodingKeys.file]) {
                try TextFont.file(file.url, size: size, weight: weight, slant: slant)
            }
            return
        }
        self.init(family: try c.decode(.family, or: "DejaVu Sans"), size: size, weight: try c.decode(.weight, or: .regular),
                  slant: try c.decode(.slant, or: .normal))
    }

    /// Writes every field (`file` only when there is one).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(family, forKey: .family)
        try c.encode(size, forKey: .size)
        try c.encode(weight, forKey: .weight)
        try c.encode(slant, forKey: .slant)
        try c.encodeIfPresent(file.map(FileLocation.init), forKey: .file)
    }
}
