import Foundation

/// Filters that change each pixel's colour on its own (brightness, contrast, LUTs, looks…).
///
/// Each works on unpremultiplied colour and keeps alpha, so it applies to a clip's own pixels
/// whatever shows through them.
public enum ColorFilter: Sendable, Hashable {
    /// Grey by luma, mixed with the original by `amount` (0: unchanged, 1: fully grey).
    case grayscale(amount: FilterAmount)
}

extension ColorFilter {
    static let descriptors: [FilterDescriptor] = [
        FilterDescriptor("grayscale", "Shades of grey by luma (BT.709 weights); amount mixes with the original.", [
            FilterParameter("amount", .amount(0...1), "How grey: 0 unchanged, 1 fully grey (default 1)."),
        ]) { a throws(MovieMakerError) in .color(.grayscale(amount: try a.amount("amount", default: 1))) },
    ]

    /// The filter as a description file writes it.
    var spec: FilterSpec {
        switch self {
        case let .grayscale(amount): return FilterSpec(name: "grayscale", parameters: ["amount": FilterJSON.amount(amount)])
        }
    }

    /// Applies the filter to `image` in place.
    func apply(to image: FilterImage, at time: FilterTime) throws(MovieMakerError) {
        switch self {
        case let .grayscale(amount):
            let k = min(max(amount.value(at: time.seconds), 0), 1)
            guard k > 0 else { return }
            // Linear in the colour, so premultiplied pixels can be mixed as they are.
            image.forEachRowRange { rows in
                for y in rows {
                    let p = image.row(y)
                    for x in 0..<image.width {
                        let q = p + 4 * x
                        let b = Double(q[0]), g = Double(q[1]), r = Double(q[2])
                        let l = 0.2126 * r + 0.7152 * g + 0.0722 * b
                        q[0] = UInt8(min(255, (b + (l - b) * k).rounded()))
                        q[1] = UInt8(min(255, (g + (l - g) * k).rounded()))
                        q[2] = UInt8(min(255, (r + (l - r) * k).rounded()))
                    }
                }
            }
        }
    }
}

