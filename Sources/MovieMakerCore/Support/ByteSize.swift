import Foundation

/// A file size as people write it: `5MB`, `800 KB`, `1.5MB`, `2MiB`, or a plain number of bytes.
/// Decimal units (kB/KB, MB, GB) are powers of 1000, binary ones (KiB, MiB, GiB) of 1024, as the
/// platforms that set upload limits count them.
package enum ByteSize {
    /// The bytes `text` says, or nil when it is not a size (or not positive).
    package static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let factors: [String: Double] = ["": 1, "b": 1, "k": 1000, "kb": 1000, "m": 1_000_000, "mb": 1_000_000, "g": 1_000_000_000, "gb": 1_000_000_000,
                                         "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824]
        guard let number = Double(digits), number > 0, let factor = factors[unit] else { return nil }
        let bytes = (number * factor).rounded()
        guard bytes >= 1, bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }
}
