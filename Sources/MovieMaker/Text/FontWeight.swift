internal import CPango
import Foundation

/// How heavy a font's strokes are (CSS weights 100…900); as data its name (`"bold"`), or when decoding
/// also its number (700).
public enum FontWeight: String, Sendable, Hashable, CaseIterable, Codable {
    /// 100.
    case thin
    /// 300.
    case light
    /// 400, the normal weight.
    case regular
    /// 500.
    case medium
    /// 600.
    case semibold
    /// 700.
    case bold
    /// 900.
    case heavy

    /// The CSS / OpenType weight number, 100…900.
    public var value: Int {
        switch self {
        case .thin: 100
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 900
        }
    }
    var pango: PangoWeight { PangoWeight(rawValue: UInt32(value)) }

    /// The nearest weight to a fontconfig `FC_WEIGHT` value (0 thin … 80 regular … 200 bold … 210 black).
    init(fontconfigWeight w: Int) {
        switch w {
        case ..<25: self = .thin
        case ..<65: self = .light
        case ..<90: self = .regular
        case ..<140: self = .medium
        case ..<190: self = .semibold
        case ..<203: self = .bold
        default: self = .heavy
        }
    }
}

extension FontWeight {
    /// Reads a weight's name (`"bold"`) or its CSS number (100, 300, 400, 500, 600, 700 or 900).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let name = c.decodeStringIfPossible(), let weight = FontWeight(rawValue: name) {
            self = weight
        } else if let number = try? c.decode(Int.self), let weight = FontWeight.allCases.first(where: { $0.value == number }) {
            self = weight
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription:
                "unknown font weight: expected one of \(FontWeight.allCases.map(\.rawValue).joined(separator: ", ")) or a number 100, 300, 400, 500, 600, 700, 900")
        }
    }
}
